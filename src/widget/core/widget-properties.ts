import { LitElement, type ReactiveElement } from 'lit';
import type { GetTokenContext } from '../../client/index.js';
import type { StorageMode } from '../conversation/storage.js';
import type { WidgetStrings } from '../locales/strings.js';
import type { Highlighter } from '../markdown/code-block.js';

/**
 * What a page sets and styles on `<ai-chat-widget>`: the element's one property table and its
 * properties, each with its documentation, and the parts and custom properties of its styles. The
 * manifest and the framework typings are read from here; `AiChatWidget` adds the behaviour.
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
 * @csspart csat - The satisfaction survey after an operator ended their part, or after a bot-only conversation once the panel was closed (five stars, a comment, Send and Dismiss), then its thanks.
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
export class WidgetProperties extends LitElement {
  /** Re-render when `lang` changes: it picks the string table. */
  static override get observedAttributes(): string[] {
    return [...super.observedAttributes, 'lang'];
  }

  override attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    super.attributeChangedCallback(name, old, value);
    if (name === 'lang') this.requestUpdate();
  }

  /**
   * The public reactive properties: their attributes and how they convert. One table instead of
   * Lit's decorators, which cost the one-`<script>` build about 0.5 KB gzip of its 30 KB budget (the
   * decorator runtime and a call per property); each property is declared, with its documentation,
   * below.
   */
  static override properties = {
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
    noVisitorContext: { type: Boolean, attribute: 'no-visitor-context' },
    botName: { attribute: 'bot-name' },
    botAvatar: { attribute: 'bot-avatar' },
    teaser: {},
    teaserDelay: { type: Number, attribute: 'teaser-delay' },
    attachments: { type: Boolean },
    color: {},
    position: { reflect: true },
    launcherIcon: { attribute: 'launcher-icon' },
  };

  /** `launcher`: a floating button that opens a panel; `inline`: in the page flow; `fullpage`. */
  mode: 'launcher' | 'inline' | 'fullpage' = 'launcher';
  /** Whether the launcher's panel is open. Attribute `open` (the `open()` method opens it). */
  opened = false;
  /** Header text. Default: "Chat", localised. */
  override title = '';
  /** Placeholder of the message input. Default: localised "Type a message…". */
  placeholder = '';
  /**
   * Shown as the first assistant bubble; never sent to the server. Default: the bot's appearance
   * (`welcome_message`); without either, a localised greeting fills the empty panel until the first message.
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
  /**
   * Turns do not tell the service the page (origin and path), referrer, locale and time zone, for a
   * site whose visitors have not consented to it; what the site gives to `identify()` is still sent.
   */
  noVisitorContext = false;
  /** The assistant's name: the header (without `title`) and what screen readers call its replies. Default: the bot's appearance (`bot_name`), else its name. */
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
  /**
   * The accent colour (`#rrggbb` or any CSS colour) where the page's CSS sets no `--ai-chat-accent`:
   * the launcher, the Send button, the visitor's bubbles. Default: the bot's appearance, else blue.
   */
  color?: string;
  /**
   * Launcher mode: the launcher's corner, `bottom-right` or `bottom-left` (mirrored in a right-to-left
   * page, as the whole widget is). Default: the bot's appearance, else `bottom-right`.
   */
  position?: 'bottom-right' | 'bottom-left';
  /**
   * The launcher's icon: `chat` or `help` (built in), or an image's `https:`/`http:` or `data:image/`
   * URL (the `launcher-icon` slot takes markup of the page's own). Default: the bot's appearance, else `chat`.
   */
  launcherIcon?: string;
}

/**
 * A bot's appearance (its profile's `appearance`, set in the dashboard) fills each property the
 * page left unset: the attributes win. Its keys are the attributes' names in snake_case
 * (`bot_name`: `bot-name`, the property `botName`); only the element's declared properties are
 * set, whatever else an answer may carry.
 */
export function applyAppearance(host: ReactiveElement, appearance: object | undefined): void {
  const properties = host as unknown as Record<string, string>;
  for (const key in appearance) {
    const name = key.replace(/_./g, (s) => s[1]!.toUpperCase());
    if ((host.constructor as typeof ReactiveElement).elementProperties.has(name)) properties[name] ||= (appearance as Record<string, string>)[key]!;
  }
}
