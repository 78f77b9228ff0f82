/**
 * `POST /v1/bots/{bot_id}/messages`: the bot's answer to one end-user message, stored in that
 * user's open conversation with the bot (user message + assistant reply, in one transaction).
 * With an Idempotency-Key the turn is stored once: a retry (also after a crash) or a racing request
 * with the same key is answered from the stored turn (see `ChatService` for the same rule).
 */
import type { BotMessageRequest, BotReply, Channel, TrainingData } from '../../../src/client/types.ts';
import { isKeyedTurnConflict, type ConversationStore, type KeyedTurn } from '../chat/store.ts';
import { iso } from '../db/json.ts';
import { ServiceError } from '../http/errors.ts';
import type { IdempotencyTag } from '../http/idempotency.ts';
import { answerWithIntent, fallbackResponse, type IntentAnswer, type NluEngine } from '../nlu/index.ts';
import type { BotService } from './service.ts';

export interface BotMessageDeps {
  bots: BotService;
  nlu: NluEngine;
  conversations: ConversationStore;
}

/**
 * A browser on another origin may only talk to a bot whose website channel lists that origin
 * (an empty list, or no website channel, allows any). Server-to-server calls send no Origin.
 */
export function assertOriginAllowed(channels: Channel[], origin: string | undefined, ownOrigin: string): void {
  if (!origin || origin === ownOrigin) return;
  const website = channels.find((ch) => ch.type === 'website');
  if (!website || website.type !== 'website' || website.allowed_origins.length === 0) return;
  if (website.allowed_origins.includes(origin)) return;
  throw new ServiceError('origin_not_allowed', `Origin ${origin} is not allowed for this bot's website channel.`, {
    param: 'Origin',
  });
}

export interface BotMessageOutcome {
  reply: BotReply;
  /** True when an earlier request with the same Idempotency-Key stored this turn. */
  replayed: boolean;
}

export async function sendBotMessage(
  deps: BotMessageDeps,
  accountId: string,
  botId: string,
  request: BotMessageRequest,
  origins: { origin?: string; ownOrigin: string },
  idempotency?: IdempotencyTag,
): Promise<BotMessageOutcome> {
  const started = performance.now();
  const bot = await deps.bots.getRow(accountId, botId);
  const channels = (bot.channels ?? []) as Channel[];
  assertOriginAllowed(channels, origins.origin, origins.ownOrigin);
  // After the origin check (a replay must not bypass it), before the bot answers again.
  const stored = idempotency && (await deps.conversations.findKeyedTurn(accountId, idempotency));
  if (stored) return { reply: toBotReply(stored), replayed: true };

  const training = (bot.training ?? { intents: [] }) as TrainingData;
  let answer: IntentAnswer = { matched: false, intent: null, confidence: 0, entities: [], text: null, suggestions: [] };
  // Only a ready bot has a model matching its training; any other state answers with the fallback.
  if (bot.status === 'ready' && bot.nlu_model) {
    const cacheKey = `${bot.id}:${bot.trained_at ? iso(bot.trained_at) : ''}`;
    answer = await answerWithIntent(deps.nlu, { model: bot.nlu_model, training, language: bot.language, cacheKey }, request.message);
  }
  const fallback = !answer.matched;
  const text = answer.text ?? fallbackResponse(training, bot.language, request.message);
  const suggestions = fallback ? (bot.quick_replies ?? []) : answer.suggestions;

  const conversation = await deps.conversations.openForBotUser(accountId, bot.id, request.user_id);
  let userMessage, assistantMessage;
  try {
    [userMessage, assistantMessage] = await deps.conversations.append(accountId, conversation.id, [
      { role: 'user', content: request.message, idempotency },
      {
        role: 'assistant',
        content: text,
        source: fallback ? 'fallback' : 'intent',
        intent: answer.intent,
        confidence: answer.confidence,
        citations: [],
        suggestions,
        entities: answer.entities,
        latencyMs: performance.now() - started,
      },
    ]);
  } catch (error) {
    // Another request with this key stored its turn first: answer with that one.
    if (!idempotency || !isKeyedTurnConflict(error)) throw error;
    const winner = await deps.conversations.findKeyedTurn(accountId, idempotency);
    if (!winner) throw error;
    return { reply: toBotReply(winner), replayed: true };
  }
  const reply: BotReply = {
    conversation_id: conversation.id,
    user_message: userMessage!,
    message: assistantMessage!,
    intent: answer.intent,
    confidence: answer.confidence,
    entities: answer.entities,
    suggestions,
    fallback,
  };
  return { reply, replayed: false };
}

/** The answer as the first request gave it, rebuilt from the stored turn. */
function toBotReply(stored: KeyedTurn): BotReply {
  const { user, reply } = stored;
  return {
    conversation_id: reply.conversation_id,
    user_message: user,
    message: reply,
    intent: reply.intent ?? null,
    confidence: reply.confidence ?? 0,
    entities: stored.entities,
    suggestions: reply.suggestions ?? [],
    fallback: reply.source === 'fallback',
  };
}
