import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { CannedReply } from '../../client/index.js';
import { api as defaultApi, type DashboardApi } from '../api.js';
import '../ui/confirm-dialog.js';
import type { AicdConfirmDialog } from '../ui/confirm-dialog.js';
import { errorMessage } from '../ui/errors.js';
import { LocaleController, t, tParts } from '../i18n/i18n.js';
import pageStyles from '../ui/page.styles.js';

/** Fired after the team's canned replies changed: all of them now. */
export class CannedRepliesChangeEvent extends Event {
  constructor(readonly replies: CannedReply[]) {
    super('aicd-canned-change', { bubbles: true, composed: true });
  }
}

/**
 * The team's canned replies, managed in the Inbox: the list, a form to add one or change the one
 * being edited, and delete (after a confirmation). Any teammate may manage them, as on /v1.
 *
 * @fires aicd-canned-change - After a reply was added, changed or deleted (`CannedRepliesChangeEvent`).
 */
@customElement('aicd-canned-replies')
export class AicdCannedReplies extends LitElement {
  static override styles = [
    pageStyles,
    css`
      td {
        overflow-wrap: anywhere;
        white-space: pre-wrap;
      }
      textarea {
        width: 100%;
        box-sizing: border-box;
        min-height: 4rem;
      }
    `,
  ];

  @property({ attribute: false }) api: DashboardApi = defaultApi;
  @property({ attribute: false }) replies: CannedReply[] = [];

  @state() private editing: CannedReply | null = null;
  @state() private shortcut = '';
  @state() private text = '';
  @state() private error = '';
  @state() private notice = '';
  @query('aicd-confirm-dialog') private confirm!: AicdConfirmDialog;
  private readonly i18n = new LocaleController(this);

  override render() {
    return html`<p class="meta">${tParts('canned.how', { key: html`<kbd>/</kbd>` })}</p>
      <p class="status" role="status">${this.notice}</p>
      ${this.replies.length
        ? html`<table>
            <caption>${t('canned.caption')}</caption>
            <thead>
              <tr><th scope="col">${t('canned.shortcut')}</th><th scope="col">${t('conv.text')}</th><th scope="col"><span class="visually-hidden">${t('keys.actions')}</span></th></tr>
            </thead>
            <tbody>
              ${this.replies.map(
                (r) => html`<tr>
                  <td>/${r.shortcut}</td>
                  <td>${r.text}</td>
                  <td>
                    <button type="button" @click=${() => this.edit(r)} aria-label=${t('canned.editItem', { shortcut: r.shortcut })}>${t('list.edit')}</button>
                    <button type="button" class="danger" @click=${() => this.deleteReply(r)} aria-label=${t('canned.deleteItem', { shortcut: r.shortcut })}>${t('list.delete')}</button>
                  </td>
                </tr>`,
              )}
            </tbody>
          </table>`
        : html`<p>${t('canned.none')}</p>`}
      <form @submit=${this.save}>
        <label for="canned-shortcut">${t('canned.shortcut')}</label>
        <p class="hint" id="canned-shortcut-hint">${t('canned.shortcutHint')}</p>
        <input id="canned-shortcut" name="shortcut" required maxlength="32" pattern="[a-z0-9_\\-]{1,32}" aria-describedby="canned-shortcut-hint" .value=${this.shortcut} @input=${(e: Event) => (this.shortcut = (e.target as HTMLInputElement).value)} />
        <label for="canned-text">${t('conv.text')}</label>
        <textarea id="canned-text" name="text" required maxlength="4000" .value=${this.text} @input=${(e: Event) => (this.text = (e.target as HTMLTextAreaElement).value)}></textarea>
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
        <div class="toolbar">
          <button type="submit" class="primary">${t(this.editing ? 'canned.save' : 'canned.add')}</button>
          ${this.editing ? html`<button type="button" @click=${this.reset}>${t('confirm.cancel')}</button>` : nothing}
        </div>
      </form>
      <aicd-confirm-dialog></aicd-confirm-dialog>`;
  }

  private edit(reply: CannedReply): void {
    this.editing = reply;
    this.shortcut = reply.shortcut;
    this.text = reply.text;
    this.renderRoot.querySelector<HTMLInputElement>('#canned-shortcut')?.focus();
  }

  private reset(): void {
    this.editing = null;
    this.shortcut = '';
    this.text = '';
    this.error = '';
  }

  private async save(event: Event): Promise<void> {
    event.preventDefault();
    const body = { shortcut: this.shortcut.trim(), text: this.text };
    try {
      const editing = this.editing;
      const { data } = editing ? await this.api.client.cannedReplies.update(editing.id, body) : await this.api.client.cannedReplies.create(body);
      this.changed([...this.replies.filter((r) => r.id !== data.id), data]);
      this.notice = t(editing ? 'canned.saved' : 'canned.added', { shortcut: data.shortcut });
      this.reset();
    } catch (error) {
      this.error = errorMessage(error);
    }
  }

  private async deleteReply(reply: CannedReply): Promise<void> {
    const yes = await this.confirm.ask({ title: t('canned.deleteTitle', { shortcut: reply.shortcut }), message: t('canned.deleteMessage'), confirmLabel: t('canned.delete') });
    if (!yes) return;
    try {
      await this.api.client.cannedReplies.delete(reply.id);
      this.changed(this.replies.filter((r) => r.id !== reply.id));
      this.notice = t('canned.deleted', { shortcut: reply.shortcut });
    } catch (error) {
      this.notice = errorMessage(error);
    }
  }

  private changed(replies: CannedReply[]): void {
    this.replies = replies.sort((a, b) => a.shortcut.localeCompare(b.shortcut));
    this.dispatchEvent(new CannedRepliesChangeEvent(this.replies));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-canned-replies': AicdCannedReplies;
  }
}
