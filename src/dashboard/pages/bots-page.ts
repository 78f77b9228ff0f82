import { LitElement, html } from 'lit';
import type { PropertyValues } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { AiChatClient, Bot } from '../../client/index.js';
import { client as dashboardClient } from '../api.js';
import '../ui/confirm-dialog.js';
import type { AicdConfirmDialog } from '../ui/confirm-dialog.js';
import { errorMessage } from '../ui/errors.js';
import { formatDate } from '../ui/format.js';
import { PagedList } from '../ui/paged-list.js';
import { pagedTable } from '../ui/paged-table.js';
import { LocaleController, t } from '../i18n/i18n.js';
import pageStyles from '../ui/page.styles.js';
import { deleteBotQuestion } from './bot-draft.js';
import styles from './bots-page.styles.js';

/**
 * Bots: the list, each bot linking to its own page (`#/bots/<id>`: the editor with its live preview
 * and embed snippets), a link to create one, and delete, which asks first and names what goes with
 * the bot.
 */
@customElement('aicd-bots-page')
export class AicdBotsPage extends LitElement {
  static override styles = [pageStyles, styles];

  /** The /v1 client; the signed-in session's (`/dashboard/api/v1`) unless a host or a test passes another. */
  @property({ attribute: false }) client: AiChatClient = dashboardClient;

  @state() private notice = '';
  @query('aicd-confirm-dialog') private confirmDialog!: AicdConfirmDialog;
  private readonly i18n = new LocaleController(this);

  private readonly bots = new PagedList<Bot>(this, (cursor) => this.client.bots.list({ cursor, limit: 50 }).then((r) => r.data));

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('client') && this.client) void this.bots.reload();
  }

  override render() {
    return html`
      <h1>${t('nav.bots')}</h1>
      <p class="status" role="status">${this.notice}</p>
      <p><a class="button primary" href="#/bots/new">${t('bots.newBot')}</a></p>
      ${pagedTable(this.bots, {
        caption: t('nav.bots'),
        empty: t('bots.noBots'),
        columns: [t('common.name'), t('common.language'), t('common.status'), t('common.updated'), t('keys.actions')],
        row: (bot) => html`<tr>
          <td><a href=${`#/bots/${encodeURIComponent(bot.id)}`}>${bot.name}</a></td>
          <td>${bot.language}</td>
          <td>${t(`botStatus.${bot.status}`)}</td>
          <td>${formatDate(bot.updated_at)}</td>
          <td><button type="button" class="danger" @click=${() => this.confirmDelete(bot)} aria-label=${t('list.deleteItem', { name: bot.name })}>${t('list.delete')}</button></td>
        </tr>`,
      })}
      <aicd-confirm-dialog></aicd-confirm-dialog>
    `;
  }

  private async confirmDelete(bot: Bot): Promise<void> {
    const confirmed = await this.confirmDialog.ask(deleteBotQuestion(bot));
    if (!confirmed) return;
    try {
      await this.client.bots.delete(bot.id);
      this.bots.remove((b) => b.id === bot.id);
      this.notice = t('bots.deleted', { name: bot.name });
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
