/**
 * Types of human handoff: a conversation's status, the bot's handoff settings and the operator
 * inbox. Re-exported by `types.ts`; the events stream's types are in `message-types.ts` (they
 * carry a `Message`, and this file imports nothing from it).
 */

/**
 * Who answers a conversation: `bot` (the bot), `waiting` (the visitor asked for a person),
 * `with_person` (an operator took it), `closed` (ended; a new message starts a new conversation).
 */
export type HandoffStatus = 'bot' | 'waiting' | 'with_person' | 'closed';

/** Why a person cannot be asked for right now. */
export type HandoffUnavailableReason = 'disabled' | 'outside_hours' | 'nobody_online';

/** How an operator appears to the visitor: the dashboard user's display name and avatar. */
export interface OperatorProfile {
  id: string;
  name: string;
  avatar_url: string | null;
}

/** One weekly opening range in the bot's time zone; `to` after `from` (24:00 allowed as `to`). */
export interface OpeningRange {
  day: 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';
  /** `HH:MM`, 24-hour. */
  from: string;
  to: string;
}

export interface OpeningHours {
  /** IANA time zone, e.g. `Europe/Berlin`. */
  time_zone: string;
  weekly: OpeningRange[];
}

/** `PUT /v1/bots/{bot_id}/handoff`. */
export interface HandoffSettingsInput {
  enabled: boolean;
  /** Hand off after this many fallback answers in a row (1–20); null: never by count. */
  after_fallbacks?: number | null;
  /** Trained intents that hand off when they match. */
  intents?: string[];
  /** Opening hours; null: open whenever an operator is online. */
  hours?: OpeningHours | null;
}

/** Whether a person can be asked for now. */
export interface HandoffAvailability {
  available: boolean;
  /** Null when available. */
  unavailable_reason: HandoffUnavailableReason | null;
}

/** A bot's handoff settings and whether a person can be asked for now. */
export interface HandoffSettings extends HandoffAvailability {
  bot_id: string;
  enabled: boolean;
  after_fallbacks: number | null;
  intents: string[];
  hours: OpeningHours | null;
}

/** A conversation's handoff state, as the visitor sees it. */
export interface HandoffState extends HandoffAvailability {
  conversation_id: string;
  status: HandoffStatus;
  /** The operator who took it (`with_person`); null otherwise. */
  operator: OperatorProfile | null;
  /** When the visitor asked for a person; null in `bot` and `closed`. */
  waiting_since: string | null;
}

/** `POST /v1/conversations/{id}/handoff/offline-messages`: an email for a reply while nobody is there. */
export interface OfflineMessageRequest {
  email: string;
  /** 1–4,000 characters. */
  message: string;
  user_id?: string;
}

export interface OfflineMessage {
  id: string;
  conversation_id: string;
  bot_id: string | null;
  user_id: string | null;
  email: string;
  message: string;
  created_at: string;
  /** When a teammate answered it by email from the inbox; null: not answered. */
  answered_at: string | null;
  /** Who answered it (null: nobody yet, or a teammate removed since). */
  answered_by: { id: string; name: string } | null;
}

/** `POST /dashboard/api/inbox/offline-messages/{id}/reply`: the email to the visitor's address. */
export interface OfflineReplyRequest {
  /** 1–200 characters. */
  subject: string;
  /** 1–10,000 characters. */
  text: string;
}

/** A conversation in the operator inbox. */
export interface InboxConversation {
  id: string;
  status: HandoffStatus;
  bot_id: string | null;
  user_id: string | null;
  waiting_since: string | null;
  /** Seconds since `waiting_since` at the time of the answer. */
  wait_seconds: number | null;
  operator: OperatorProfile | null;
  /** The labels the team put on it. */
  labels: string[];
  last_message: { id: string; role: string; preview: string; created_at: string } | null;
}
