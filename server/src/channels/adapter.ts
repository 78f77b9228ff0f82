/**
 * The one interface every messaging platform implements (one folder per platform): check that a
 * webhook request really comes from the platform, parse it into events, send a reply, and say the
 * platform's limits. Everything else — storing deliveries, turns, the outbox, retries — is shared
 * (inbound.ts, outbox.ts), so a new platform is one adapter and a line in `adapters.ts`.
 */
import type { Download } from './platform-http.ts';

export type ChannelType = 'telegram' | 'whatsapp' | 'slack';

/** One message a person sent on the platform. */
export interface InboundEvent {
  /** The platform's id of this delivery (Telegram `update_id`, WhatsApp `wamid`, Slack `event_id`): the idempotency key. */
  externalMessageId: string;
  /** The platform's conversation (Telegram chat id, WhatsApp `wa_id`, a Slack thread): replies go there. */
  externalConversationId: string;
  user: { id: string; name?: string };
  text: string;
  /** Files the person sent, read by the adapter's `download` when the event is answered (inbound-media.ts). */
  files: InboundFile[];
  /** The platform's id of the button press this message is (Telegram `callback_query.id`), to acknowledge. */
  pressId?: string;
}

/** A file as the platform names it in a delivery. */
export interface InboundFile {
  /** The platform's kind (Telegram `photo`/`document`/`voice`, WhatsApp `image`/`document`/`audio`, Slack's `filetype`). */
  kind: string;
  /** Telegram `file_id`, WhatsApp media id, Slack file id. */
  id: string;
  name?: string;
  /** What the platform says the size is (checked before anything is read; the bytes are counted anyway). */
  size?: number;
  /** Where the platform serves it, when the delivery says (Slack `url_private_download`). */
  url?: string;
}

/** A stored attachment a reply sends, one per outbox piece; its bytes are read when it is sent. */
export interface OutboundFile {
  id: string;
  name: string;
  contentType: string;
  size: number;
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
  /** At most one (outbox.ts): then `text` is its caption. */
  files: OutboundFile[];
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
  /** A media message's caption (longer text goes as a message of its own before the file). */
  maxCaptionChars: number;
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
  /** Sends one stored file as the platform's media message, `caption` (its markup) with it. */
  sendFile(channel: ChannelAccess, chat: string, file: OutboundFile & { data: Uint8Array }, caption: string, signal: AbortSignal): Promise<SendResult>;
  /** Reads a file a person sent, at most `maxBytes` of it (platform-http.ts `download`). */
  download(channel: ChannelAccess, file: InboundFile, maxBytes: number, signal: AbortSignal): Promise<Download>;
  /** Tells the platform a button press arrived (`InboundEvent.pressId`), where it waits for that (Telegram). */
  acknowledge?(channel: ChannelAccess, event: InboundEvent): Promise<void>;
  /** Registers the webhook with the platform, where the platform has an API for it (Telegram). */
  connect?(channel: ChannelAccess, webhookUrl: string): Promise<void>;
  disconnect?(channel: ChannelAccess): Promise<void>;
}
