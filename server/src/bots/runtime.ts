/**
 * What a bot brings to a turn (read by the turn pipeline for both endpoints): its trained model and
 * NLU cache key, training, quick replies and knowledge scope, and its website channel's origin rule.
 */
import type { Channel, TrainingData } from '../../../src/client/types.ts';
import type { ResponderInput } from '../chat/responder.ts';
import { iso } from '../db/json.ts';
import { ServiceError } from '../http/errors.ts';
import { knowledgeScopeOf, type BotRow } from './service.ts';

/**
 * A browser on another origin may only talk to a bot whose website channel lists that origin
 * (an empty list, or no website channel, allows any). Server-to-server calls send no Origin.
 */
export function assertOriginAllowed(bot: Pick<BotRow, 'channels'>, origin: string | undefined, ownOrigin: string | undefined): void {
  if (!origin || origin === ownOrigin) return;
  const website = ((bot.channels ?? []) as Channel[]).find((ch) => ch.type === 'website');
  if (!website || website.type !== 'website' || website.allowed_origins.length === 0) return;
  if (website.allowed_origins.includes(origin)) return;
  throw new ServiceError('origin_not_allowed', `Origin ${origin} is not allowed for this bot's website channel.`, {
    param: 'Origin',
  });
}

/**
 * The bot's part of a responder's input. Only a ready bot has a model matching its training;
 * `model` reads it, which the NLU does only when its cache lacks this version.
 */
export function botRuntime(bot: BotRow, model: () => Promise<unknown>): Pick<ResponderInput, 'language' | 'training' | 'quickReplies' | 'knowledge' | 'intents'> {
  const training = (bot.training ?? { intents: [] }) as TrainingData;
  const ready = bot.status === 'ready';
  return {
    language: bot.language,
    training,
    quickReplies: bot.quick_replies ?? [],
    knowledge: knowledgeScopeOf(bot),
    // The cache key names the model version: a retrained bot never reads an older model's parses.
    intents: ready ? { model, training, language: bot.language, cacheKey: `${bot.id}:${iso(bot.trained_at ?? bot.updated_at)}` } : null,
  };
}
