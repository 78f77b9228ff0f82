import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { AiChatClient, Bot, Conversation, ConversationListQuery, Csat, Feedback, Message } from '../../client/index.js';
import { client as dashboardClient } from '../api.js';
import '../ui/confirm-dialog.js';
import type { AicdConfirmDialog } from '../ui/confirm-dialog.js';
import { messageAttachments } from '../ui/attachment-list.js';
import { errorMessage } from '../ui/errors.js';
import { csatSummary, feedbackSummary, formatDate } from '../ui/format.js';
import { PagedList } from '../ui/paged-list.js';
import { pagedTable } from '../ui/paged-table.js';
import { LocaleController, t } from '../i18n/i18n.js';
import pageStyles from '../ui/page.styles.js';
import { saveFile, transcriptCsv, transcriptJson } from './conversation-export.js';
import styles from './conversations-page.styles.js';

interface Filters {
  bot_id: string;
  from: string;
  to: string;
  user_id: string;
  q: string;
  label: string;
}

const NO_FILTERS: Filters = { bot_id: '', from: '', to: '', user_id: '', q: '', label: '' };

/** A conversation's labels, the team's free text: as text only. */
const labelList = (labels: string[]) => (labels.length ? html`<ul class="labels">${labels.map((l) => html`<li>${l}</li>`)}</ul>` : nothing);

/** Longest transcript read for one view or export (the history endpoint pages by 200). */
const MAX_TRANSCRIPT_PAGES = 50;

/**
 * Conversations: the filtered, cursor-paged list (`GET /v1/conversations`) with the labels the
 * team put on each (the inbox puts them on: conversation-labels.ts), one transcript (also
 * opened by its link, `#/conversations/<id>`) with the visitors' feedback under the rated answers
 * and their satisfaction rating of the whole conversation,
 * its export as JSON or CSV, and its delete. Visitor messages and comments are the most hostile
 * text the dashboard shows; they are rendered only through text bindings.
 */
@customElement('aicd-conversations-page')
export class AicdConversationsPage extends LitElement {
  static override styles = [pageStyles, styles];

  /** The /v1 client; the signed-in session's (`/dashboard/api/v1`) unless a host or a test passes another. */
  @property({ attribute: false }) client: AiChatClient = dashboardClient;
  /** The conversation to open, from the route (`#/conversations/<id>`). */
  @property({ attribute: false }) conversationId = '';

  @state() private filters: Filters = NO_FILTERS;
  @state() private bots: Bot[] = [];
  @state() private open: Conversation | null = null;
  @state() private transcript: Message[] = [];
  @state() private feedback: Feedback[] = [];
  /** The visitor's satisfaction rating of the open conversation, once read (null: none). */
  @state() private csat: Csat | null = null;
  @state() private transcriptError = '';
  @state() private transcriptLoading = false;
  @state() private notice = '';

  @query('aicd-confirm-dialog') private confirmDialog!: AicdConfirmDialog;
  private readonly i18n = new LocaleController(this);

  private readonly list = new PagedList<Conversation>(this, (cursor) => this.fetchPage(cursor));

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('client') && this.client) {
      void this.list.reload();
      void this.loadBots();
    }
    if ((changed.has('conversationId') || changed.has('client')) && this.conversationId && this.client) void this.openById(this.conversationId);
  }

  override render() {
    return html`
      <h1>${t('nav.conversations')}</h1>
      <p class="status" role="status">${this.notice}</p>
      ${this.renderFilters()} ${this.renderList()} ${this.open ? this.renderTranscript(this.open) : nothing}
      <aicd-confirm-dialog></aicd-confirm-dialog>
    `;
  }

  private renderFilters() {
    const f = this.filters;
    const set = (key: keyof Filters) => (e: Event) => (this.filters = { ...this.filters, [key]: (e.target as HTMLInputElement).value });
    return html`<form class="filters" aria-label=${t('conv.filter')} @submit=${this.applyFilters}>
      <label>
        ${t('overview.bot')}
        <select name="bot_id" @change=${set('bot_id')}>
          <option value="" ?selected=${f.bot_id === ''}>${t('conv.allBots')}</option>
          ${this.bots.map((bot) => html`<option value=${bot.id} ?selected=${f.bot_id === bot.id}>${bot.name}</option>`)}
        </select>
      </label>
      <label>${t('conv.from')} <input type="date" name="from" .value=${f.from} @input=${set('from')} /></label>
      <label>${t('conv.to')} <input type="date" name="to" .value=${f.to} @input=${set('to')} /></label>
      <label>${t('conv.userId')} <input name="user_id" maxlength="128" .value=${f.user_id} @input=${set('user_id')} /></label>
      <label>${t('conv.text')} <input type="search" name="q" .value=${f.q} @input=${set('q')} /></label>
      <label>${t('conv.label')} <input name="label" maxlength="40" .value=${f.label} @input=${set('label')} /></label>
      <div class="toolbar">
        <button type="submit" class="primary">${t('conv.apply')}</button>
        <button type="button" @click=${this.resetFilters}>${t('conv.reset')}</button>
      </div>
    </form>`;
  }

  private renderList() {
    return pagedTable(this.list, {
      caption: t('conv.caption'),
      empty: t('conv.noMatch'),
      columns: [t('conv.started'), t('overview.bot'), t('conv.user'), t('conv.lastMessage'), t('conv.labels'), t('keys.actions')],
      row: (c) => html`<tr aria-current=${this.open?.id === c.id ? 'true' : nothing}>
        <td>${formatDate(c.created_at)}</td>
        <td>${this.botName(c)}</td>
        <td>${c.user_id ?? t('format.none')}</td>
        <td class="preview">${c.last_message?.preview ?? ''}</td>
        <td>${labelList(c.labels)}</td>
        <td><button type="button" @click=${() => this.openConversation(c)} aria-label=${t('conv.openStarted', { when: formatDate(c.created_at) })}>${t('conv.open')}</button></td>
      </tr>`,
    });
  }

  private renderTranscript(c: Conversation) {
    return html`<section class="transcript" aria-labelledby="transcript-heading">
      <h2 id="transcript-heading" tabindex="-1">${t('conv.transcript')}</h2>
      <p class="meta">${t('conv.meta', { bot: this.botName(c), user: c.user_id ?? t('format.none'), when: formatDate(c.created_at) })}</p>
      ${c.labels.length ? html`<p class="meta">${t('conv.labelsColon')}</p>${labelList(c.labels)}` : nothing}
      ${this.csat
        ? html`<p class="csat">${t('conv.satisfaction', { rating: csatSummary(this.csat.rating) })}${this.csat.comment ? html`: <q>${this.csat.comment}</q>` : nothing}</p>`
        : nothing}
      <div class="toolbar">
        <button type="button" @click=${() => this.export('json')} ?disabled=${this.transcriptLoading}>${t('transfer.exportJson')}</button>
        <button type="button" @click=${() => this.export('csv')} ?disabled=${this.transcriptLoading}>${t('transfer.exportCsv')}</button>
        <button type="button" class="danger" @click=${() => this.confirmDelete(c)}>${t('conv.delete')}</button>
        <button type="button" @click=${() => (this.open = null)}>${t('addIntent.close')}</button>
      </div>
      ${this.transcriptError ? html`<p class="error" role="alert">${this.transcriptError}</p>` : nothing}
      ${this.transcriptLoading ? html`<p class="status">${t('list.loading')}</p>` : nothing}
      <ol class="messages">
        ${this.transcript.map(
          (m) => html`<li class=${`message ${m.role}`}>
            <p class="who">${m.role === 'user' ? t('conv.visitor') : m.role === 'assistant' ? t('conv.bot') : m.role === 'operator' ? t('conv.person', { name: m.author?.name ?? t('conv.operator') }) : t('conv.system')} · ${formatDate(m.created_at)}${m.source ? ` · ${m.source}` : ''}${m.intent ? ` · ${m.intent}` : ''}</p>
            <p class="text">${m.content}</p>
            ${messageAttachments(m, this.client.baseUrl)}
            ${this.feedback
              .filter((f) => f.message_id === m.id)
              .map((f) => html`<p class="feedback">${feedbackSummary(f)}${f.comment ? html`: <q>${f.comment}</q>` : nothing}</p>`)}
          </li>`,
        )}
      </ol>
    </section>`;
  }

  private botName(c: Conversation): string {
    if (c.bot_id) return this.bots.find((b) => b.id === c.bot_id)?.name ?? c.bot_id;
    return c.agent_id ?? t('conv.chat');
  }

  private fetchPage(cursor: string | undefined) {
    const query: ConversationListQuery = { limit: 50 };
    for (const [key, value] of Object.entries(this.filters) as [keyof Filters, string][]) {
      if (value.trim()) query[key] = value.trim();
    }
    if (cursor) query.cursor = cursor;
    return this.client.conversations.list(query).then((r) => r.data);
  }

  private async loadBots(): Promise<void> {
    try {
      this.bots = (await this.client.bots.list({ limit: 200 })).data.items;
    } catch {
      // The filter then lists no bots; the conversation list shows ids instead of names.
    }
  }

  private applyFilters(event: Event): void {
    event.preventDefault();
    void this.list.reload();
  }

  private resetFilters(): void {
    this.filters = NO_FILTERS;
    void this.list.reload();
  }

  private async openById(id: string): Promise<void> {
    try {
      await this.openConversation((await this.client.conversations.get(id)).data);
    } catch (error) {
      this.notice = errorMessage(error);
    }
  }

  private async openConversation(c: Conversation): Promise<void> {
    this.open = c;
    this.transcript = [];
    this.feedback = [];
    this.csat = null;
    this.transcriptError = '';
    this.transcriptLoading = true;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#transcript-heading')?.focus();
    try {
      const feedback = this.client.conversations.feedback(c.id);
      const csat = this.client.csat.state(c.id);
      const messages: Message[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_TRANSCRIPT_PAGES; page++) {
        const { data } = await this.client.chat.history({ conversation_id: c.id, limit: 200, cursor });
        messages.push(...data.items);
        if (!data.has_more || !data.next_cursor) break;
        cursor = data.next_cursor;
      }
      const [rated, satisfaction] = [(await feedback).data.items, (await csat).data.csat];
      if (this.open?.id === c.id) [this.transcript, this.feedback, this.csat] = [messages, rated, satisfaction];
    } catch (error) {
      if (this.open?.id === c.id) this.transcriptError = errorMessage(error);
    } finally {
      if (this.open?.id === c.id) this.transcriptLoading = false;
    }
  }

  private export(format: 'json' | 'csv'): void {
    if (!this.open) return;
    const save = format === 'json' ? transcriptJson : transcriptCsv;
    saveFile(this, save(this.open, this.transcript, this.feedback, this.csat));
  }

  private async confirmDelete(c: Conversation): Promise<void> {
    const confirmed = await this.confirmDialog.ask({
      title: t('conv.deleteTitle'),
      message: t('conv.deleteMessage', { user: c.user_id ?? t('conv.unknown') }),
      confirmLabel: t('conv.delete'),
    });
    if (!confirmed) return;
    try {
      await this.client.conversations.delete(c.id);
      this.list.remove((item) => item.id === c.id);
      this.open = null;
      this.notice = t('conv.deleted');
    } catch (error) {
      this.notice = errorMessage(error);
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-conversations-page': AicdConversationsPage;
  }
}
