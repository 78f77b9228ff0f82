import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { AiChatClient, Bot } from '../../client/index.js';
import { api, client as dashboardClient } from '../api.js';
import '../ui/confirm-dialog.js';
import type { AicdConfirmDialog } from '../ui/confirm-dialog.js';
import { errorMessage } from '../ui/errors.js';
import { formatDate } from '../ui/format.js';
import { PagedList } from '../ui/paged-list.js';
import { pagedTable } from '../ui/paged-table.js';
import pageStyles from '../ui/page.styles.js';
import './bot-editor.js';
import type { BotSavedEvent } from './bot-editor.js';

/**
 * Bots: the list, and the editor (with its live preview and embed snippets) for the one chosen or
 * a new one. Deleting asks first, naming what goes with the bot.
 */
@customElement('aicd-bots-page')
export class AicdBotsPage extends LitElement {
  static override styles = pageStyles;

  /** The /v1 client; the signed-in session's (`/dashboard/api/v1`) unless a host or a test passes another. */
  @property({ attribute: false }) client: AiChatClient = dashboardClient;
  /** The session's CSRF token, for the preview widget (see `aicd-bot-editor`); default: the signed-in session's. */
  @property({ attribute: false }) csrfToken?: string;
  @property({ attribute: false }) previewBaseUrl = '/dashboard/api/v1';

  /** undefined: no editor; null: a new bot; else the bot being edited. */
  @state() private selected: Bot | null | undefined = undefined;
  @state() private notice = '';

  @query('aicd-confirm-dialog') private confirmDialog!: AicdConfirmDialog;

  private readonly bots = new PagedList<Bot>(this, (cursor) => this.client.bots.list({ cursor, limit: 50 }).then((r) => r.data));

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('client') && this.client) void this.bots.reload();
  }

  override render() {
    return html`
      <h1>Bots</h1>
      <p class="status" role="status">${this.notice}</p>
      <div class="toolbar"><button type="button" class="primary" @click=${() => this.select(null)}>New bot</button></div>
      ${this.renderList()}
      ${this.selected !== undefined
        ? html`<aicd-bot-editor
            .client=${this.client}
            .bot=${this.selected}
            .previewToken=${this.csrfToken ?? api.csrfToken}
            .previewBaseUrl=${this.previewBaseUrl}
            @aicd-bot-saved=${this.onSaved}
            @aicd-bot-delete=${this.onDelete}
          ></aicd-bot-editor>`
        : nothing}
      <aicd-confirm-dialog></aicd-confirm-dialog>
    `;
  }

  private renderList() {
    return pagedTable(this.bots, {
      caption: 'Bots',
      empty: 'No bots yet. Create one to put a chat on your site.',
      columns: ['Name', 'Language', 'Status', 'Updated', 'Actions'],
      row: (bot) => html`<tr aria-current=${this.selected?.id === bot.id ? 'true' : nothing}>
        <td>${bot.name}</td>
        <td>${bot.language}</td>
        <td>${bot.status}</td>
        <td>${formatDate(bot.updated_at)}</td>
        <td><button type="button" @click=${() => this.select(bot)} aria-label=${`Edit ${bot.name}`}>Edit</button></td>
      </tr>`,
    });
  }

  private async select(bot: Bot | null): Promise<void> {
    this.selected = bot;
    await this.updateComplete;
    const editor = this.renderRoot.querySelector('aicd-bot-editor');
    await editor?.updateComplete;
    editor?.renderRoot.querySelector<HTMLElement>('input')?.focus();
  }

  private onSaved(event: BotSavedEvent): void {
    this.bots.upsert(event.bot, (a, b) => a.id === b.id);
    this.selected = event.bot;
    this.notice = event.created ? `Created “${event.bot.name}”.` : `Saved “${event.bot.name}”.`;
  }

  private async onDelete(): Promise<void> {
    const bot = this.selected;
    if (!bot) return;
    const confirmed = await this.confirmDialog.ask({
      title: 'Delete this bot?',
      message: `“${bot.name}” will be deleted with every conversation started with it. Sites that embed it will stop answering. This cannot be undone.`,
      confirmLabel: 'Delete bot',
    });
    if (!confirmed) return;
    try {
      await this.client.bots.delete(bot.id);
      this.bots.remove((b) => b.id === bot.id);
      this.selected = undefined;
      this.notice = `Deleted “${bot.name}”.`;
    } catch (error) {
      this.notice = errorMessage(error);
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-bots-page': AicdBotsPage;
  }
}
