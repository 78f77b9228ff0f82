/**
 * The chat endpoint (`POST /v1/chat`), turn streams, and conversations: history, lists, deletion.
 * Part of the v1 wire contract (types.ts).
 */
import type { BotReply } from './bot-types.js';
import type { ErrorEnvelope, Page, PageQuery, SuccessEnvelope } from './envelope-types.js';
import type { HandoffState } from './handoff-types.js';
import type { ChatMessage, Citation, Message, ReplySource, Role } from './message-types.js';
import type { VisitorContext } from './visitor-types.js';

export interface ChatRequest {
  /** 1–100 messages, the last one with role `user`. */
  messages: ChatMessage[];
  /** Continue this conversation; omitted: a new conversation is started. */
  conversation_id?: string;
  agent_id?: string;
  bot_id?: string;
  /** Whose conversation it is (history by user); 1–128 characters of `[A-Za-z0-9._:@-]`. */
  user_id?: string;
  /** Answer as Server-Sent Events (`meta`, `delta`…, then `done` with the full envelope). */
  stream?: boolean;
  /**
   * Files for the last (user) message, uploaded for this bot (`POST /v1/attachments`); needs
   * `bot_id` or a conversation with a bot. That message's `content` may then be empty.
   */
  attachments?: string[];
  /** Who the visitor is and where they are (page, locale, time zone, traits); stored on the conversation. */
  visitor?: VisitorContext;
}

export interface ChatReply {
  conversation_id: string;
  /** The stored assistant message. */
  message: Message;
  source: ReplySource;
  intent: string | null;
  confidence: number | null;
  citations: Citation[];
  suggestions: string[];
  /**
   * Human handoff (docs/handoff.md): the conversation's handoff state after this turn, present when
   * the bot has handoff on (or the turn met a person). `held: true`: a person is involved, so the bot did not answer: `message` is the stored
   * visitor message, and replies arrive on the events stream.
   */
  handoff?: HandoffState & { held?: true };
}

/**
 * Events of a streamed turn, `POST /v1/chat` or `POST /v1/bots/{id}/messages` with `stream: true`
 * (`event:` name → `data:` JSON).
 */
export interface TurnStreamEvents<Reply> {
  meta: { request_id: string; conversation_id: string };
  delta: { text: string };
  done: SuccessEnvelope<Reply>;
  error: ErrorEnvelope;
}

export type ChatStreamEvents = TurnStreamEvents<ChatReply>;
export type BotStreamEvents = TurnStreamEvents<BotReply>;

export interface HistoryQuery extends PageQuery {
  conversation_id?: string;
  user_id?: string;
  bot_id?: string;
}

/** Messages oldest → newest. */
export type HistoryPage = Page<Message>;

/** `GET /v1/conversations` filters; they combine with AND. */
export interface ConversationListQuery extends PageQuery {
  bot_id?: string;
  agent_id?: string;
  user_id?: string;
  /** Started at or after this ISO date or date-time. */
  from?: string;
  /** Started at or before this ISO date or date-time (a date includes that whole day). */
  to?: string;
  /** A message contains every word (case-insensitive; a word also matches the start of a longer one). */
  q?: string;
  /** Has this label (exactly as written). */
  label?: string;
}

/** A conversation as `GET /v1/conversations` lists it; its messages come from `GET /v1/chat/history`. */
export interface Conversation {
  id: string;
  bot_id: string | null;
  agent_id: string | null;
  user_id: string | null;
  created_at: string;
  /** When the last message was added. */
  updated_at: string;
  /** The labels the team put on it, in the order they were added. */
  labels: string[];
  /** The newest message, its text cut to 200 characters; null while there is none. */
  last_message: { id: string; role: Role | 'operator'; preview: string; created_at: string } | null;
}

/** `POST /v1/conversations/{id}/labels`: labels to put on and take off, at once (`remove` wins). */
export interface LabelsUpdate {
  /** 1–40 characters each, trimmed; a conversation has at most 20. */
  add?: string[];
  remove?: string[];
}

export interface ConversationLabels {
  conversation_id: string;
  labels: string[];
}

/** What every `DELETE` answers: the deleted id and what went with it. */
export interface Deletion {
  id: string;
  deleted: true;
  /** Conversations deleted with it (1 for a conversation itself; a bot's or agent's own). */
  conversations: number;
  /** Messages deleted with it. */
  messages: number;
}
