/**
 * Messages and what they carry (citations, entities, attachments), and the events of a
 * conversation a person is involved in. Part of the v1 wire contract (types.ts).
 */
import type { Attachment } from './attachment-types.js';
import type { HandoffState, OperatorProfile } from './handoff-types.js';

export type Role = 'system' | 'user' | 'assistant';

/** An element of `POST /v1/chat`'s `messages` array. */
export interface ChatMessage {
  role: Role;
  /** 1–8,000 characters. */
  content: string;
}

/** A stored message, as history and replies return it. */
export interface Message {
  id: string;
  conversation_id: string;
  /**
   * `operator`: written by a person in the dashboard inbox (see `author`). `note`: a private note of
   * the team, read only in the inbox (`/dashboard/api/inbox/{id}/notes`); /v1 never answers one.
   */
  role: Role | 'operator' | 'note';
  content: string;
  created_at: string;
  /** Present on assistant messages. */
  source?: ReplySource;
  intent?: string | null;
  confidence?: number | null;
  citations?: Citation[];
  suggestions?: string[];
  /**
   * `true` on an assistant reply the user stopped while it streamed (the client closed the stream):
   * `content` is the text sent before the stop. Absent otherwise.
   */
  stopped?: true;
  /** Present on operator messages (who wrote it, as the visitor saw it) and notes (who wrote it). */
  author?: OperatorProfile;
  /** Files sent with the message (`GET /v1/attachments/{id}` reads each); absent when none. */
  attachments?: Attachment[];
}

/** Where an assistant reply came from. */
export type ReplySource = 'intent' | 'knowledge' | 'fallback' | 'llm';

export interface Citation {
  entry_id: string;
  title: string;
  snippet: string;
  score: number;
  source?: string | null;
  /**
   * The page the cited text is on (`http:`/`https:` only): an imported entry's page, or a typed
   * entry's `source` when that is such a URL. `null` or absent: nothing to link.
   */
  url?: string | null;
  /** The headings above the cited text in its document, outermost first (imported entries). */
  heading_path?: string[];
}

export interface Entity {
  /** Entity name as declared in the training data. */
  entity: string;
  /** Normalised value (the list option's value, or the regex match). */
  value: string;
  /** The text that matched. */
  text: string;
}

/**
 * Events of `GET /v1/conversations/{id}/events` (the visitor) and `GET /dashboard/api/inbox/events`
 * (the operator), `event:` name → `data:` JSON. Every stored event has an `id:` (resume with
 * `Last-Event-ID`); `typing` is not stored and has none.
 */
export interface HandoffStreamEvents {
  /** A status change (asked, taken, closed). */
  status: HandoffState;
  /** A message written while a person is involved: the visitor's, or an operator's (`role: 'operator'`). */
  message: Message;
  /** A private note of the team (`role: 'note'`): on the inbox's stream only, never the visitor's. */
  note: Message;
  /** Someone is typing: the operator (to the visitor's stream) or the visitor (to both); show it for a few seconds. */
  typing: { conversation_id: string; from: 'operator' | 'visitor'; operator: OperatorProfile | null };
  /** What a teammate shows now (their choice, their dashboard opened or closed): on the inbox's stream only; not stored, no id. */
  presence: { user_id: string; status: 'online' | 'away' | 'offline' };
}

export type HandoffEvent = {
  [K in keyof HandoffStreamEvents]: { type: K; id: string | null; data: HandoffStreamEvents[K] };
}[keyof HandoffStreamEvents];
