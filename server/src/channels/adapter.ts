/**
 * The one interface every messaging platform implements (one folder per platform): check that a
 * webhook request really comes from the platform, parse it into events, send a reply, and say the
 * platform's limits. Everything else — storing deliveries, turns, the outbox, retries — is shared
 * (inbound.ts, outbox.ts), so a new platform is one adapter and a line in `adapters.ts`.
 */
export type ChannelType = 'telegram' | 'whatsapp' | 'slack';

/** One message a person sent on the platform. */
export interface InboundEvent {
  /** The platform's id of this delivery (Telegram `update_id`, WhatsApp `wamid`, Slack `event_id`): the idempotency key. */
  externalMessageId: string;
  /** The platform's conversation (Telegram chat id, WhatsApp `wa_id`, a Slack thread): replies go there. */
  externalConversationId: string;
  user: { id: string; name?: string };
  text: string;
  /** Media the person sent (not read yet: the text says a file came). */
  files: { kind: string; id: string }[];
  /** The platform's id of the button press this message is (Telegram `callback_query.id`), to acknowledge. */
  pressId?: string;
}

/** What the platform told about a reply sent earlier (WhatsApp statuses). */
export interface DeliveryStatus {
  externalMessageId: string;
  status: string;
  error?: string;
}

export interface ParsedDelivery {
  events: InboundEvent[];
  statuses: DeliveryStatus[];
  /** A signed handshake asking the webhook to echo this text (Slack's `url_verification`). */
  challenge?: string;
}

/** One message of a reply as the outbox stores it. */
export interface OutboundReply {
  /** In the platform's markup (format.ts), within its limit. */
  text: string;
  /** Shown as the platform's buttons (Telegram inline keyboard, WhatsApp reply buttons, Slack Block Kit buttons). */
  quickReplies: string[];
  files: { url: string; name: string }[];
}

/** A channel's stored configuration, credentials opened. */
export interface ChannelAccess {
  id: string;
  settings: Record<string, string>;
  secrets: Record<string, string>;
}

export type SendResult =
  | { ok: true; externalId: string }
  /**
   * `retryAfterMs`: the platform said when (429 `retry_after`, `Retry-After`); otherwise backoff.
   * `uncertain`: the request may have reached the platform with no answer back (never sent again).
   */
  | { ok: false; retryable: boolean; retryAfterMs?: number; error: string; uncertain?: true };

export interface ChannelLimits {
  maxTextChars: number;
  maxQuickReplies: number;
  maxQuickReplyChars: number;
}

export interface ChannelAdapter {
  readonly type: ChannelType;
  readonly limits: ChannelLimits;
  /** Credentials the channel stores sealed (secrets.ts), never returned. */
  readonly secretFields: readonly string[];
  /** Plain settings, returned as saved. */
  readonly settingFields: readonly string[];
  /** True when the request is the platform's: checked in constant time, before anything is parsed. */
  verify(rawBody: Uint8Array, headers: Headers, channel: ChannelAccess): boolean;
  /** The events of a verified delivery; throws on a body that is not the platform's shape. */
  parse(rawBody: Uint8Array): ParsedDelivery;
  send(channel: ChannelAccess, chat: string, reply: OutboundReply, signal: AbortSignal): Promise<SendResult>;
  /** Tells the platform a button press arrived (`InboundEvent.pressId`), where it waits for that (Telegram). */
  acknowledge?(channel: ChannelAccess, event: InboundEvent): Promise<void>;
  /** Registers the webhook with the platform, where the platform has an API for it (Telegram). */
  connect?(channel: ChannelAccess, webhookUrl: string): Promise<void>;
  disconnect?(channel: ChannelAccess): Promise<void>;
}
