/**
 * The events `<ai-chat-widget>` dispatches: one `Event` subclass per event, each with a typed,
 * readonly `detail`, all `bubbles` + `composed` so they cross the shadow root and reach the page.
 *
 * They fire for changes the user or the network caused (a click, a reply, a failure) and for the
 * public methods (`open()`, `send()`), never for programmatic property sets (`el.opened = true`).
 */
import type { Attachment, Citation, CsatRating, ErrorCode, FeedbackReason, FeedbackRating, HandoffState, OperatorProfile, ReplySource } from '../../client/types.js';

/** Delivery state of a message in the transcript. */
export type MessageStatus = 'sending' | 'sent' | 'failed';

/** One message of the transcript, as the widget keeps, stores and renders it. */
export interface TranscriptMessage {
  /** Client id (`m_…`). For user messages it is also the `Idempotency-Key` of every attempt. */
  id: string;
  /** `operator`: a person answering in the dashboard inbox (human handoff; see `author`). */
  role: 'user' | 'assistant' | 'operator';
  content: string;
  /** ISO-8601 time the message was written (the server's `created_at` once known). */
  time: string;
  status: MessageStatus;
  /** The server's message id (`msg_…`), once the server has stored the message. */
  serverId?: string;
  /** Quick replies offered with an assistant message. */
  suggestions?: string[];
  /** Knowledge-base sources of an assistant message; `url`: the page to link, when there is one. */
  citations?: Pick<Citation, 'title' | 'source' | 'url'>[];
  source?: ReplySource;
  /** Why a user message failed (`status: 'failed'`). */
  error?: { code: WidgetErrorCode; message: string };
  /** An assistant reply the user stopped while it streamed: `content` is the part that had arrived. */
  stopped?: boolean;
  /** The user's thumbs up or down on an assistant answer (the action row under it). */
  feedback?: MessageFeedback;
  /** Who wrote an operator message: their display name and avatar, as the visitor sees them. */
  author?: OperatorProfile;
  /** Files sent with the message (the visitor's uploads, or an operator's), as the service stored them. */
  attachments?: Attachment[];
}

/** `reason` undefined after a thumbs down: the reason form is still open; null: skipped. */
export interface MessageFeedback {
  rating: FeedbackRating;
  reason?: FeedbackReason | null;
  comment?: string | null;
}

/**
 * The service's error codes plus the widget's own: `unauthorized` (no usable credentials, or token
 * renewal failed), `network_error`, `timeout` and `unknown_error`; and for a `token-url` that gives
 * no token, `token_endpoint_not_found` (404/405), `token_endpoint_unreachable` (no answer: down, or
 * refused by CORS) and `invalid_token_response` (an answer that is not a token), besides the proxy's
 * own `origin_not_allowed` and `rate_limited`.
 */
export type WidgetErrorCode =
  | ErrorCode
  | 'unauthorized'
  | 'network_error'
  | 'timeout'
  | 'unknown_error'
  | 'token_endpoint_not_found'
  | 'token_endpoint_unreachable'
  | 'invalid_token_response';

export interface ErrorDetail {
  code: WidgetErrorCode;
  message: string;
  /** HTTP status, or `null` when no response arrived. */
  status: number | null;
  /** The server's request id (quote it in bug reports), when a response arrived. */
  requestId: string | null;
  /** Whether trying again later may succeed. */
  retryable: boolean;
}

export interface RateLimitDetail {
  limit: number;
  remaining: number;
  /** UTC epoch seconds at which the window resets (`X-RateLimit-Reset`). */
  reset: number;
  /** When the widget will send the queued message. */
  retryAt: Date;
}

export interface ReadyDetail {
  conversationId: string | null;
  userId: string;
  /** Messages restored from storage or history. */
  messageCount: number;
}

export interface MessageSentDetail {
  /** The client id the message will carry (and its `Idempotency-Key`). */
  id: string;
  text: string;
  conversationId: string | null;
  /** The files sent with it (uploaded already), when there are any. */
  attachments?: Attachment[];
}

export interface MessageReceivedDetail {
  message: TranscriptMessage;
  conversationId: string;
}

const init = { bubbles: true, composed: true } as const;

/** The widget restored its conversation (from storage and history) and is ready to chat. */
export class AiChatReadyEvent extends Event {
  static readonly eventName = 'ai-chat-ready';
  readonly detail: ReadyDetail;
  constructor(detail: ReadyDetail) {
    super(AiChatReadyEvent.eventName, init);
    this.detail = detail;
  }
}

/** The chat panel opened (launcher mode). */
export class AiChatOpenEvent extends Event {
  static readonly eventName = 'ai-chat-open';
  constructor() {
    super(AiChatOpenEvent.eventName, init);
  }
}

/** The chat panel closed (launcher mode). */
export class AiChatCloseEvent extends Event {
  static readonly eventName = 'ai-chat-close';
  constructor() {
    super(AiChatCloseEvent.eventName, init);
  }
}

/**
 * The user is about to send a message. Cancelable: `preventDefault()` drops the message; nothing is
 * sent, shown or stored.
 */
export class AiChatMessageSentEvent extends Event {
  static readonly eventName = 'ai-chat-message-sent';
  readonly detail: MessageSentDetail;
  constructor(detail: MessageSentDetail) {
    super(AiChatMessageSentEvent.eventName, { ...init, cancelable: true });
    this.detail = detail;
  }
}

/** An assistant reply arrived (complete, also when streamed). */
export class AiChatMessageReceivedEvent extends Event {
  static readonly eventName = 'ai-chat-message-received';
  readonly detail: MessageReceivedDetail;
  constructor(detail: MessageReceivedDetail) {
    super(AiChatMessageReceivedEvent.eventName, init);
    this.detail = detail;
  }
}

/** A request failed: sending, loading history, or obtaining a token. */
export class AiChatErrorEvent extends Event {
  static readonly eventName = 'ai-chat-error';
  readonly detail: ErrorDetail;
  constructor(detail: ErrorDetail) {
    super(AiChatErrorEvent.eventName, init);
    this.detail = detail;
  }
}

/** The service answered 429; the message stays queued and is sent at `retryAt`. */
export class AiChatRateLimitEvent extends Event {
  static readonly eventName = 'ai-chat-rate-limit';
  readonly detail: RateLimitDetail;
  constructor(detail: RateLimitDetail) {
    super(AiChatRateLimitEvent.eventName, init);
    this.detail = detail;
  }
}

export interface StopDetail {
  /** The stopped reply as the transcript keeps it (`stopped: true`; `content`: what had arrived). */
  message: TranscriptMessage;
  conversationId: string | null;
}

/** The user (or `stop()`) stopped the reply being generated; the part that had arrived stays. */
export class AiChatStopEvent extends Event {
  static readonly eventName = 'ai-chat-stop';
  readonly detail: StopDetail;
  constructor(detail: StopDetail) {
    super(AiChatStopEvent.eventName, init);
    this.detail = detail;
  }
}

/** The user confirmed "New conversation" (or `reset()` was called): the transcript was cleared. */
export class AiChatResetEvent extends Event {
  static readonly eventName = 'ai-chat-reset';
  constructor() {
    super(AiChatResetEvent.eventName, init);
  }
}

export interface FeedbackDetail {
  /** The service's id of the answer (`msg_…`). */
  messageId: string;
  /** null: the user took the thumb back (pressed it again). */
  rating: FeedbackRating | null;
  /** After a thumbs down, what the reason form said (null: none chosen, or not asked yet). */
  reason: FeedbackReason | null;
  comment: string | null;
}

/**
 * The user rated an answer: a thumb pressed or taken back, or the reason form after a thumbs down
 * sent. Cancelable: `preventDefault()` keeps the widget from sending it to the service (the host
 * handles it); the thumb still shows as pressed.
 */
export class AiChatFeedbackEvent extends Event {
  static readonly eventName = 'ai-chat-feedback';
  readonly detail: FeedbackDetail;
  constructor(detail: FeedbackDetail) {
    super(AiChatFeedbackEvent.eventName, { ...init, cancelable: true });
    this.detail = detail;
  }
}

/**
 * The conversation's human handoff changed (docs/handoff.md): the visitor asked for a person, or the
 * bot handed off (`waiting`), an operator joined (`with_person`; `operator` says who), the operator
 * gave it back to the bot (`bot`) or ended it (`closed`).
 *
 * Cancelable when the visitor pressed "Talk to a person" (`status: 'waiting'`, before the service
 * is asked): `preventDefault()` asks nobody, so a host with a helpdesk of its own takes over there
 * (docs/handoff.md, "Your own helpdesk").
 */
export class AiChatHandoffEvent extends Event {
  static readonly eventName = 'ai-chat-handoff';
  readonly detail: HandoffState;
  constructor(detail: HandoffState, cancelable = false) {
    super(AiChatHandoffEvent.eventName, { ...init, cancelable });
    this.detail = detail;
  }
}

export interface CsatDetail {
  /** The conversation rated (`conv_…`). */
  conversationId: string;
  /** 1 (very bad) to 5 (very good). */
  rating: CsatRating;
  /** What the visitor wrote under the rating, or null. */
  comment: string | null;
}

/**
 * The visitor rated the conversation in the survey shown after an operator ended their part (or,
 * when the bot's settings ask, after a conversation with the bot alone). Cancelable:
 * `preventDefault()` keeps the widget from sending it to the service (the host handles it); the
 * survey still thanks the visitor.
 */
export class AiChatCsatEvent extends Event {
  static readonly eventName = 'ai-chat-csat';
  readonly detail: CsatDetail;
  constructor(detail: CsatDetail) {
    super(AiChatCsatEvent.eventName, { ...init, cancelable: true });
    this.detail = detail;
  }
}

/**
 * Every event `<ai-chat-widget>` dispatches, in the order the README lists them: the one list the
 * event map below, the framework typings (`ai-chat-widget/jsx`, `/vue`, `/svelte`) and the React
 * wrapper's `onAiChat…` props are derived from. test/node/manifest.test.ts holds the element's
 * `@fires` JSDoc and the README's events table to it.
 */
export const aiChatEvents = [
  AiChatReadyEvent,
  AiChatOpenEvent,
  AiChatCloseEvent,
  AiChatMessageSentEvent,
  AiChatMessageReceivedEvent,
  AiChatErrorEvent,
  AiChatRateLimitEvent,
  AiChatStopEvent,
  AiChatResetEvent,
  AiChatFeedbackEvent,
  AiChatHandoffEvent,
  AiChatCsatEvent,
] as const;

/** Every event `<ai-chat-widget>` dispatches, by name. */
export type AiChatWidgetEventMap = {
  [E in (typeof aiChatEvents)[number] as E['eventName']]: InstanceType<E>;
};

declare global {
  interface GlobalEventHandlersEventMap extends AiChatWidgetEventMap {}
}
