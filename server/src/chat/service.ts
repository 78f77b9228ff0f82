/**
 * One chat turn: `prepare` resolves and authorises everything (conversation, bot or agent, model,
 * provider) so every client error is raised before a stream starts; `run` produces the reply
 * through a responder and stores the user message and the reply in the conversation.
 *
 * With an Idempotency-Key the stored user message carries the key: a retry whose turn is already
 * stored (e.g. the process died before the key's answer was recorded) is answered from the stored
 * reply without running the responder or writing anything, and of two racing requests with one key
 * only one stores a turn — the other answers with it.
 */
import type { Kysely } from 'kysely';
import type { ChatReply, ChatRequest, KnowledgeScope, TrainingData } from '../../../src/client/types.ts';
import type { AgentService } from '../agents/service.ts';
import { knowledgeScopeOf, type BotService } from '../bots/service.ts';
import { iso } from '../db/json.ts';
import type { Database } from '../db/schema.ts';
import { notFound, ServiceError } from '../http/errors.ts';
import type { IdempotencyTag } from '../http/idempotency.ts';
import type { LlmProvider } from '../llm/index.ts';
import { newId } from '../ids.ts';
import type { NluEngine } from '../nlu/index.ts';
import { BuiltinResponder } from './builtin.ts';
import { LlmResponder } from './llm-responder.ts';
import type { Responder, ResponderInput } from './responder.ts';
import type { KnowledgeSearch } from './retrieval.ts';
import { isKeyedTurnConflict, type ConversationStore, type KeyedTurn } from './store.ts';

export interface ChatDeps {
  db: Kysely<Database>;
  nlu: NluEngine;
  conversations: ConversationStore;
  bots: BotService;
  agents: AgentService;
  knowledge?: KnowledgeSearch;
  llm: LlmProvider | null;
}

export interface FreshTurn {
  conversationId: string;
  /** False: the conversation is created when the reply is stored. */
  conversationExists: boolean;
  owner: { botId: string | null; agentId: string | null; userId: string | null };
  input: ResponderInput;
  responder: Responder;
  startedAt: number;
  idempotency?: IdempotencyTag;
  replay?: undefined;
}

/** A request whose Idempotency-Key already stored this turn: `run` answers it as stored. */
export interface ReplayedTurn {
  conversationId: string;
  replay: ChatReply;
}

export type PreparedTurn = FreshTurn | ReplayedTurn;

export type ChatEvent = { type: 'delta'; text: string } | { type: 'done'; data: ChatReply };

/**
 * Who is asking: the key holder (`key`), or a widget visitor whose request the token proxy forwarded
 * with the key (`widget`, from the `AI-Chat-Caller` header). It only matters without a bot or agent:
 * a key holder may read every entry anyway, a visitor gets no knowledge there.
 */
export type ChatCaller = 'key' | 'widget';

/** The whole knowledge base, as an agent's empty scope means. */
const EVERY_ENTRY: KnowledgeScope = { tags: [] };

export class ChatService {
  private readonly builtin: BuiltinResponder;
  private readonly llmResponder: LlmResponder;

  constructor(private readonly deps: ChatDeps) {
    this.builtin = new BuiltinResponder(deps);
    this.llmResponder = new LlmResponder(deps);
  }

  /** `idempotency`: the request's key, stored on the user message (see the file comment). */
  async prepare(accountId: string, request: ChatRequest, idempotency?: IdempotencyTag, caller: ChatCaller = 'key'): Promise<PreparedTurn> {
    const startedAt = performance.now();
    const last = request.messages.at(-1)!;
    if (last.role !== 'user') {
      const index = request.messages.length - 1;
      throw new ServiceError('validation_failed', 'The last message must have role "user".', {
        param: `messages.${index}.role`,
        details: [{ path: `/messages/${index}/role`, message: 'must be "user" on the last message' }],
      });
    }
    if (request.bot_id && request.agent_id) {
      throw new ServiceError('validation_failed', 'Send bot_id or agent_id, not both.', { param: 'agent_id' });
    }
    // Before anything that could answer differently now (a retrained bot, a changed agent).
    const stored = idempotency && (await this.deps.conversations.findKeyedTurn(accountId, idempotency));
    if (stored) return { conversationId: stored.reply.conversation_id, replay: toChatReply(stored) };
    const conversation = request.conversation_id
      ? await this.deps.conversations.get(accountId, request.conversation_id)
      : undefined;
    if (request.conversation_id && !conversation) throw notFound('conversation_id', 'conversation');
    // A conversation belongs to the user it was started for: another user_id (e.g. another visitor
    // behind the token proxy, which forces user_id) must not be able to continue or read into it.
    // Answer as if it did not exist, so ids of other users' conversations cannot be probed.
    if (conversation && request.user_id && conversation.user_id !== request.user_id) {
      throw notFound('conversation_id', 'conversation');
    }

    // A continued conversation keeps its bot or agent unless the request names one.
    const named = request.bot_id || request.agent_id;
    const botId = request.bot_id ?? (named ? null : (conversation?.bot_id ?? null));
    const agentId = request.agent_id ?? (named ? null : (conversation?.agent_id ?? null));
    const input: ResponderInput = {
      accountId,
      messages: request.messages,
      question: last.content,
      language: 'en',
      intents: null,
      training: null,
      quickReplies: [],
      // Without a bot or agent, the caller's reach (see ChatCaller); theirs replaces it below.
      knowledge: caller === 'widget' ? null : EVERY_ENTRY,
      llm: null,
    };
    let useLlm = this.deps.llm !== null;

    if (botId) {
      const bot = await this.deps.bots.getRow(accountId, botId);
      const training = (bot.training ?? { intents: [] }) as TrainingData;
      input.language = bot.language;
      input.training = training;
      input.quickReplies = bot.quick_replies ?? [];
      input.knowledge = knowledgeScopeOf(bot);
      if (bot.status === 'ready' && bot.nlu_model) {
        input.intents = { model: bot.nlu_model, training, language: bot.language, cacheKey: `${bot.id}:${iso(bot.trained_at ?? bot.updated_at)}` };
      }
    }
    if (agentId) {
      const { agent, nluModel, modelKey, modelTraining } = await this.deps.agents.runtime(accountId, agentId);
      input.language = agent.language;
      input.training = agent.training;
      input.knowledge = agent.knowledge;
      input.instructions = agent.instructions;
      // Answer from the training data the model was built from, not the agent's current examples:
      // edited examples must not shift intent names until the agent is trained again.
      if (nluModel && modelKey && modelTraining) {
        input.intents = { model: nluModel, training: modelTraining, language: agent.language, cacheKey: modelKey };
      }
      useLlm = agent.model.provider === 'openai-compatible';
      if (useLlm && !this.deps.llm) {
        throw new ServiceError('service_unavailable', 'This agent uses the openai-compatible provider, but no LLM is configured.', {
          param: 'agent_id',
        });
      }
      if (useLlm) {
        input.llm = { provider: this.deps.llm!, model: agent.model.name, temperature: agent.model.temperature, maxTokens: agent.model.max_tokens };
      }
    } else if (useLlm) {
      input.llm = { provider: this.deps.llm! };
    }

    return {
      conversationId: conversation?.id ?? newId('conv'),
      conversationExists: conversation !== undefined,
      owner: { botId, agentId, userId: request.user_id ?? conversation?.user_id ?? null },
      input,
      responder: input.llm ? this.llmResponder : this.builtin,
      startedAt,
      idempotency,
    };
  }

  /** Streams the reply; the final `done` comes after the exchange is stored. */
  async *run(turn: PreparedTurn, signal: AbortSignal): AsyncIterable<ChatEvent> {
    if (turn.replay) {
      yield { type: 'done', data: turn.replay };
      return;
    }
    for await (const event of turn.responder.respond(turn.input, signal)) {
      if (event.type === 'delta') {
        yield event;
        continue;
      }
      const { reply } = event;
      const { accountId } = turn.input;
      let message;
      try {
        [, message] = await this.deps.conversations.append(
          accountId,
          turn.conversationId,
          [
            { role: 'user', content: turn.input.question, idempotency: turn.idempotency },
            { role: 'assistant', ...reply, latencyMs: performance.now() - turn.startedAt },
          ],
          { create: turn.conversationExists ? undefined : { id: turn.conversationId, ...turn.owner } },
        );
      } catch (error) {
        // Another request with this key stored its turn first: answer with that one.
        if (!turn.idempotency || !isKeyedTurnConflict(error)) throw error;
        const stored = await this.deps.conversations.findKeyedTurn(accountId, turn.idempotency);
        if (!stored) throw error;
        yield { type: 'done', data: toChatReply(stored) };
        return;
      }
      yield {
        type: 'done',
        data: {
          conversation_id: turn.conversationId,
          message: message!,
          source: reply.source,
          intent: reply.intent,
          confidence: reply.confidence,
          citations: reply.citations,
          suggestions: reply.suggestions,
        },
      };
      return;
    }
    throw new Error('The responder ended without a reply.');
  }
}

/** The reply as the first request answered it, rebuilt from the stored assistant message. */
function toChatReply(stored: KeyedTurn): ChatReply {
  const { reply } = stored;
  return {
    conversation_id: reply.conversation_id,
    message: reply,
    source: reply.source ?? 'fallback',
    intent: reply.intent ?? null,
    confidence: reply.confidence ?? null,
    citations: reply.citations ?? [],
    suggestions: reply.suggestions ?? [],
  };
}
