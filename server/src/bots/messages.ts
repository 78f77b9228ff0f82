/**
 * `POST /v1/bots/{bot_id}/messages`: the bot's answer to one end-user message, stored in that
 * user's open conversation with the bot (user message + assistant reply, in one transaction).
 */
import type { BotMessageRequest, BotReply, Channel, TrainingData } from '../../../src/client/types.ts';
import type { ConversationStore } from '../chat/store.ts';
import { iso } from '../db/json.ts';
import { ServiceError } from '../http/errors.ts';
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

export async function sendBotMessage(
  deps: BotMessageDeps,
  accountId: string,
  botId: string,
  request: BotMessageRequest,
  origins: { origin?: string; ownOrigin: string },
): Promise<BotReply> {
  const started = performance.now();
  const bot = await deps.bots.getRow(accountId, botId);
  const channels = (bot.channels ?? []) as Channel[];
  assertOriginAllowed(channels, origins.origin, origins.ownOrigin);

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
  const [userMessage, assistantMessage] = await deps.conversations.append(accountId, conversation.id, [
    { role: 'user', content: request.message },
    {
      role: 'assistant',
      content: text,
      source: fallback ? 'fallback' : 'intent',
      intent: answer.intent,
      confidence: answer.confidence,
      citations: [],
      suggestions,
      latencyMs: performance.now() - started,
    },
  ]);
  return {
    conversation_id: conversation.id,
    user_message: userMessage!,
    message: assistantMessage!,
    intent: answer.intent,
    confidence: answer.confidence,
    entities: answer.entities,
    suggestions,
    fallback,
  };
}
