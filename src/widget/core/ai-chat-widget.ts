import { LitElement, html, nothing, type TemplateResult } from 'lit';
import type { GetTokenContext } from '../../client/index.js';
import type { Attachment } from '../../client/types.js';
import styles from '../styles/ai-chat-widget.styles.js';
import launcherStyles from '../styles/launcher.styles.js';
import messageStyles from '../styles/message.styles.js';
import type { ChatConfig } from './chat-config.js';
import { ChatController, isDelivering } from './chat-controller.js';
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
 *
 * @attr {string} lang - BCP 47 language of the built-in strings (en, de, fr, es, ar, ja); default: the page's.
 * @attr {'ltr' | 'rtl' | 'auto'} dir - Text direction; `rtl` mirrors the whole widget.
 *
 * @slot header - Replaces the title text in the header (a logo, a name with an avatar).
 * @slot launcher-icon - Replaces the icon of the launcher button.
 *
 * @csspart launcher - The floating button (launcher mode). Several launchers on a page stand side by
 *   side; while the panel is open the launcher shows a close icon and is labelled "Hide chat".
 * @csspart panel - The chat panel.
 * @csspart header - The panel's header.
 * @csspart title - The heading holding the title (or the `header` slot).
 * @csspart close-button - The header's close button (launcher mode).
 * @csspart transcript - The scrolling message log.
 * @csspart message - Each message row; also `message-user`, `message-assistant` or `message-operator`.
 * @csspart message-user - A user message row.
 * @csspart message-assistant - An assistant message row.
 * @csspart message-operator - A message of a person answering (human handoff).
 * @csspart author - The operator's name and avatar above their message.
 * @csspart handoff - Human handoff's area above the quick replies: the status banner, "Talk to a person", the email form.
 * @csspart handoff-status - The banner: "Waiting for a person…", "Anna joined", typing, the conversation ended.
 * @csspart handoff-button - "Talk to a person" (shown when the bot hands off and someone can answer).
 * @csspart leave-message-button - "Leave a message", shown with why nobody can answer now.
 * @csspart offline-form - The email form while nobody can answer.
 * @csspart offline-email - Its email field.
 * @csspart offline-message - Its message field.
 * @csspart offline-send - Its Send button.
 * @csspart offline-cancel - Its Cancel button.
 * @csspart welcome - The localised greeting shown in an empty panel when `welcome-message` is not set.
 * @csspart bubble - The bubble holding a message's text.
 * @csspart citations - The numbered sources under a knowledge-base answer (`[1]` in the answer links to source 1).
 * @csspart source-link - A source's link to its page (sources without an http(s) page show their title).
 * @csspart code-block - A fenced code block in an answer: its language, Copy button and code.
 * @csspart copy-button - The Copy button of a code block.
 * @csspart actions - The row under each answer: Copy, thumbs up, thumbs down.
 * @csspart copy-answer - The answer's Copy button (copies its markdown text).
 * @csspart feedback-button - A thumb; also `feedback-up` or `feedback-down` (`[aria-pressed=true]` when chosen).
 * @csspart feedback-up - The thumbs up.
 * @csspart feedback-down - The thumbs down.
 * @csspart feedback-form - The optional reason form after a thumbs down.
 * @csspart feedback-comment - Its free-text field.
 * @csspart feedback-send - Its Send button.
 * @csspart feedback-cancel - Its Cancel button (no reason: the thumbs down stays).
 * @csspart token - A piece of code coloured by `highlight`; also `token-<type>` (`token-keyword`…).
 * @csspart table - The horizontally scrolling, focusable region around a table in an answer.
 * @csspart error - The "not sent" note under a failed message.
 * @csspart retry-button - The Retry button of a failed message.
 * @csspart typing - The typing indicator.
 * @csspart suggestions - The row of quick replies.
 * @csspart suggestion - One quick-reply button.
 * @csspart status - The status line (the rate-limit countdown).
 * @csspart counter - The character count and limit, shown near the message limit (4,000).
 * @csspart composer - The form holding the input and the send button.
 * @csspart input - The message textarea.
 * @csspart send-button - The send button.
 * @csspart stop-button - The Stop button beside Send while a reply is on its way (Escape stops too).
 * @csspart stopped - The "Stopped" note under a reply the user stopped.
 * @csspart time - The time above the first message of a group (5 minutes apart, or another day).
 * @csspart avatar - The bot's avatar in the header (`bot-avatar`, or the bot's own `avatar_url`).
 * @csspart new-conversation-button - The header's "New conversation" button (once there are messages).
 * @csspart confirm - Its inline confirmation under the header.
 * @csspart confirm-button - The confirmation's "New conversation" button.
 * @csspart cancel-button - The confirmation's "Cancel" button.
 * @csspart badge - The launcher's count of replies that arrived while the panel was closed.
 * @csspart teaser - The teaser bubble beside the closed launcher (`teaser`).
 * @csspart teaser-text - The teaser's text; it opens the chat.
 * @csspart teaser-close - The teaser's close button; the teaser is not shown to this visitor again.
 * @csspart attach-button - The composer's paperclip, for a bot that takes files (opens the file picker).
 * @csspart attachments - The tray above the input: the files about to be sent, each with its preview, size, upload progress and remove button.
 * @csspart drop-zone - The drop target over the panel while files are dragged over it.
 * @csspart attachment-list - The files of a message, in its bubble.
 * @csspart attachment-image - An image of a message: a thumbnail that opens the full size in a new tab.
 * @csspart attachment-file - Any other file of a message: its name and size; it downloads the file.
 *
 * @cssprop --ai-chat-accent - Brand colour: launcher, send button, user bubbles' default.
 * @cssprop --ai-chat-accent-contrast - Text and icons on the accent colour.
 * @cssprop --ai-chat-background - Panel background.
 * @cssprop --ai-chat-surface - Header, composer and bot bubble background.
 * @cssprop --ai-chat-text - Main text colour.
 * @cssprop --ai-chat-muted - Secondary text colour.
 * @cssprop --ai-chat-border - Hairlines and input borders.
 * @cssprop --ai-chat-user-bubble - User bubble background.
 * @cssprop --ai-chat-user-text - User bubble text.
 * @cssprop --ai-chat-bot-bubble - Assistant bubble background.
 * @cssprop --ai-chat-bot-text - Assistant bubble text.
 * @cssprop --ai-chat-error - Error text colour.
 * @cssprop --ai-chat-font - Font family (inherits the page's by default).
 * @cssprop --ai-chat-font-size - Base font size of the transcript.
 * @cssprop --ai-chat-radius - Corner radius of the panel and bubbles.
 * @cssprop --ai-chat-width - Panel width (launcher mode).
 * @cssprop --ai-chat-height - Panel height (launcher and inline modes).
 * @cssprop --ai-chat-z-index - Stacking order of the launcher and panel.
 * @cssprop --ai-chat-offset - Distance of the launcher from the viewport edges.
 * @cssprop --ai-chat-focus-ring - Colour of the keyboard focus ring.
 * @cssprop --ai-chat-shadow - Shadow of the launcher and the floating panel.
 * @cssprop --ai-chat-feedback-active - Colour of a chosen thumb under an answer (default: the accent).
 */
export class AiChatWidget extends LitElement {
  static override styles = [styles, launcherStyles, messageStyles, chromeStyles, actionsStyles];

  /** Re-render when `lang` changes: it picks the string table. */
  static override get observedAttributes(): string[] {
    return [...super.observedAttributes, 'lang'];
  }

  /**
   * The reactive properties: attributes (and how they convert) for the public ones, `state` for the
   * private ones. One table instead of Lit's decorators, which cost the one-`<script>` build about
   * 0.5 KB gzip of its 30 KB budget (the decorator runtime and a call per property); each property
   * is declared, with its documentation, below.
   */
  static override properties = {
    draft: { state: true },
    confirming: { state: true },
    mode: { reflect: true },
    opened: { type: Boolean, reflect: true, attribute: 'open' },
    title: {},
    placeholder: {},
    welcomeMessage: { attribute: 'welcome-message' },
    theme: { reflect: true },
    storage: {},
    baseUrl: { attribute: 'base-url' },
    botId: { attribute: 'bot-id' },
    userId: { attribute: 'user-id' },
    stream: { type: Boolean },
    timeout: { type: Number },
    apiKey: { attribute: 'api-key' },
    tokenUrl: { attribute: 'token-url' },
    tokenCredentials: { attribute: 'token-credentials' },
    token: { attribute: false },
    getToken: { attribute: false },
    strings: { attribute: false },
    starters: { attribute: false },
    highlight: { attribute: false },
    noFeedback: { type: Boolean, attribute: 'no-feedback' },
    botName: { attribute: 'bot-name' },
    botAvatar: { attribute: 'bot-avatar' },
    teaser: {},
    teaserDelay: { type: Number, attribute: 'teaser-delay' },
    attachments: { type: Boolean },
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

  /** `launcher`: a floating button that opens a panel; `inline`: in the page flow; `fullpage`. */
  mode: 'launcher' | 'inline' | 'fullpage' = 'launcher';
  /** Whether the launcher's panel is open. Attribute `open` (the `open()` method opens it). */
  opened = false;
  /** Header text. Default: "Chat", localised. */
  override title = '';
  /** Placeholder of the message input. Default: localised "Type a message…". */
  placeholder = '';
  /**
   * Shown as the first assistant bubble; never sent to the server. Without it, a localised greeting
   * fills the empty panel until the first message.
   */
  welcomeMessage = '';
  /** `auto` follows the operating system's `prefers-color-scheme`. */
  theme: 'light' | 'dark' | 'auto' = 'light';
  /** Where the conversation is kept across reloads. */
  storage: StorageMode = 'local';
  /**
   * The service's base URL, version included. Default: the token proxy's `api_base` with
   * `token-url`, else `${location.origin}/v1`.
   */
  baseUrl = '';
  /** Talk to this bot (`POST /bots/{id}/messages`); without it, the chat endpoint. */
  botId = '';
  /** The end user's id. Default: a random id kept per widget instance. */
  userId = '';
  /** Show the reply as it is generated (Server-Sent Events), from the bot or the chat endpoint. */
  stream = false;
  /**
   * Milliseconds to wait for the service before a send counts as failed (for a stream: the longest
   * silence between two events). Each attempt gets this long; 0 keeps the client's default (30 s).
   */
  timeout = 0;
  /** **Development only**: a secret API key in the page. Warns on non-localhost pages. */
  apiKey = '';
  /**
   * POSTed (with cookies) for a short-lived token: `{success, data: {token, expires_at, api_base}}`.
   * A relative `api_base` is relative to this URL, so a proxy on another origin needs no `base-url`.
   */
  tokenUrl = '';
  /**
   * Whether the `token-url` request carries the page's cookies to another origin: `same-origin`
   * (only to the page's own origin) or `include` (a proxy on another origin, which must allow this
   * page in its `allowedOrigins`).
   */
  tokenCredentials: 'same-origin' | 'include' = 'same-origin';
  /** A bearer token the host obtained itself. */
  token = '';
  /** Async token source for hosts that mint tokens; called again once after a 401. */
  getToken?: (ctx: GetTokenContext) => Promise<string>;
  /** Overrides for any UI string (see `WidgetStrings`). */
  strings: Partial<WidgetStrings> = {};
  /** Conversation starters shown before the first message (added to the bot's own). */
  starters: string[] = [];
  /**
   * Colours the code blocks of answers: `(code, language) => HighlightToken[] | Node | null`. Tokens
   * `{text, type}` are styled from the page with `::part(token-<type>)`. None by default.
   */
  highlight?: Highlighter;
  /** Hides the thumbs up and down under answers (their Copy button stays). */
  noFeedback = false;
  /** The assistant's name: the header (without `title`) and what screen readers call its replies. Default: the bot's own. */
  botName = '';
  /** The bot's avatar in the header: an `https:`/`http:` or `data:image/` URL (others are ignored). Default: the bot's own. */
  botAvatar = '';
  /** Launcher mode: a short invitation shown beside the closed launcher; dismissed, it is not shown to the visitor again. */
  teaser = '';
  /** Milliseconds after connecting before the teaser shows. */
  teaserDelay = 3000;
  /**
   * Offers file attachments where the widget cannot read the bot's settings (a host's own `token`
   * or `getToken`, or `token-url` without `bot-id`), within the service's widest limits. Where it
   * can read them (`api-key`, or `token-url` with `bot-id`), the bot's own settings decide.
   */
  attachments = false;

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

  override attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    super.attributeChangedCallback(name, old, value);
    if (name === 'lang') this.requestUpdate();
  }

  private chatConfig(): ChatConfig {
    return {
      baseUrl: this.baseUrl,
      botId: this.botId,
      userId: this.userId,
      stream: this.stream,
      storage: this.storage,
      instanceId: this.id || `#${this.ordinal}`,
      timeout: Number.isFinite(this.timeout) && this.timeout > 0 ? this.timeout : 0,
      apiKey: this.apiKey,
      token: this.token,
      tokenUrl: this.tokenUrl,
      tokenCredentials: this.tokenCredentials === 'include' ? 'include' : 'same-origin',
      getToken: this.getToken,
      attachments: this.attachments,
    };
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
   * Switches to another user: the transcript is cleared at once, and that user's own stored
   * conversation (if any) is restored. Another user's messages are never shown.
   */
  identify(userId: string): void {
    this.userId = userId;
    this.chat.sync();
  }

  /** The assistant's name: `bot-name`, else the bot's own, else the localised "Assistant". */
  private assistantName(s: WidgetStrings): string {
    return this.botName || this.chat.bot.name || s.assistant;
  }

  /**
   * `live`: the message arrived while the widget was showing (it animates in); `previous`: the
   * message before it, which decides whether it starts a new time group.
   */
  private renderMessage(m: TranscriptMessage, s: WidgetStrings, live = false, previous?: TranscriptMessage): TemplateResult {
    const user = m.role === 'user';
    return html`<div part="message message-${m.role}" class="message ${m.role} ${m.status} ${live ? 'live' : ''}">
      ${renderTime(m, previous, this.language)}
      ${renderAuthor(m)}
      <div part="bubble" class="bubble"><span class="sr-only">${user ? s.you : m.author?.name || this.assistantName(s)}: </span>${user
        ? m.content
        : streamedMarkdown(m.content, { strings: s, highlight: this.highlight, sources: sourceIds(m) })}${this.chat.files.list(m, s)}</div>
      ${renderStopped(m, s)}
      ${renderCitations(m, s)}
      ${renderActions(m, s, { host: this, chat: this.chat, botId: this.botId, feedback: !this.noFeedback })}
      ${m.status === 'failed'
        ? html`<div part="error" class="error">
            ${s.notSent} ${errorText(m.error?.code ?? 'unknown_error', s)}
            <button part="retry-button" type="button" @click=${() => this.chat.retry(m.id)}>
              ${s.retry}
            </button>
          </div>`
        : nothing}
    </div>`;
  }

  override render(): TemplateResult {
    const s = this.text;
    const launcherMode = this.mode === 'launcher';
    const title = this.title || this.botName || this.chat.bot.name || s.title;
    const invite = this.invite.render(s, this.language);
    const { status } = this.chat;
    const busy = status !== 'idle' && status !== 'offline';
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
            ${this.welcomeMessage
              ? this.renderMessage(
                  { id: 'welcome', role: 'assistant', content: this.welcomeMessage, time: '', status: 'sent' },
                  s,
                )
              : this.chat.messages.length
                ? nothing
                : html`<div part="welcome" class="message assistant sent">
                    <div part="bubble" class="bubble"><span class="sr-only">${this.assistantName(s)}: </span>${s.welcome}</div>
                  </div>`}
            ${transcriptRows(this.chat.messages, (m, i) => this.renderMessage(m, s, i >= this.chat.liveFrom, this.chat.messages[i - 1]), [
              this.language,
              this.strings,
              this.highlight,
              this.assistantName(s),
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
      <button part="launcher" class="launcher" type="button" aria-controls="panel" ?hidden=${!launcherMode}
        aria-expanded=${this.opened ? 'true' : 'false'}
        aria-label=${this.opened ? s.hideChat : invite.said ? `${s.openChat} (${invite.said})` : s.openChat}
        @click=${this.toggle}><slot name="launcher-icon" ?hidden=${this.opened}>${chatIcon}</slot>${this.opened
          ? closeIcon
          : nothing}</button>
      ${invite.invite}
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ai-chat-widget': AiChatWidget;
  }
}
