/**
 * `POST /v1/bots/{bot_id}/messages`: a thin adapter over the turn pipeline (`turns/`). The turn goes
 * to the end user's open conversation with the bot and is answered as on `/v1/chat` with that bot;
 * this file only says how a stored turn reads in the bot endpoint's response. `stream: true` answers
 * with the same Server-Sent Events as `/v1/chat`, the `done` frame carrying this response.
 */
import type { BotMessageRequest, BotReply } from '../../../src/client/types.ts';
import { startsTestConversations } from '../conversations/test-conversations.ts';
import { accountId, type AppContext } from '../http/context.ts';
import { idempotencyTag } from '../http/idempotency.ts';
import { readJson } from '../http/validate.ts';
import type { StoredTurn } from '../turns/turn.ts';
import { respondWithTurn, wantsStream, type TurnResponseDeps } from '../turns/respond.ts';
import { botMessageSchema } from './schema.ts';

/** A stored turn as the bot endpoint answers it. */
export function toBotReply({ user, reply, entities, handoff }: StoredTurn): BotReply {
  return {
    conversation_id: reply.conversation_id,
    user_message: user,
    message: reply,
    intent: reply.intent ?? null,
    confidence: reply.confidence ?? 0,
    entities,
    suggestions: reply.suggestions ?? [],
    fallback: reply.source === 'fallback',
    ...(handoff && { handoff }),
  };
}

export async function answerBotMessage(c: AppContext, deps: TurnResponseDeps, botId: string): Promise<Response> {
  const { message, user_id, stream, attachments, visitor } = await readJson<BotMessageRequest>(c, botMessageSchema);
  const turn = await deps.turns.prepare(
    accountId(c),
    { messages: [{ role: 'user', content: message }], bot_id: botId, user_id, attachments, visitor, openConversation: true },
    { idempotency: idempotencyTag(c), origin: c.req.header('origin'), ownOrigin: new URL(c.req.url).origin, test: startsTestConversations(c, user_id) },
  );
  return respondWithTurn(c, deps, turn, { stream: wantsStream(c, stream), toData: toBotReply });
}
