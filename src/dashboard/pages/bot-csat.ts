/**
 * The bot editor's "Satisfaction survey" section: `GET/PUT /v1/bots/{id}/csat`. Whether the widget
 * asks visitors to rate the conversation after an operator ended their part (on by default), and
 * whether a conversation the bot answered alone may be rated too (off by default). Its own form
 * and save, beside the bot's and the handoff's. A chunk of its own (the editor loads it).
 */
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { AiChatClient, CsatSettings } from '../../client/index.js';
import { errorMessage } from '../ui/errors.js';
import { LocaleController, t } from '../i18n/i18n.js';
import pageStyles from '../ui/page.styles.js';

/** A checkbox beside its words (page labels stack their field below the words). */
const styles = css`
  label.check {
    flex-direction: row;
    align-items: center;
    gap: 0.5rem;
    font-weight: 400;
  }
`;

@customElement('aicd-bot-csat')
export class AicdBotCsat extends LitElement {
  static override styles = [pageStyles, styles];

  @property({ attribute: false }) client!: AiChatClient;
  @property({ attribute: false }) botId = '';

  /** As edited; null until read. */
  @state() private draft: CsatSettings | null = null;
  @state() private error = '';
  @state() private notice = '';
  @state() private saving = false;
  private readonly i18n = new LocaleController(this);

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('botId') || changed.has('client')) void this.load();
  }

  private async load(): Promise<void> {
    const id = this.botId;
    [this.draft, this.error, this.notice] = [null, '', ''];
    if (!id || !this.client) return;
    try {
      const { data } = await this.client.csat.settings(id);
      if (id === this.botId) this.draft = data;
    } catch (error) {
      if (id === this.botId) this.error = errorMessage(error);
    }
  }

  private async save(event: Event): Promise<void> {
    event.preventDefault();
    const { draft, botId: id } = this;
    if (!draft) return;
    [this.saving, this.error, this.notice] = [true, '', ''];
    try {
      const { data } = await this.client.csat.updateSettings(id, { after_handoff: draft.after_handoff, after_bot: draft.after_bot });
      if (id !== this.botId) return;
      this.draft = data;
      this.notice = t('bots.surveySaved');
    } catch (error) {
      if (id === this.botId) [this.error, this.notice] = [errorMessage(error), t('common.notSaved')];
    } finally {
      this.saving = false;
    }
  }

  private check(name: 'after_handoff' | 'after_bot', label: string) {
    const change = (e: Event) => (this.draft = { ...this.draft!, [name]: (e.target as HTMLInputElement).checked });
    return html`<label class="check"><input type="checkbox" name=${name} .checked=${this.draft![name]} @change=${change} /> ${label}</label>`;
  }

  override render() {
    return html`<section aria-labelledby="csat-heading">
      <h2 id="csat-heading">${t('bots.survey')}</h2>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.draft
        ? html`<form novalidate aria-labelledby="csat-heading" @submit=${this.save}>
            <p class="hint">${t('bots.surveyHint')}</p>
            ${this.check('after_handoff', t('bots.afterOperator'))}
            ${this.check('after_bot', t('bots.afterBot'))}
            <div class="toolbar">
              <button type="submit" class="primary" ?disabled=${this.saving}>${t('bots.saveSurvey')}</button>
              <span class="status" role="status">${this.notice}</span>
            </div>
          </form>`
        : this.error ? nothing : html`<p class="status" role="status">${t('list.loading')}</p>`}
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-bot-csat': AicdBotCsat;
  }
}
