/**
 * "Add to intent…" beside an unanswered question (the overview): the owner picks a bot and one of
 * its intents, and the question becomes an example of it. A chunk of its own, loaded with the
 * overview's unanswered questions.
 */
import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { AiChatClient, Bot } from '../../client/index.js';
import { errorMessage } from '../ui/errors.js';
import { LocaleController, t } from '../i18n/i18n.js';
import pageStyles from '../ui/page.styles.js';

/** Bots offered: the first page of the list (the service's largest). */
const BOTS_LIMIT = 200;

/**
 * The button and its dialog. Adding reads the bot afresh and saves its training with the example
 * appended (`PUT /v1/bots/{id}`), which retrains it before answering, as a save in the editor does.
 *
 * @fires aicd-example-added - The question is now an example (detail: `{botId, intent}`).
 */
@customElement('aicd-add-to-intent')
export class AicdAddToIntent extends LitElement {
  static override styles = [
    pageStyles,
    css`
      dialog {
        max-width: 30rem;
      }
      button.open {
        white-space: nowrap;
      }
    `,
  ];

  @property({ attribute: false }) client!: AiChatClient;
  /** The unanswered question, added as it was asked. */
  @property() question = '';

  @state() private bots: Bot[] = [];
  @state() private botId = '';
  @state() private intent = '';
  @state() private status = '';
  @state() private problem = '';
  @state() private busy = false;
  private readonly i18n = new LocaleController(this);
  @query('dialog') private dialog!: HTMLDialogElement;

  private get bot(): Bot | undefined {
    return this.bots.find((b) => b.id === this.botId);
  }

  override render() {
    const intents = this.bot?.training.intents ?? [];
    return html`<button type="button" class="open" aria-label=${t('addIntent.openLabel', { question: this.question })} @click=${this.open}>${t('addIntent.open')}</button>
      <dialog aria-labelledby="add-heading" @close=${() => (this.problem = '')}>
        <form method="dialog" @submit=${this.add}>
          <h2 id="add-heading">${t('addIntent.title')}</h2>
          <p>${t('addIntent.explain', { question: this.question })}</p>
          <label for="add-bot"
            >${t('overview.bot')}
            <select id="add-bot" name="add-bot" @change=${(e: Event) => this.pickBot((e.target as HTMLSelectElement).value)}>
              ${this.bots.map((b) => html`<option value=${b.id} ?selected=${b.id === this.botId}>${b.name}</option>`)}
            </select></label
          >
          <label for="add-intent"
            >${t('overview.intent')}
            <select id="add-intent" name="add-intent" @change=${(e: Event) => (this.intent = (e.target as HTMLSelectElement).value)}>
              ${intents.map((i) => html`<option value=${i.name} ?selected=${i.name === this.intent}>${i.name}</option>`)}
            </select></label
          >
          <p class="status" role="status">${this.busy ? t('addIntent.adding') : this.status}</p>
          ${this.problem ? html`<p class="error" role="alert">${this.problem}</p>` : nothing}
          <div class="toolbar">
            <button type="submit" class="primary" ?disabled=${this.busy || !this.intent}>${t('addIntent.add')}</button>
            <button type="button" @click=${() => this.dialog.close()}>${t('addIntent.close')}</button>
          </div>
        </form>
      </dialog>`;
  }

  private async open(): Promise<void> {
    this.status = '';
    this.problem = '';
    this.dialog.showModal();
    try {
      this.bots = (await this.client.bots.list({ limit: BOTS_LIMIT })).data.items.filter((b) => b.training.intents.length > 0);
      if (!this.bots.length) this.problem = t('addIntent.noBot');
      this.pickBot(this.bot ? this.botId : (this.bots[0]?.id ?? ''));
    } catch (error) {
      this.problem = errorMessage(error);
    }
  }

  private pickBot(botId: string): void {
    this.botId = botId;
    const intents = this.bot?.training.intents ?? [];
    if (!intents.some((i) => i.name === this.intent)) this.intent = intents[0]?.name ?? '';
  }

  private async add(event: Event): Promise<void> {
    event.preventDefault(); // the dialog stays open to show the outcome
    const { botId, intent } = this;
    this.busy = true;
    this.problem = '';
    try {
      // Afresh, just before the save: edits made since the dialog opened are kept.
      const { data: bot } = await this.client.bots.get(botId);
      const target = bot.training.intents.find((i) => i.name === intent);
      if (!target) throw new Error(`“${bot.name}” no longer has the intent ${intent}.`);
      if (target.examples.includes(this.question)) {
        this.status = t('addIntent.already', { intent });
        return;
      }
      const intents = bot.training.intents.map((i) => (i === target ? { ...i, examples: [...i.examples, this.question] } : i));
      const { data: saved } = await this.client.bots.update(botId, { training: { ...bot.training, intents } });
      this.bots = this.bots.map((b) => (b.id === saved.id ? saved : b));
      this.status = t('addIntent.added', { intent, bot: saved.name, status: t(`botStatus.${saved.status}`) });
      this.dispatchEvent(new CustomEvent('aicd-example-added', { detail: { botId, intent }, bubbles: true, composed: true }));
    } catch (error) {
      this.problem = errorMessage(error);
    } finally {
      this.busy = false;
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-add-to-intent': AicdAddToIntent;
  }
}
