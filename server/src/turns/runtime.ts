/**
 * What a bot or an agent brings to a turn (read by the turn pipeline for both endpoints). A bot:
 * its trained model version and NLU cache key, fallback settings, quick replies and knowledge
 * scope, and its website channel's origin rule. An agent: its language, instructions, knowledge
 * scope, trained intents, and the model that answers as it.
 */
import type { Channel, FallbackSettings } from '../../../src/client/types.ts';
import type { AgentRuntime } from '../agents/service.ts';
import { knowledgeScopeOf, modelKeyOf, type BotRow, type BotTurnRow } from '../bots/service.ts';
import { ServiceError } from '../http/errors.ts';
import type { LlmProvider } from '../llm/index.ts';
import type { ModelVersion } from '../nlu/index.ts';
import type { ResponderInput } from './responders/responder.ts';

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
 * `read(cacheKey)` reads that version (model and training), which the NLU does only when its cache
 * lacks it. Every change of a bot's training retrains it (a new `trained_at`, so a new key), or
 * leaves it not ready: a turn never answers with an older version's responses.
 */
export function botRuntime(
  bot: BotTurnRow,
  read: (cacheKey: string) => Promise<ModelVersion>,
): Pick<ResponderInput, 'language' | 'training' | 'quickReplies' | 'knowledge' | 'intents'> {
  const cacheKey = modelKeyOf(bot);
  const fallback = bot.training_fallback as FallbackSettings | null;
  return {
    language: bot.language,
    training: fallback ? { fallback } : null,
    quickReplies: bot.quick_replies ?? [],
    knowledge: knowledgeScopeOf(bot),
    intents: bot.status === 'ready' ? { read: () => read(cacheKey), language: bot.language, cacheKey } : null,
  };
}

/**
 * The agent's part of a responder's input. An agent on the `openai-compatible` provider answers
 * through the configured LLM with its own model settings (503 when none is configured); any other
 * agent answers with the built-in responder.
 */
export function agentRuntime(
  agent: AgentRuntime,
  llm: LlmProvider | null,
): Pick<ResponderInput, 'language' | 'training' | 'knowledge' | 'instructions' | 'intents' | 'llm'> {
  const usesLlm = agent.model.provider === 'openai-compatible';
  if (usesLlm && !llm) {
    throw new ServiceError('service_unavailable', 'This agent uses the openai-compatible provider, but no LLM is configured.', { param: 'agent_id' });
  }
  return {
    language: agent.language,
    training: agent.fallback ? { fallback: agent.fallback } : null,
    knowledge: agent.knowledge,
    instructions: agent.instructions,
    intents: agent.intents,
    llm: usesLlm ? { provider: llm!, model: agent.model.name, temperature: agent.model.temperature, maxTokens: agent.model.max_tokens } : null,
  };
}
