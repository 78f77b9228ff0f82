/**
 * A bot on messaging platforms (`/bots/{bot_id}/channels`): its connection per platform, the
 * connection's health, and test messages (docs/channels.md). Credentials go in and never come back.
 */

/** The platforms a bot can be connected to (`ChannelList.platforms` says which this service speaks). */
export type ChannelPlatform = 'telegram' | 'whatsapp' | 'slack';

export interface ChannelHealth {
  /** The last delivery the platform made to the webhook. */
  last_received_at: string | null;
  /** The last reply the platform took. */
  last_sent_at: string | null;
  /** The last failure (a reply not delivered, a message not answered); never a credential. */
  last_error: string | null;
  last_error_at: string | null;
  /** Replies in the outbox not sent yet (queued, waiting for a retry, or being sent). */
  pending_replies: number;
}

export interface ChannelConnection {
  id: string;
  bot_id: string;
  type: ChannelPlatform;
  /** Where the platform delivers messages: registered by the service (Telegram) or pasted into the platform's setup. */
  webhook_url: string;
  /** What the platform needs that is no secret (WhatsApp: `phone_number_id`). */
  settings: Record<string, string>;
  /** Which credentials are stored; the credentials themselves are never returned. */
  secrets_set: Record<string, boolean>;
  health: ChannelHealth;
  created_at: string;
  updated_at: string;
}

export interface ChannelList {
  /** The bot's channels, oldest first. */
  items: ChannelConnection[];
  platforms: ChannelPlatform[];
}

/**
 * A platform's credentials and settings by field name (Telegram `bot_token`; WhatsApp
 * `phone_number_id`, `access_token`, `app_secret`, `verify_token`; Slack `bot_token`,
 * `signing_secret`). On an update, only what changes.
 */
export type ChannelConnectRequest = Record<string, string>;

export interface ChannelTestRequest {
  /** Telegram: a chat id; WhatsApp: a phone number, digits only; Slack: a channel id. Default: whoever wrote last. */
  chat?: string;
  /** Markdown, formatted for the platform as replies are. */
  text?: string;
}

export type ChannelTestStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'unconfirmed';

export interface ChannelTestMessage {
  id: string;
  chat: string;
  /** `pending` (queued or waiting for a retry), `sending`, then `sent`, `failed` or `unconfirmed` (it may or may not have arrived). */
  status: ChannelTestStatus;
  /** The platform's refusal, or the last try's error before a retry. */
  error: string | null;
  sent_at: string | null;
  created_at: string;
}
