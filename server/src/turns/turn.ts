/**
 * A chat turn as the pipeline (pipeline.ts) sees it: what it asks (`TurnRequest`, whichever
 * endpoint it came through), who asks it (`TurnContext`), what `prepare` makes of it
 * (`PreparedTurn`: fresh, replayed or held) and what `run` stores (`StoredTurn`).
 */
import type { Attachment, ChatRequest, VisitorContext } from '../../../src/client/types.ts';
import type { KeyedTurn } from '../conversations/service.ts';
import type { TurnHandoff } from '../handoff/turns.ts';
import { ServiceError } from '../http/errors.ts';
import type { IdempotencyTag } from '../http/idempotency.ts';
import type { Responder, ResponderInput } from './responders/responder.ts';

/** What a turn asks; the chat request's fields, whichever endpoint it came through. */
export interface TurnRequest extends Omit<ChatRequest, 'stream'> {
  /** The bot endpoint's rule: the turn goes to the user's open conversation with `bot_id`. */
  openConversation?: boolean;
}

/**
 * Who is asking: the key holder (`key`), or a widget visitor whose request the token proxy forwarded
 * with the key (`widget`, from the `AI-Chat-Caller` header). It only matters without a bot or agent:
 * a key holder may read every entry anyway, a visitor gets no knowledge there.
 */
export type TurnCaller = 'key' | 'widget';

/**
 * What the request's JSON Schema cannot say, since it names a position from the end: the last
 * message is the user's, and every message has text except the last when it sends files (an
 * image alone is a message too; the schema allows empty content for this).
 */
export function checkTurnRequest(request: TurnRequest): void {
  const last = request.messages.length - 1;
  if (request.messages[last]!.role !== 'user') {
    throw new ServiceError('validation_failed', 'The last message must have role "user".', {
      param: `messages.${last}.role`,
      details: [{ path: `/messages/${last}/role`, message: 'must be "user" on the last message' }],
    });
  }
  request.messages.forEach((message, index) => {
    if (message.content.length > 0 || (index === last && request.attachments?.length)) return;
    const param = request.openConversation ? 'message' : `messages.${index}.content`;
    throw new ServiceError('validation_failed', `Invalid body: ${param} must NOT have fewer than 1 characters.`, {
      param,
      details: [{ path: `/${param.replaceAll('.', '/')}`, message: `${param} must NOT have fewer than 1 characters` }],
    });
  });
}

export interface TurnContext {
  /** The request's key, stored on the user message (see pipeline.ts). */
  idempotency?: IdempotencyTag;
  caller?: TurnCaller;
  /** The browser's `Origin` (absent server to server) and the service's own, for a bot's website rule. */
  origin?: string;
  ownOrigin?: string;
  /** A conversation this turn starts is a test one (set from the principal: conversations/test-conversations.ts). */
  test?: boolean;
}

/** A turn as stored: its user message, the reply after it, and the reply's entities. */
export interface StoredTurn extends KeyedTurn {
  /** True when an earlier request with the same Idempotency-Key stored this turn. */
  replayed: boolean;
  /** Set when the turn met or changed the conversation's handoff status (`held`: the bot did not answer). */
  handoff?: TurnHandoff;
}

export interface FreshTurn {
  conversationId: string;
  /** False: the conversation is created when the reply is stored. */
  conversationExists: boolean;
  owner: { botId: string | null; agentId: string | null; userId: string | null; test: boolean };
  input: ResponderInput;
  responder: Responder;
  startedAt: number;
  idempotency?: IdempotencyTag;
  /** What the turn told about the visitor, kept on the conversation once the turn is stored. */
  visitor?: VisitorContext;
  replay?: undefined;
  held?: undefined;
}

/** A request whose Idempotency-Key already stored this turn: `run` answers it as stored. */
export interface ReplayedTurn {
  conversationId: string;
  replay: StoredTurn;
  held?: undefined;
}

/** A turn in a conversation a person has (or is about to): stored, not answered by the bot. */
export interface HeldTurn {
  conversationId: string;
  held: { accountId: string; question: string; idempotency?: IdempotencyTag; attachments: Attachment[]; visitor?: VisitorContext };
  replay?: undefined;
}

export type PreparedTurn = FreshTurn | ReplayedTurn | HeldTurn;

export type TurnEvent = { type: 'delta'; text: string } | { type: 'done'; turn: StoredTurn };
