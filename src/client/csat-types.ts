/**
 * Satisfaction (CSAT): a visitor's 1–5 rating of a conversation, the bot's settings of when the
 * widget asks for it, and the support report (CSAT with the team's response times). Part of the v1
 * wire contract (types.ts).
 */
import type { TopicsQuery } from './analytics-types.js';

/** 1 (very unhappy) to 5 (very happy); 4 and 5 count as satisfied. */
export type CsatRating = 1 | 2 | 3 | 4 | 5;

/** `POST /v1/conversations/{conversation_id}/csat`: once per conversation (409 `csat_already_given` after). */
export interface CsatRequest {
  rating: CsatRating;
  /** Free text, at most 1,000 characters. */
  comment?: string;
  /** The rater: the conversation's end user (omit for a conversation without one). A widget token sets it. */
  user_id?: string;
  /** When given, the conversation must be with this bot (a widget token sets it). */
  bot_id?: string;
}

export interface Csat {
  conversation_id: string;
  bot_id: string | null;
  agent_id: string | null;
  user_id: string | null;
  /** The operator who last took the conversation when it was rated; null: the bot answered alone. */
  operator_id: string | null;
  rating: CsatRating;
  comment: string | null;
  created_at: string;
}

/** `GET /v1/conversations/{conversation_id}/csat`: whether to ask for a rating, and the one given. */
export interface CsatState {
  conversation_id: string;
  /** The bot's settings ask for a rating after this conversation (with a person, or with the bot alone). */
  survey: boolean;
  /** Which setting `survey` follows: `after_handoff` once a person took the conversation, else `after_bot`. */
  moment: 'after_handoff' | 'after_bot';
  /** The rating given, or null. */
  csat: Csat | null;
}

/** `GET/PUT /v1/bots/{bot_id}/csat`: when the widget asks for a rating. */
export interface CsatSettings {
  bot_id: string;
  /** After an operator ended their part (the conversation closed, or given back to the bot). @default true */
  after_handoff: boolean;
  /** After a conversation the bot answered alone, when the visitor closes the chat. @default false */
  after_bot: boolean;
}

export type CsatSettingsInput = Partial<Pick<CsatSettings, 'after_handoff' | 'after_bot'>>;

/** `GET /v1/analytics/support`. */
export type SupportQuery = TopicsQuery;

export interface CsatSummary {
  /** Ratings given in the range. */
  responses: number;
  /** Ratings of 4 or 5. */
  satisfied: number;
  /** `satisfied / responses` (0–1); null with no ratings. */
  satisfied_share: number | null;
  /** The mean rating (1–5); null with no ratings. */
  mean: number | null;
}

export interface DurationSummary {
  /** Handoffs measured. */
  count: number;
  mean_seconds: number | null;
  median_seconds: number | null;
}

export interface SupportFigures {
  /** Persons asked for in the range (an operator's: the handoffs they took). */
  handoffs: number;
  csat: CsatSummary;
  /** From a person asked for (`waiting`) to an operator's first message. */
  first_response: DurationSummary;
  /** From a person asked for to the handoff's end (closed, or given back to the bot). */
  resolution: DurationSummary;
}

export interface SupportReport {
  from: string;
  to: string;
  agent_id: string | null;
  bot_id: string | null;
  totals: SupportFigures;
  /** Per operator (the one who took the handoff), most handoffs and ratings first; at most `limit` rows. */
  operators: (SupportFigures & { operator_id: string; name: string })[];
  /** Per bot (null: conversations with an agent), most first; at most `limit` rows. */
  bots: (SupportFigures & { bot_id: string | null })[];
  /** The newest ratings given with a comment, newest first; at most `limit` rows. */
  comments: CsatComment[];
}

export interface CsatComment {
  conversation_id: string;
  bot_id: string | null;
  operator_id: string | null;
  rating: CsatRating;
  comment: string;
  created_at: string;
}
