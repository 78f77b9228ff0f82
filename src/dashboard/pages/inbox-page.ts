import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { CannedReply, HandoffEvent, InboxConversation, Message, OfflineMessage } from '../../client/index.js';
import { api as defaultApi, type DashboardApi } from '../api.js';
import { messageAttachments } from '../ui/attachment-list.js';
import { errorMessage } from '../ui/errors.js';
import { formatDate, waitLabel } from '../ui/format.js';
import { LocaleController, t } from '../i18n/i18n.js';
import pageStyles from '../ui/page.styles.js';
import styles from './inbox-page.styles.js';
import './inbox-offline.js';
import './inbox-visitor.js';
import './reply-files.js';
import type { AicdReplyFiles, ReplyFilesChangeEvent, ReplyFilesState } from './reply-files.js';
import { CannedPicker } from './canned-picker.js';
import './canned-replies-panel.js';
import type { CannedRepliesChangeEvent } from './canned-replies-panel.js';
import './conversation-labels.js';
import type { LabelsChangeEvent } from './conversation-labels.js';
import { inView, type InboxView, type InboxViewChangeEvent } from './inbox-assign.js';
import './assignment-settings.js';
import { byTime, carriesFiles, whoOf } from './inbox-messages.js';

/** Typing notices go out at most this often while the operator types. */
const TYPING_EVERY_MS = 3000;
/** How long a visitor's typing notice shows. */
const TYPING_SHOWN_MS = 5000;
/** Wait times are shown in whole minutes; redrawn this often. */
const CLOCK_MS = 15_000;

const NO_FILES: ReplyFilesState = { ids: [], uploading: false };

/**
 * The operator inbox (human handoff): conversations waiting for a person first, longest wait on top,
 * then those with a person; take one, read its transcript, reply, close it (back to the bot, or
 * end it), with files (attached, dropped or pasted; each message's files shown with it); messages
 * left while nobody was online. Live over the inbox's event stream (the operator's presence is the
 * shell's: operator-bar.ts). Visitor text and file names are rendered only
 * through text bindings.
 *
 * The team's tools: canned replies inserted by typing `/` in the reply (canned-picker.ts; managed
 * at the bottom of the page), private notes in the transcript, labels, and a search and label
 * filter of the list.
 */
@customElement('aicd-inbox-page')
export class AicdInboxPage extends LitElement {
  static override styles = [pageStyles, styles];

  /** The dashboard API of the signed-in session (the shell sets it). */
  @property({ attribute: false }) api: DashboardApi = defaultApi;

  @state() private items: InboxConversation[] = [];
  @state() private offline: OfflineMessage[] = [];
  @state() private openId: string | null = null;
  @state() private transcript: Message[] = [];
  @state() private draft = '';
  @state() private notice = '';
  @state() private error = '';
  @state() private now = Date.now();
  @state() private live = false;
  /** The open conversation's visitor is typing (until this time). */
  @state() private visitorTypingUntil = 0;
  /** The reply's files, as its file list last reported them. */
  @state() private files: ReplyFilesState = NO_FILES;
  /** A reply is on its way: a second Enter must not send its files twice (the service refuses that). */
  @state() private sending = false;
  @query('aicd-reply-files') private fileList?: AicdReplyFiles;
  @query('#reply') private replyBox?: HTMLTextAreaElement;
  /** The list's filters: text in a message or note, one label, and the view (mine, unassigned, all: inbox-assign.ts). */
  @state() private search = '';
  @state() private label = '';
  @state() private view: InboxView = 'all';
  @state() private canned: CannedReply[] = [];
  @state() private noteDraft = '';
  private readonly i18n = new LocaleController(this);
  private readonly picker = new CannedPicker(this, 'canned-options', (text, caret) => {
    this.draft = text;
    void this.updateComplete.then(() => this.replyBox?.setSelectionRange(caret, caret));
  });

  private stop: AbortController | null = null;
  private clock: ReturnType<typeof setInterval> | undefined;
  private lastTyping = 0;
  private myId = '';

  override connectedCallback(): void {
    super.connectedCallback();
    this.clock = setInterval(() => (this.now = Date.now()), CLOCK_MS);
    void this.start();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.clock);
    this.stop?.abort();
  }

  protected override updated(changed: PropertyValues): void {
    // The newest message in view: when a conversation opens, a message arrives, or a reply is sent.
    if (changed.has('transcript')) {
      const list = this.renderRoot.querySelector('.messages');
      if (list) list.scrollTop = list.scrollHeight;
    }
  }

  override render() {
    const open = this.items.find((c) => c.id === this.openId);
    const shown = inView(this.items, this.view, this.myId);
    return html`
      <h1>${t('nav.inbox')}</h1>
      <p class="status" role="status">${this.notice}</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      <div class=${open ? 'layout open' : 'layout'}>
        <section aria-labelledby="queue-heading">
          <h2 id="queue-heading">${t('inbox.forPerson')}</h2>
          <p class="meta">${t(this.live ? 'inbox.live' : 'inbox.connecting')}</p>
          <form class="filters" role="search" @submit=${(e: Event) => (e.preventDefault(), void this.reload())}>
            <label for="inbox-search">${t('inbox.search')}</label>
            <input id="inbox-search" type="search" maxlength="200" .value=${this.search} @input=${(e: Event) => (this.search = (e.target as HTMLInputElement).value)} />
            <label for="inbox-label">${t('conv.label')}</label>
            <input id="inbox-label" maxlength="40" .value=${this.label} @input=${(e: Event) => (this.label = (e.target as HTMLInputElement).value)} />
            <button type="submit">${t('inbox.filter')}</button>
          </form>
          <aicd-inbox-views .view=${this.view} @aicd-inbox-view-change=${(e: InboxViewChangeEvent) => (this.view = e.view)}></aicd-inbox-views>
          ${shown.length === 0 ? html`<p>${t(this.search.trim() || this.label.trim() ? 'conv.noMatch' : this.view === 'mine' ? 'inbox.youHoldNone' : 'inbox.nobodyWaiting')}</p>` : html`<ul class="queue">${shown.map((c) => this.renderItem(c))}</ul>`}
        </section>
        ${open ? this.renderConversation(open) : html`<section aria-label=${t('inbox.conversation')}><p>${t('inbox.openOne')}</p></section>`}
      </div>
      <aicd-offline-messages .api=${this.api} .messages=${this.offline}></aicd-offline-messages>
      <section aria-labelledby="canned-heading">
        <h2 id="canned-heading">${t('inbox.canned')}</h2>
        <aicd-canned-replies .api=${this.api} .replies=${this.canned} @aicd-canned-change=${(e: CannedRepliesChangeEvent) => (this.canned = this.picker.replies = e.replies)}></aicd-canned-replies>
      </section>
      <aicd-assignment-settings .api=${this.api}></aicd-assignment-settings>
    `;
  }

  /** "Waiting 3 min", "With you", "With Anna". */
  private statusLabel(c: InboxConversation): string {
    if (c.status === 'waiting') return t('inbox.waiting', { wait: waitLabel(c.waiting_since, this.now) });
    return c.operator?.id === this.myId ? t('inbox.withYou') : t('inbox.with', { name: c.operator?.name ?? t('inbox.anOperator') });
  }

  private renderItem(c: InboxConversation) {
    const label = this.statusLabel(c);
    const visitor = c.user_id ?? t('inbox.visitor');
    return html`<li class="item" aria-current=${this.openId === c.id ? 'true' : nothing}>
      <p class="who">${label} · ${visitor}</p>
      <p class="preview">${c.last_message?.preview ?? ''}</p>
      ${c.labels.length ? html`<p class="meta">${t('inbox.labels', { labels: c.labels.join(', ') })}</p>` : nothing}
      ${c.status === 'waiting' ? html`<button type="button" class="primary" @click=${() => this.take(c)} aria-label=${t('inbox.takeWith', { visitor })}>${t('inbox.take')}</button>` : nothing}
      <button type="button" data-conversation=${c.id} @click=${() => this.openConversation(c.id)} aria-label=${t('inbox.openWith', { visitor })}>${t('conv.open')}</button>
    </li>`;
  }

  private renderConversation(c: InboxConversation) {
    const mine = c.status === 'with_person' && c.operator?.id === this.myId;
    return html`<section class="conversation" aria-labelledby="conversation-heading">
      <button type="button" class="back" @click=${() => this.backToList(c)}>${t('inbox.back')}</button>
      <h2 id="conversation-heading" tabindex="-1">${t('inbox.conversationWith', { visitor: c.user_id ?? t('inbox.aVisitor') })}</h2>
      <p class="meta">${this.statusLabel(c)}</p>
      <ol class="messages" aria-label=${t('conv.transcript')}>
        ${this.transcript.map(
          (m) => html`<li class=${`message ${m.role}`}>
            <p class="meta">${whoOf(m)} · ${formatDate(m.created_at)}${m.role === 'note' ? html` · <strong>${t('inbox.teamOnly')}</strong>` : nothing}</p>
            <p class="text">${m.content}</p>
            ${messageAttachments(m, this.api.client.baseUrl)}
          </li>`,
        )}
      </ol>
      <p class="meta" aria-live="polite">${this.visitorTypingUntil > Date.now() ? t('inbox.typing') : ''}</p>
      ${mine
        ? html`<form class="reply" @submit=${this.send} @dragover=${this.onDragOver} @drop=${this.onDrop} @paste=${this.onPaste}>
            <label for="reply">${t('inbox.reply')}</label>
            <p class="hint" id="reply-hint">${t('inbox.replyHint')}</p>
            <textarea
              id="reply"
              name="reply"
              maxlength="8000"
              aria-describedby="reply-hint"
              aria-autocomplete="list"
              aria-controls=${this.picker.id}
              aria-activedescendant=${this.picker.activeDescendant}
              .value=${this.draft}
              @input=${this.onInput}
              @keydown=${this.onKeydown}
              @blur=${() => this.picker.close()}
            ></textarea>
            ${this.picker.listbox(() => this.replyBox ?? null)}
            <aicd-reply-files .api=${this.api} .conversationId=${c.id} @aicd-files-change=${(e: ReplyFilesChangeEvent) => (this.files = e.state)}></aicd-reply-files>
            <div class="toolbar">
              <button type="submit" class="primary" ?disabled=${!this.canSend}>${t('inbox.send')}</button>
              <button type="button" @click=${() => this.close(c, 'bot')}>${t('inbox.backToBot')}</button>
              <button type="button" class="danger" @click=${() => this.close(c, 'closed')}>${t('inbox.end')}</button>
            </div>
          </form>`
        : c.status === 'waiting'
          ? html`<div class="toolbar"><button type="button" class="primary" @click=${() => this.take(c)}>${t('inbox.take')}</button></div>`
          : nothing}
      <form class="note" @submit=${this.addNote}>
        <label for="note">${t('inbox.note')}</label>
        <p class="hint" id="note-hint">${t('inbox.noteHint')}</p>
        <textarea id="note" name="note" maxlength="8000" aria-describedby="note-hint" .value=${this.noteDraft} @input=${(e: Event) => (this.noteDraft = (e.target as HTMLTextAreaElement).value)}></textarea>
        <button type="submit" ?disabled=${!this.noteDraft.trim()}>${t('inbox.addNote')}</button>
      </form>
      <aicd-inbox-visitor .api=${this.api} .conversationId=${c.id} .now=${this.now}></aicd-inbox-visitor>
      <aicd-conversation-assign .api=${this.api} .conversation=${c}></aicd-conversation-assign>
      <aicd-conversation-labels .api=${this.api} .conversationId=${c.id} .labels=${c.labels} @aicd-labels-change=${this.onLabels}></aicd-conversation-labels>
    </section>`;
  }

  private async start(): Promise<void> {
    this.stop?.abort();
    const stop = (this.stop = new AbortController());
    try {
      this.myId = (await this.api.operatorProfile()).id;
    } catch (error) {
      this.error = errorMessage(error);
    }
    const following = this.follow(stop.signal);
    void this.api.client.cannedReplies.list().then(({ data }) => (this.canned = this.picker.replies = data.items), () => {}); // without them, `/` lists nothing
    await this.reload();
    await following;
  }

  private async follow(signal: AbortSignal): Promise<void> {
    try {
      this.live = true;
      for await (const event of this.api.inboxEvents({ signal })) this.onEvent(event);
    } catch (error) {
      if (!signal.aborted) this.error = errorMessage(error);
    } finally {
      this.live = false;
    }
  }

  private onEvent(event: HandoffEvent): void {
    if (event.type === 'note') {
      if (event.data.conversation_id === this.openId && !this.transcript.some((m) => m.id === event.data.id)) this.transcript = [...this.transcript, event.data];
    } else if (event.type === 'message') {
      const message = event.data;
      if (message.role === 'user' && message.conversation_id === this.openId) this.visitorTypingUntil = 0;
      if (message.conversation_id === this.openId && !this.transcript.some((m) => m.id === message.id)) {
        this.transcript = [...this.transcript, message];
        if (message.role === 'user') this.notice = t('inbox.newMessage');
      }
      this.items = this.items.map((c) =>
        c.id === message.conversation_id ? { ...c, last_message: { id: message.id, role: message.role, preview: message.content.slice(0, 200), created_at: message.created_at } } : c,
      );
    } else if (event.type === 'status') {
      void this.reload();
    } else if (event.type === 'typing' && event.data.from === 'visitor' && event.data.conversation_id === this.openId) {
      this.visitorTypingUntil = Date.now() + TYPING_SHOWN_MS;
      setTimeout(() => this.requestUpdate(), TYPING_SHOWN_MS + 50);
    }
  }

  private async reload(): Promise<void> {
    try {
      const filter = { ...(this.search.trim() && { q: this.search.trim() }), ...(this.label.trim() && { label: this.label.trim() }) };
      [this.items, this.offline] = await Promise.all([this.api.inbox(filter), this.api.offlineMessages()]);
      this.error = '';
    } catch (error) {
      this.error = errorMessage(error);
    }
  }

  private async openConversation(id: string): Promise<void> {
    this.openId = id;
    this.transcript = [];
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#conversation-heading')?.focus();
    try {
      const [{ data }, notes] = await Promise.all([this.api.client.chat.history({ conversation_id: id, limit: 200 }), this.api.notes(id)]);
      const loaded = byTime([...data.items, ...notes]);
      // live messages that arrived while history loaded stay, once
      const seen = new Set(loaded.map((m) => m.id));
      if (this.openId === id) this.transcript = [...loaded, ...this.transcript.filter((m) => !seen.has(m.id))];
    } catch (error) {
      this.error = errorMessage(error);
    }
  }

  private async take(c: InboxConversation): Promise<void> {
    try {
      await this.api.take(c.id);
      this.notice = t('inbox.took');
      await this.reload();
      await this.openConversation(c.id);
      this.renderRoot.querySelector<HTMLTextAreaElement>('#reply')?.focus();
    } catch (error) {
      this.notice = errorMessage(error);
      await this.reload();
    }
  }

  private onInput(event: Event): void {
    this.draft = (event.target as HTMLTextAreaElement).value;
    this.picker.input(event.target as HTMLTextAreaElement);
    const now = Date.now();
    if (this.openId && now - this.lastTyping > TYPING_EVERY_MS) {
      this.lastTyping = now;
      void this.api.typing(this.openId).catch(() => {}); // a lost "typing…" is harmless
    }
  }

  /** Text, or files, and no file still uploading (it would be left out). */
  private get canSend(): boolean {
    return (this.draft.trim() !== '' || this.files.ids.length > 0) && !this.files.uploading && !this.sending;
  }

  private onDragOver(event: DragEvent): void {
    if (carriesFiles(event)) event.preventDefault(); // allows the drop
  }

  private onDrop(event: DragEvent): void {
    if (!carriesFiles(event)) return;
    event.preventDefault(); // the browser would open the file instead
    this.fileList?.add(event.dataTransfer!.files);
  }

  /** A pasted screenshot is attached; pasted text goes into the box as usual. */
  private onPaste(event: ClipboardEvent): void {
    const files = event.clipboardData?.files;
    if (!files?.length) return;
    event.preventDefault();
    this.fileList?.add(files);
  }

  /** Enter sends; Shift+Enter is a new line. */
  private onKeydown(event: KeyboardEvent): void {
    if (this.picker.keydown(event, event.target as HTMLTextAreaElement)) return;
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      void this.send();
    }
  }

  private async send(event?: Event): Promise<void> {
    event?.preventDefault();
    const content = this.draft.trim();
    if (!this.openId || !this.canSend) {
      if (this.files.uploading) this.notice = t('inbox.waitFiles');
      return;
    }
    this.sending = true;
    try {
      const message = await this.api.reply(this.openId, content, this.files.ids);
      this.draft = '';
      this.fileList?.clear();
      if (!this.transcript.some((m) => m.id === message.id)) this.transcript = [...this.transcript, message];
    } catch (error) {
      this.notice = errorMessage(error);
    } finally {
      this.sending = false;
    }
  }

  private async addNote(event: Event): Promise<void> {
    event.preventDefault();
    if (!this.openId || !this.noteDraft.trim()) return;
    try {
      const note = await this.api.addNote(this.openId, this.noteDraft);
      this.noteDraft = '';
      if (!this.transcript.some((m) => m.id === note.id)) this.transcript = [...this.transcript, note];
    } catch (error) {
      this.notice = errorMessage(error);
    }
  }

  /** From the conversation back to the list (a phone shows one pane at a time), the focus on its Open button. */
  private async backToList(c: InboxConversation): Promise<void> {
    this.openId = null;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(`[data-conversation="${c.id}"]`)?.focus();
  }

  private onLabels(event: LabelsChangeEvent): void {
    this.items = this.items.map((c) => (c.id === event.conversationId ? { ...c, labels: event.labels } : c));
  }

  private async close(c: InboxConversation, to: 'bot' | 'closed'): Promise<void> {
    try {
      await this.api.closeConversation(c.id, to);
      this.notice = t(to === 'bot' ? 'inbox.botAgain' : 'inbox.ended');
      this.openId = null;
      await this.reload();
    } catch (error) {
      this.notice = errorMessage(error);
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-inbox-page': AicdInboxPage;
  }
}
