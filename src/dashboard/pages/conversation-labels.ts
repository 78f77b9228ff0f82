import { LitElement, css, html } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { api as defaultApi, type DashboardApi } from '../api.js';
import { errorMessage } from '../ui/errors.js';
import { LocaleController, t } from '../i18n/i18n.js';
import pageStyles from '../ui/page.styles.js';

/** Fired after the labels changed on the service: the conversation's labels now. */
export class LabelsChangeEvent extends Event {
  constructor(
    readonly conversationId: string,
    readonly labels: string[],
  ) {
    super('aicd-labels-change', { bubbles: true, composed: true });
  }
}

/**
 * A conversation's labels in the inbox: each with a remove button, and a field to add one
 * (`POST /v1/conversations/{id}/labels`). Labels are the team's free text, shown as text only.
 *
 * @fires aicd-labels-change - After a label was added or removed (`LabelsChangeEvent`).
 */
@customElement('aicd-conversation-labels')
export class AicdConversationLabels extends LitElement {
  static override styles = [
    pageStyles,
    css`
      ul {
        list-style: none;
        display: flex;
        flex-wrap: wrap;
        gap: 0.4rem;
        padding: 0;
        margin: 0 0 0.5rem;
      }
      li {
        border: 1px solid var(--aicd-border, #d5d9df);
        border-radius: 999px;
        padding: 0.1rem 0.2rem 0.1rem 0.6rem;
        overflow-wrap: anywhere;
      }
      form {
        display: flex;
        gap: 0.5rem;
        align-items: end;
      }
    `,
  ];

  @property({ attribute: false }) api: DashboardApi = defaultApi;
  @property({ attribute: false }) conversationId = '';
  @property({ attribute: false }) labels: string[] = [];

  @state() private draft = '';
  @state() private error = '';
  private readonly i18n = new LocaleController(this);

  override render() {
    return html`<h3 id="labels-heading">${t('conv.labels')}</h3>
      ${this.labels.length
        ? html`<ul aria-labelledby="labels-heading">
            ${this.labels.map((label) => html`<li>${label} <button type="button" class="link" aria-label=${t('labels.removeLabel', { label })} @click=${() => this.change({ remove: [label] })}>×</button></li>`)}
          </ul>`
        : html`<p class="meta">${t('labels.none')}</p>`}
      <form @submit=${this.add}>
        <div>
          <label for="new-label">${t('labels.new')}</label>
          <input id="new-label" maxlength="40" .value=${this.draft} @input=${(e: Event) => (this.draft = (e.target as HTMLInputElement).value)} />
        </div>
        <button type="submit" ?disabled=${!this.draft.trim()}>${t('labels.add')}</button>
      </form>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ''}`;
  }

  private async add(event: Event): Promise<void> {
    event.preventDefault();
    if (await this.change({ add: [this.draft.trim()] })) this.draft = '';
  }

  private async change(update: { add?: string[]; remove?: string[] }): Promise<boolean> {
    try {
      const { data } = await this.api.client.conversations.labels(this.conversationId, update);
      this.labels = data.labels;
      this.error = '';
      this.dispatchEvent(new LabelsChangeEvent(this.conversationId, data.labels));
      return true;
    } catch (error) {
      this.error = errorMessage(error);
      return false;
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-conversation-labels': AicdConversationLabels;
  }
  interface HTMLElementEventMap {
    'aicd-labels-change': LabelsChangeEvent;
  }
}
