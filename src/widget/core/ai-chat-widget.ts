import { WidgetProperties } from './widget-properties.js';
import { renderMessage, renderWelcome, type RowContext } from '../transcript/message-row.js';
import { html, nothing, type TemplateResult } from 'lit';
import type { GetTokenContext } from '../../client/index.js';
import type { Attachment, VisitorAttribute, VisitorTraits } from '../../client/types.js';
import styles from '../styles/ai-chat-widget.styles.js';
import launcherStyles from '../styles/launcher.styles.js';
import messageStyles from '../styles/message.styles.js';
import { configOf, type ChatConfig } from './chat-config.js';
import { ChatController } from './chat-controller.js';
import { isDelivering } from './chat-status.js';
import { errorText } from './error-detail.js';
import { AiChatCloseEvent, AiChatOpenEvent, type TranscriptMessage } from './events.js';
import { chatIcon, closeIcon, sendIcon } from './icons.js';
import { characterCount, COUNTER_FROM, fillCount, MESSAGE_LIMIT, renderCounter } from '../composer/input-limit.js';
import { LauncherStack } from '../chrome/launcher-stack.js';
import { streamedMarkdown } from '../markdown/streamed-markdown.js';
import { renderCitations, sourceIds } from '../transcript/citations.js';
import type { Highlighter } from '../markdown/code-block.js';
import { renderStatus, renderSuggestions } from '../composer/panel-rows.js';
import { PhoneModalLoader } from '../addons/phone-modal-loader.js';
import { ScrollFollow } from '../transcript/scroll-follow.js';
import { transcriptRows } from '../transcript/transcript-rows.js';
import type { StorageMode } from '../conversation/storage.js';
import { stringsLoading } from '../locales/load-strings.js';
import { resolveStrings, type WidgetStrings } from '../locales/strings.js';
import chromeStyles from '../styles/chat-chrome.styles.js';
import { renderAuthor, renderAvatar, renderConfirm, renderNewButton, renderStop, renderStopped, renderTime, safeAvatar } from '../chrome/chat-chrome.js';
import { LauncherInvite } from '../chrome/launcher-invite.js';
import { storageScope } from '../conversation/local-conversation.js';
import { WidgetStorage } from '../conversation/storage.js';
import actionsStyles from '../styles/message-actions.styles.js';
import { renderActions } from '../transcript/message-actions.js';

/**
 * An embeddable AI chat: a launcher button with a panel, or an inline or full-page chat, talking to
 * a bot (`bot-id`) or to the chat endpoint. The element only renders; `ChatController` owns the
 * conversation, delivery and persistence.
 *
 * The `open` attribute reflects to the boolean property `opened`, because `open()` is a method.
 *
 * @summary An accessible, themeable chat widget for the v1 conversational AI service.
 *
 * @fires {AiChatReadyEvent} ai-chat-ready - The conversation was restored and the widget is ready.
 * @fires {AiChatOpenEvent} ai-chat-open - The user (or `open()`) opened the panel.
 * @fires {AiChatCloseEvent} ai-chat-close - The user (or `close()`) closed the panel.
 * @fires {AiChatMessageSentEvent} ai-chat-message-sent - A message is about to be sent; cancelable.
 * @fires {AiChatMessageReceivedEvent} ai-chat-message-received - A reply arrived.
 * @fires {AiChatErrorEvent} ai-chat-error - A request failed.
 * @fires {AiChatRateLimitEvent} ai-chat-rate-limit - The rate limit was hit; the message is queued.
 * @fires {AiChatStopEvent} ai-chat-stop - The user (or `stop()`) stopped the reply being written; its part so far stays.
 * @fires {AiChatResetEvent} ai-chat-reset - The user confirmed "New conversation" (or `reset()` was called).
 * @fires {AiChatFeedbackEvent} ai-chat-feedback - The user rated an answer (thumbs up or down, a reason); cancelable: then nothing is sent.
 * @fires {AiChatHandoffEvent} ai-chat-handoff - Human handoff: the conversation's status changed (waiting, with a person, back to the bot, closed); cancelable when the visitor pressed "Talk to a person", before the service is asked.
 * @fires {AiChatCsatEvent} ai-chat-csat - The visitor rated the conversation (1–5, a comment) in the survey after an operator ended their part, or (the bot's `after_bot`) after the visitor closed the panel on a conversation the bot answered alone; cancelable: then nothing is sent.
 *
 * @attr {string} lang - BCP 47 language of the built-in strings (en, de, fr, es, ar, ja); default: the page's.
 * @attr {'ltr' | 'rtl' | 'auto'} dir - Text direction; `rtl` mirrors the whole widget.
 *
 * @slot header - Replaces the title text in the header (a logo, a name with an avatar).
 * @slot launcher-icon - Replaces the icon of the launcher button.
 */
export class AiChatWidget extends WidgetProperties {
  // its properties, parts (@csspart) and custom properties (@cssprop) are `WidgetProperties`'s
  static override styles = [styles, launcherStyles, messageStyles, chromeStyles, actionsStyles];

  static override properties = {
    ...WidgetProperties.properties,
    draft: { state: true },
    confirming: { state: true },
  };

  private readonly chat = new ChatController(this, () => this.chatConfig());
  /** Several launchers on one page stand side by side instead of on top of each other. */
  private readonly stack = new LauncherStack(this);
  /** On a phone the open panel is a full-screen modal that follows the visual viewport. */
  private readonly modal = new PhoneModalLoader(this);
  /** Keeps the newest message in view while the user is at the end of the transcript. */
  private readonly follower = new ScrollFollow(this, () => this.transcript, () => this.log);
  /** The unread badge and the teaser of the launcher. */
  private readonly invite = new LauncherInvite(this, () => new WidgetStorage(this.storage, storageScope(this.chatConfig())));
  private ordinal = 0;

  private get input() {
    return this.find<HTMLTextAreaElement>('textarea');
  }
  private get transcript() {
    return this.find('.transcript');
  }
  private get log() {
    return this.find('.log');
  }
  private get launcher() {
    return this.find('.launcher');
  }
  private find<E extends HTMLElement = HTMLElement>(selector: string): E | null {
    return this.renderRoot?.querySelector<E>(selector) ?? null;
  }

  private draft = '';
  /** The "New conversation" confirmation is showing. */
  private confirming = false;
  /** What the host gave to `identify()` besides the id. */
  private traits: ChatConfig['traits'];


  override connectedCallback(): void {
    super.connectedCallback();
    const peers = [...(this.getRootNode() as ParentNode).querySelectorAll(this.localName)] as AiChatWidget[];
    this.ordinal = peers
      .filter((el) => el.baseUrl === this.baseUrl && el.botId === this.botId)
      .indexOf(this);
  }

  /**
   * A page in another language than English first loads that language's strings (an add-on), so
   * that the widget never shows English before them; after 3 s it shows English until they arrive.
   */
  protected override scheduleUpdate(): void | Promise<unknown> {
    const strings = stringsLoading(this.language);
    if (!strings) return super.scheduleUpdate();
    strings.then(() => this.requestUpdate());
    return Promise.race([strings, new Promise((done) => setTimeout(done, 3000))]).then(() => super.scheduleUpdate());
  }

  protected override updated(): void {
    // the accent as a default on :host: the page's own `--ai-chat-accent` for the element still wins
    this.stack.style.set('--ai-chat-accent', this.color || null);
  }

  private chatConfig(): ChatConfig {
    return { ...configOf(this, this.id || `#${this.ordinal}`), traits: this.traits };
  }

  /** The language of the strings and numbers: the nearest `lang`, else the page's. */
  private get language(): string {
    return this.closest('[lang]')?.getAttribute('lang') || globalThis.document?.documentElement.lang || 'en';
  }

  private get text(): WidgetStrings {
    return resolveStrings(this.language, this.strings);
  }

  private handleKeydown(event: KeyboardEvent): void {
    // Escape answers the innermost thing first: the confirmation, then a reply being written
    if (event.key === 'Escape' && (this.confirming || this.chat.replying)) {
      event.stopPropagation();
      if (this.confirming) this.answerConfirm(false);
      else this.stop();
      return;
    }
    if (event.key === 'Escape' && this.mode === 'launcher' && this.opened) {
      event.stopPropagation();
      this.close();
    }
    this.modal.handleKeydown(event);
  }

  private handleInputKeydown(event: KeyboardEvent): void {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault(); // Shift+Enter keeps the textarea's newline
      this.submitDraft();
    }
  }

  private handleInput(event: InputEvent): void {
    this.draft = (event.target as HTMLTextAreaElement).value;
  }

  private handleSubmit(event: SubmitEvent): void {
    event.preventDefault();
    this.submitDraft();
  }

  private submitDraft(): void {
    if (!this.canSend) return;
    this.follower.follow();
    const files = this.chat.files.part;
    // a cancelled send keeps the draft and the files, so nothing the user gave is lost (`files`
    // is not null here: `canSend` waited for the uploads)
    if (this.chat.send(this.draft, files?.files!)) {
      this.draft = '';
      files?.clear();
    }
  }

  /** Text or files to send, none still uploading (the attachments add-on says why Send waits). */
  private get canSend(): boolean {
    const files = this.chat.files.part?.files;
    return Boolean(this.draft.trim() || files?.length) && files !== null && !this.tooLong && !isDelivering(this.chat.status);
  }

  private get tooLong(): boolean {
    return characterCount(this.draft) > MESSAGE_LIMIT;
  }

  /**
   * The conversation so far, oldest first. Setting it replaces the transcript, for a host that
   * restores a conversation it kept itself: no events fire and nothing is sent (a message marked
   * `sending` shows as failed, with Retry). The next send starts a new server conversation; with
   * the chat endpoint, the set transcript's delivered messages are its context. Stored like any
   * other change; set before the element connects, it takes the place of the stored conversation.
   */
  get messages(): readonly TranscriptMessage[] {
    return this.chat.messages;
  }

  set messages(messages: readonly TranscriptMessage[]) {
    this.chat.messages = messages;
  }

  /** The server's conversation id, once the first reply has arrived. */
  get conversationId(): string | null {
    return this.chat.conversationId;
  }

  /** Opens the panel (launcher mode) and focuses the input. */
  async open(): Promise<void> {
    if (!this.opened) {
      this.opened = true;
      this.dispatchEvent(new AiChatOpenEvent());
    }
    await this.updateComplete;
    this.input?.focus();
  }

  /** Closes the panel (launcher mode); focus returns to the launcher. */
  close(): void {
    if (!this.opened) return;
    const hadFocus = this.matches(':focus-within');
    this.opened = false;
    this.dispatchEvent(new AiChatCloseEvent());
    // focus must not stay inside a hidden panel
    if (hadFocus) void this.updateComplete.then(() => this.launcher?.focus());
  }

  /** Opens the panel when closed, closes it when open. */
  toggle(): void {
    if (this.opened) this.close();
    else void this.open();
  }

  /**
   * Sends `text` as the user, with `attachments` (files uploaded already, `POST /attachments`).
   * Resolves with the assistant's reply, or `null` when there was neither text nor a file,
   * `ai-chat-message-sent` was cancelled, delivery failed (the message stays, with Retry), or a
   * person answers this conversation (human handoff: their reply comes on its own).
   */
  send(text: string, attachments?: Attachment[]): Promise<TranscriptMessage | null> {
    this.follower.follow();
    return this.chat.send(text, attachments) ?? Promise.resolve(null);
  }

  /** Starts a new conversation and clears its stored copy. */
  reset(): void {
    this.chat.reset();
  }

  /**
   * Stops the reply being written: the service stops generating and stores the part it sent; that
   * part stays in the transcript, marked stopped. Nothing happens when no reply is on its way.
   */
  stop(): void {
    if (!this.chat.replying) return;
    this.chat.stopReply();
    // the Stop button goes away: focus must not be lost with it
    if (this.matches(':focus-within')) void this.updateComplete.then(() => this.input?.focus());
  }

  /** The inline "New conversation" confirmation was answered. */
  private answerConfirm(yes: boolean): void {
    this.confirming = false;
    if (yes) this.reset();
    void this.updateComplete.then(() =>
      (yes ? this.input : this.renderRoot.querySelector<HTMLElement>('.new'))?.focus(),
    );
  }

  private askConfirm(): void {
    this.confirming = true;
    // the safe answer first
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('[part~="cancel-button"]')?.focus());
  }

  /**
   * Says who the visitor is: a user id, or `{id, name, email, …}` (up to 10 more traits, such as
   * `plan: 'pro'`; see `VisitorTraits`), which the service keeps with the conversation for the inbox
   * (shown as unverified: the token proxy's `authorize()` vouches for a name and email). Another id
   * switches to that user: the transcript is cleared at once, and that user's own stored
   * conversation (if any) is restored. Another user's messages are never shown.
   */
  identify(user: string | VisitorTraits): void {
    const { id, name, email, ...attributes } = typeof user == 'object' ? user : { id: user };
    this.traits = { name, email, attributes: attributes as Record<string, VisitorAttribute> };
    if (id !== undefined) this.userId = id;
    this.chat.sync();
  }

  /** The assistant's name: `bot-name`, else the bot's own, else the localised "Assistant". */
  private assistantName(s: WidgetStrings): string {
    return this.botName || this.chat.bot.name || s.assistant;
  }

  /** The transcript's row `i` (message-row.ts): new since the last wholesale change, it animates in. */
  private renderMessage(m: TranscriptMessage, i: number, row: RowContext): TemplateResult {
    return renderMessage(m, row, i >= this.chat.liveFrom, this.chat.messages[i - 1]);
  }

  override render(): TemplateResult {
    const s = this.text;
    const launcherMode = this.mode === 'launcher';
    const title = this.title || this.botName || this.chat.bot.name || s.title;
    const { status } = this.chat;
    const busy = status !== 'idle' && status !== 'offline';
    const row: RowContext = {
      host: this,
      chat: this.chat,
      feedback: !this.noFeedback,
      s,
      language: this.language,
      highlight: this.highlight,
      assistant: this.assistantName(s),
    };
    const count = characterCount(this.draft);
    return html`<div class="root" title="" @keydown=${this.handleKeydown}>
      <section
        part="panel"
        id="panel"
        class="panel"
        role=${launcherMode ? 'dialog' : 'region'}
        aria-labelledby="title"
        aria-modal=${this.modal.active ? 'true' : nothing}
        ?hidden=${launcherMode && !this.opened}
      >
        <header part="header" class="header">
          <h2 part="title" id="title" class="title"><slot name="header">${renderAvatar(
            safeAvatar(this.botAvatar) || safeAvatar(this.chat.bot.avatar_url),
          )}${title}</slot></h2>
          ${renderNewButton(this.chat.messages.length > 0 && !this.confirming, s, () => this.askConfirm())}
          ${launcherMode
            ? html`<button part="close-button" class="icon-button" type="button" aria-label=${s.closeChat}
                @click=${this.close}>${closeIcon}</button>`
            : nothing}
        </header>
        ${this.confirming ? renderConfirm(s, (yes) => this.answerConfirm(yes)) : nothing}
        <div part="transcript" class="transcript" role="log" aria-live="polite" aria-label=${s.transcript}
          aria-busy=${busy ? 'true' : 'false'} tabindex="0" @scroll=${this.follower.onScroll}>
          <div class="log">
            ${renderWelcome(this.welcomeMessage, row)}
            ${transcriptRows(this.chat.messages, (m, i) => this.renderMessage(m, i, row), [
              this.language,
              this.strings,
              this.highlight,
              row.assistant,
              this.noFeedback,
              this.chat.files.part,
            ])}
            ${status === 'awaiting-reply'
              ? html`<div part="typing" class="typing" aria-hidden="true"><span></span><span></span><span></span></div>`
              : nothing}
          </div>
        </div>
        ${this.chat.handoff.render(s)}
        ${renderSuggestions(this.chat, this.starters, s, (text) => void this.send(text))}
        ${renderStatus(this.chat, s, this.tooLong ? fillCount(s.tooLong, this.language, 0) : null)}
        ${renderCounter(count, s, this.language)}
        <form part="composer" class="composer" @submit=${this.handleSubmit}>
          ${this.chat.files.part?.render(s)}
          <textarea part="input" rows="1" enterkeyhint="send" aria-label=${s.inputLabel}
            aria-describedby=${count >= COUNTER_FROM ? 'counter' : nothing} aria-invalid=${this.tooLong ? 'true' : nothing}
            placeholder=${this.placeholder || s.placeholder} .value=${this.draft}
            @input=${this.handleInput} @keydown=${this.handleInputKeydown}></textarea>
          ${renderStop(this.chat.replying, s, () => this.stop())}
          <button part="send-button" class="send" type="submit" aria-label=${s.send} ?disabled=${!this.canSend}>
            ${sendIcon}
          </button>
        </form>
      </section>
      ${this.invite.render(s, this.language)}
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ai-chat-widget': AiChatWidget;
  }
}
