/**
 * `/v1/chat`: a chat turn as JSON or as Server-Sent Events (a thin adapter over the turn pipeline,
 * `turns/`; the SSE frames are described in `turns/respond.ts`), and the conversation history.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import type { ChatReply, ChatRequest, HistoryQuery } from '../../../src/client/types.ts';
import { accountId, type AppContext, type AppEnv } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { ServiceError } from '../http/errors.ts';
import { idempotencyTag, idempotent } from '../http/idempotency.ts';
import { readJson, readQuery } from '../http/validate.ts';
import type { BotService } from '../bots/service.ts';
import type { ConversationService } from '../conversations/service.ts';
import { startsTestConversations } from '../conversations/test-conversations.ts';
import type { Database } from '../db/schema.ts';
import type { StoredTurn, TurnCaller } from '../turns/turn.ts';
import { respondWithTurn, wantsStream, type TurnResponseDeps } from '../turns/respond.ts';
import { chatRequestSchema, historyQuerySchema } from './schema.ts';

/** What these routes use of the service graph (services.ts builds it). */
export interface ChatRouteDeps extends TurnResponseDeps {
  db: Kysely<Database>;
  conversations: ConversationService;
  bots: BotService;
}

/** Set by the token proxy on every call it forwards for a widget visitor (see `TurnCaller`). */
export const CALLER_HEADER = 'AI-Chat-Caller';

function callerOf(c: AppContext): TurnCaller {
  const value = c.req.header(CALLER_HEADER);
  if (value === undefined) return 'key';
  if (value === 'widget') return 'widget';
  throw new ServiceError('validation_failed', `${CALLER_HEADER} must be "widget" when it is sent.`, { param: CALLER_HEADER });
}

/** A stored turn as `/v1/chat` answers it. */
export function toChatReply({ reply, handoff }: StoredTurn): ChatReply {
  return {
    conversation_id: reply.conversation_id,
    message: reply,
    source: reply.source ?? 'fallback',
    intent: reply.intent ?? null,
    confidence: reply.confidence ?? null,
    citations: reply.citations ?? [],
    suggestions: reply.suggestions ?? [],
    ...(handoff && { handoff }),
  };
}

export function chatRoutes(deps: ChatRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();

  router.post('/', idempotent(deps.db), async (c) => {
    const request = await readJson<ChatRequest>(c, chatRequestSchema);
    const { stream, ...turnRequest } = request;
    const turn = await deps.turns.prepare(accountId(c), turnRequest, {
      idempotency: idempotencyTag(c),
      caller: callerOf(c),
      origin: c.req.header('origin'),
      ownOrigin: new URL(c.req.url).origin,
      test: startsTestConversations(c, turnRequest.user_id),
    });
    return respondWithTurn(c, deps, turn, { stream: wantsStream(c, stream), toData: toChatReply });
  });

  router.get('/history', async (c) => {
    const query = readQuery<HistoryQuery & { limit: number }>(c, historyQuerySchema);
    if (!query.conversation_id && !query.user_id) {
      throw new ServiceError('validation_failed', 'Give conversation_id or user_id.', { param: 'conversation_id' });
    }
    const account = accountId(c);
    if (query.conversation_id && !(await deps.conversations.find(account, query.conversation_id))) {
      throw new ServiceError('resource_not_found', 'No conversation with that conversation_id exists.', { param: 'conversation_id' });
    }
    if (query.bot_id) await deps.bots.getRow(account, query.bot_id); // 404 for another account's bot
    const page = await deps.conversations.history(account, {
      conversationId: query.conversation_id,
      userId: query.user_id,
      botId: query.bot_id,
      limit: query.limit,
      cursor: query.cursor,
    });
    return ok(c, page);
  });

  return router;
}
