/** Feedback on answers: a rating with a reason, and its reports. Part of the v1 wire contract (types.ts). */
import type { Granularity, TopicsQuery } from './analytics-types.js';

export type FeedbackRating = 'up' | 'down';

/** Why an answer got a thumbs down (only with `rating: 'down'`). */
export type FeedbackReason = 'incorrect' | 'not_helpful' | 'incomplete' | 'other';

/** `POST /v1/messages/{message_id}/feedback`: given again, it replaces the rater's earlier feedback. */
export interface FeedbackRequest {
  rating: FeedbackRating;
  reason?: FeedbackReason;
  /** Free text, at most 1,000 characters. */
  comment?: string;
  /** The rater: the conversation's end user (omit for a conversation without one). A widget token sets it. */
  user_id?: string;
  /** When given, the message must be in a conversation with this bot (a widget token sets it). */
  bot_id?: string;
  /** When given, the message must be in a conversation with this agent. */
  agent_id?: string;
}

/** Whose feedback `DELETE /v1/messages/{message_id}/feedback` takes back. */
export interface FeedbackScope {
  user_id?: string;
  bot_id?: string;
  agent_id?: string;
}

export interface Feedback {
  message_id: string;
  conversation_id: string;
  user_id: string | null;
  bot_id: string | null;
  agent_id: string | null;
  rating: FeedbackRating;
  reason: FeedbackReason | null;
  comment: string | null;
  created_at: string;
  /** When it was last given (the reports count it on this day). */
  updated_at: string;
}

export interface FeedbackQuery extends TopicsQuery {
  granularity?: Granularity;
}

export interface FeedbackCounts {
  up: number;
  down: number;
}

export interface DownvotedAnswer {
  /** The answer's text (at most 500 characters); the same text in many conversations is one answer. */
  answer: string;
  down: number;
  up: number;
  /** The latest downvoted message with this text, and its conversation. */
  message_id: string;
  conversation_id: string;
  last_down_at: string;
}

export interface FeedbackReport {
  from: string;
  to: string;
  granularity: Granularity;
  agent_id: string | null;
  bot_id: string | null;
  totals: FeedbackCounts;
  /** Every bucket of the range, oldest first, including empty ones. */
  series: (FeedbackCounts & { start: string })[];
  /** Per bot and agent (null: none), most feedback first; at most `limit` rows. */
  owners: (FeedbackCounts & { bot_id: string | null; agent_id: string | null })[];
  /** Reasons given with thumbs down, most frequent first. */
  reasons: { reason: FeedbackReason; count: number }[];
  /** The answers with the most thumbs down, most first. */
  most_downvoted: DownvotedAnswer[];
  /** The newest feedback that came with a comment, newest first; at most `limit` rows. */
  comments: FeedbackComment[];
}

/** A visitor's comment on an answer, with their rating and reason, in the feedback report. */
export interface FeedbackComment {
  message_id: string;
  conversation_id: string;
  bot_id: string | null;
  agent_id: string | null;
  rating: FeedbackRating;
  reason: FeedbackReason | null;
  comment: string;
  /** The answer's text, at most 500 characters. */
  answer: string;
  /** When the feedback was last given. */
  updated_at: string;
}
