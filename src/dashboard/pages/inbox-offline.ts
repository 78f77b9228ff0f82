import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { isApiError, type OfflineMessage } from '../../client/index.js';
import type { DashboardApi } from '../api.js';
import { errorMessage } from '../ui/errors.js';
import { formatDate } from '../ui/format.js';
import { LocaleController, t, tParts } from '../i18n/i18n.js';
import pageStyles from '../ui/page.styles.js';

/** The answer being written: to which message, and what went wrong with the last Send. */
interface Draft {
  id: string;
  sending?: boolean;
  /** The service sends no email (503 `email_not_configured`): the operator's own mail app instead. */
  noEmail?: boolean;
  error?: string;
}

/** The email's subject, prefilled: the visitor's first words. */
function subjectFor(message: OfflineMessage): string {
  const words = message.message.replace(/\s+/g, ' ').trim();
  return `Re: ${words.length > 60 ? `${words.slice(0, 59)}…` : words}`;
}

/**
 * The inbox's messages left while nobody was online (the visitor's email and text), newest first;
 * nothing when there are none. Each is answered by email from here (Reply-To the operator), once:
 * an answered one says by whom and when, so a teammate does not answer it twice.
 */
@customElement('aicd-offline-messages')
export class AicdOfflineMessages extends LitElement {
  static override styles = [
    pageStyles,
    css`
      td {
        overflow-wrap: anywhere;
      }
      .reply-form {
        max-width: 40rem;
      }
      .reply-form input,
      .reply-form textarea {
        width: 100%;
        box-sizing: border-box;
      }
      .reply-form textarea {
        min-height: 8rem;
      }
    `,
  ];

  @state() private draft: Draft | null = null;
  private readonly i18n = new LocaleController(this);

  @property({ attribute: false }) messages: OfflineMessage[] = [];
  @property({ attribute: false }) api?: DashboardApi;

  private open(message: OfflineMessage): void {
    this.draft = { id: message.id };
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLTextAreaElement>('#offline-reply-text')?.focus());
  }

  private async send(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const { draft, api } = this;
    if (!draft || !api || draft.sending) return;
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const email = { subject: String(form.get('subject') ?? ''), text: String(form.get('text') ?? '') };
    this.draft = { id: draft.id, sending: true };
    try {
      const answered = await api.answerOfflineMessage(draft.id, email);
      this.messages = this.messages.map((m) => (m.id === answered.id ? answered : m));
      this.draft = null;
    } catch (error) {
      if (isApiError(error) && error.code === 'email_not_configured') return void (this.draft = { id: draft.id, noEmail: true });
      if (isApiError(error) && error.code === 'offline_message_answered') {
        // a teammate was first: show who, and close the form
        this.messages = await api.offlineMessages().catch(() => this.messages);
        this.draft = null;
        return;
      }
      this.draft = { id: draft.id, error: errorMessage(error) };
    }
  }

  private renderAnswer(m: OfflineMessage) {
    if (m.answered_at) return m.answered_by ? t('offline.answeredBy', { name: m.answered_by.name, when: formatDate(m.answered_at) }) : t('offline.answered', { when: formatDate(m.answered_at) });
    if (this.draft?.id === m.id) return t('offline.writing');
    return html`<button type="button" aria-label=${t('offline.replyTo', { email: m.email })} @click=${() => this.open(m)}>${t('offline.reply')}</button>`;
  }

  private renderForm(m: OfflineMessage, draft: Draft) {
    const mailto = `mailto:${encodeURIComponent(m.email)}?subject=${encodeURIComponent(subjectFor(m))}`;
    return html`<tr>
      <td colspan="4">
        <form class="reply-form" aria-label=${t('offline.replyTo', { email: m.email })} @submit=${(e: SubmitEvent) => this.send(e)}>
          <label>${t('offline.subject')}<input name="subject" required maxlength="200" .value=${subjectFor(m)} /></label>
          <label>${t('offline.message')}<textarea id="offline-reply-text" name="text" required maxlength="10000"></textarea>
            <span class="hint">${t('offline.sentTo', { email: m.email })}</span></label>
          ${draft.noEmail
            ? html`<p class="error" role="alert">
                ${tParts('offline.noSmtp', { setting: html`<code>AI_CHAT_SMTP_URL</code>`, link: html`<a href=${mailto}>${t('offline.emailLink', { email: m.email })}</a>` })}
              </p>`
            : nothing}
          ${draft.error ? html`<p class="error" role="alert">${draft.error}</p>` : nothing}
          <button class="primary" type="submit" ?disabled=${draft.sending}>${t('inbox.send')}</button>
          <button type="button" @click=${() => (this.draft = null)}>${t('confirm.cancel')}</button>
        </form>
      </td>
    </tr>`;
  }

  override render() {
    if (this.messages.length === 0) return nothing;
    const { draft } = this;
    return html`<section class="offline" aria-labelledby="offline-heading">
      <h2 id="offline-heading">${t('offline.title')}</h2>
      <table>
        <caption>${t('offline.caption')}</caption>
        <thead>
            <tr><th scope="col">${t('offline.received')}</th><th scope="col">${t('signIn.email')}</th><th scope="col">${t('offline.message')}</th><th scope="col">${t('offline.answer')}</th></tr>
          </thead>
        <tbody>
          ${this.messages.map(
            (m) => html`<tr><td>${formatDate(m.created_at)}</td><td>${m.email}</td><td>${m.message}</td><td>${this.renderAnswer(m)}</td></tr>
              ${draft?.id === m.id ? this.renderForm(m, draft) : nothing}`,
          )}
        </tbody>
      </table>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-offline-messages': AicdOfflineMessages;
  }
}
