import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { CannedReply } from '../../client/index.js';
import { api as defaultApi, type DashboardApi } from '../api.js';
import '../ui/confirm-dialog.js';
import type { AicdConfirmDialog } from '../ui/confirm-dialog.js';
import { errorMessage } from '../ui/errors.js';
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

  override render() {
    return html`<p class="meta">Type <kbd>/</kbd> and a shortcut in a reply to insert one.</p>
      <p class="status" role="status">${this.notice}</p>
      ${this.replies.length
        ? html`<table>
            <caption>Canned replies, by shortcut</caption>
            <thead><tr><th scope="col">Shortcut</th><th scope="col">Text</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              ${this.replies.map(
                (r) => html`<tr>
                  <td>/${r.shortcut}</td>
                  <td>${r.text}</td>
                  <td>
                    <button type="button" @click=${() => this.edit(r)} aria-label=${`Edit /${r.shortcut}`}>Edit</button>
                    <button type="button" class="danger" @click=${() => this.deleteReply(r)} aria-label=${`Delete /${r.shortcut}`}>Delete</button>
                  </td>
                </tr>`,
              )}
            </tbody>
          </table>`
        : html`<p>No canned replies yet.</p>`}
      <form @submit=${this.save}>
        <label for="canned-shortcut">Shortcut</label>
        <p class="hint" id="canned-shortcut-hint">1–32 lowercase letters, digits, - or _.</p>
        <input id="canned-shortcut" name="shortcut" required maxlength="32" pattern="[a-z0-9_\\-]{1,32}" aria-describedby="canned-shortcut-hint" .value=${this.shortcut} @input=${(e: Event) => (this.shortcut = (e.target as HTMLInputElement).value)} />
        <label for="canned-text">Text</label>
        <textarea id="canned-text" name="text" required maxlength="4000" .value=${this.text} @input=${(e: Event) => (this.text = (e.target as HTMLTextAreaElement).value)}></textarea>
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
        <div class="toolbar">
          <button type="submit" class="primary">${this.editing ? 'Save canned reply' : 'Add canned reply'}</button>
          ${this.editing ? html`<button type="button" @click=${this.reset}>Cancel</button>` : nothing}
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
      this.notice = editing ? `Saved /${data.shortcut}.` : `Added /${data.shortcut}.`;
      this.reset();
    } catch (error) {
      this.error = errorMessage(error);
    }
  }

  private async deleteReply(reply: CannedReply): Promise<void> {
    const yes = await this.confirm.ask({ title: `Delete /${reply.shortcut}?`, message: 'Nobody can insert it any more.', confirmLabel: 'Delete canned reply' });
    if (!yes) return;
    try {
      await this.api.client.cannedReplies.delete(reply.id);
      this.changed(this.replies.filter((r) => r.id !== reply.id));
      this.notice = `Deleted /${reply.shortcut}.`;
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
