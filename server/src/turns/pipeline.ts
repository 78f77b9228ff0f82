/**
 * The one turn pipeline: every chat turn — `POST /v1/chat` and `POST /v1/bots/{bot_id}/messages`
 * alike — is answered and stored here, so one bot answers the same on both endpoints (intents →
 * knowledge within its scope → fallback, or the LLM when one is configured).
 *
 * `prepare` resolves and authorises everything (bot and its website origins, agent, conversation,
 * model, provider) so every client error is raised before a stream starts; `run` produces the reply
 * through a responder and stores the user message and the reply in the conversation.
 *
 * With an Idempotency-Key the stored user message carries the key: a retry whose turn is already
 * stored (e.g. the process died before the key's answer was recorded) is answered from the stored
 * turn without running the responder or writing anything, and of two racing requests with one key
 * only one stores a turn — the other answers with it.
 */
import type { Attachment, KnowledgeScope } from '../../../src/client/types.ts';
import type { AgentService } from '../agents/service.ts';
import type { AttachmentService } from '../attachments/service.ts';
import { attachmentSettingsOf } from '../attachments/settings.ts';
import type { BotService, BotTurnRow } from '../bots/service.ts';
import { isKeyedTurnConflict, type ConversationRow, type ConversationService, type KeyedTurn } from '../conversations/service.ts';
import type { HandoffTurns } from '../handoff/turns.ts';
import { notFound, ServiceError } from '../http/errors.ts';
import type { IdempotencyTag } from '../http/idempotency.ts';
import type { LlmProvider } from '../llm/index.ts';
import { newId } from '../ids.ts';
import { BuiltinResponder, type BuiltinDeps } from './responders/builtin.ts';
import { LlmResponder } from './responders/llm-responder.ts';
import type { ResponderInput, ResponderReply } from './responders/responder.ts';
import { agentRuntime, assertOriginAllowed, botRuntime } from './runtime.ts';
import { checkTurnRequest, type PreparedTurn, type StoredTurn, type TurnContext, type TurnEvent, type TurnRequest } from './turn.ts';

/** What a turn uses: the stores it reads and writes, and what its responders need (`BuiltinDeps`). */
export interface TurnDeps extends BuiltinDeps {
  conversations: Pick<ConversationService, 'find' | 'openForBotUser' | 'append' | 'findKeyedTurn' | 'recordVisitor'>;
  bots: Pick<BotService, 'getRow' | 'modelVersion'>;
  agents: Pick<AgentService, 'runtime'>;
  llm: LlmProvider | null;
  /** Human handoff: a person's conversation is not answered by the bot (handoff/turns.ts). */
  handoffTurns?: HandoffTurns;
  /** Files sent with a message (attachments/); without it a message naming files is refused. */
  attachments?: Pick<AttachmentService, 'forMessage' | 'bytesOf'>;
  /** The configured model takes images (`AI_CHAT_LLM_IMAGES`): a question's images go to it. */
  llmImages?: boolean;
}

/** The reply of a stopped turn: the text sent before the stop; nothing else of it is known. */
function stoppedReply(content: string, source: ResponderReply['source']): ResponderReply {
  return { content, source, intent: null, confidence: null, citations: [], suggestions: [], stopped: true };
}

/** The whole knowledge base, as an agent's empty scope means. */
const EVERY_ENTRY: KnowledgeScope = { tags: [] };

export class TurnPipeline {
  private readonly builtin: BuiltinResponder;
  private readonly llmResponder: LlmResponder;
  /** Turns between their first step and their stored outcome, and who waits for none to be left. */
  private running = 0;
  private readonly idleWaiters: (() => void)[] = [];

  constructor(private readonly deps: TurnDeps) {
    this.builtin = new BuiltinResponder(deps);
    this.llmResponder = new LlmResponder(deps);
  }

  async prepare(accountId: string, request: TurnRequest, context: TurnContext = {}): Promise<PreparedTurn> {
    const startedAt = performance.now();
    const { idempotency } = context;
    checkTurnRequest(request);
    const question = request.messages.at(-1)!.content;
    // The turn's bot row, read once. A named bot's website rule comes first: a replay must not bypass it.
    let bot = request.bot_id ? await this.deps.bots.getRow(accountId, request.bot_id) : undefined;
    if (bot) assertOriginAllowed(bot, context.origin, context.ownOrigin);
    // Before anything that could answer differently now (a retrained bot, a changed agent).
    const stored = idempotency && (await this.deps.conversations.findKeyedTurn(accountId, idempotency));
    if (stored) return { conversationId: stored.reply.conversation_id, replay: await this.replayOf(accountId, stored) };
    let conversation = await this.conversationOf(accountId, request, context);
    const handoff = this.deps.handoffTurns;
    if (handoff && conversation?.status === 'closed') {
      if (!request.openConversation) throw handoff.refuseClosed();
      conversation = undefined; // the bot endpoint's open conversation ended: this message starts a new one
    }
    // A continued conversation keeps its bot or agent unless the request names one.
    const named = request.bot_id || request.agent_id;
    const botId = request.bot_id ?? (named ? null : (conversation?.bot_id ?? null));
    const agentId = request.agent_id ?? (named ? null : (conversation?.agent_id ?? null));
    const readBot = async () => (bot ??= await this.deps.bots.getRow(accountId, botId!));
    const attachments = await this.attachmentsOf(accountId, request, conversation, botId ? readBot : undefined);
    if (handoff?.holds(conversation)) return { conversationId: conversation!.id, held: { accountId, question, idempotency, attachments, visitor: request.visitor } };
    const input: ResponderInput = {
      accountId,
      messages: request.messages,
      question,
      language: 'en',
      intents: null,
      training: null,
      quickReplies: [],
      // Without a bot or agent, the caller's reach (see TurnCaller); theirs replaces it below.
      knowledge: context.caller === 'widget' ? null : EVERY_ENTRY,
      llm: this.deps.llm && { provider: this.deps.llm },
      attachments,
    };
    if (botId) {
      const row = await readBot();
      if (!request.bot_id) assertOriginAllowed(row, context.origin, context.ownOrigin);
      Object.assign(input, botRuntime(row, (cacheKey) => this.deps.bots.modelVersion(accountId, row.id, cacheKey)));
    }
    if (agentId) Object.assign(input, agentRuntime(await this.deps.agents.runtime(accountId, agentId), this.deps.llm));
    if (input.llm) input.llm.images = this.deps.llmImages ?? false;

    return {
      conversationId: conversation?.id ?? newId('conv'),
      conversationExists: conversation !== undefined,
      owner: { botId, agentId, userId: request.user_id ?? conversation?.user_id ?? null, test: context.test ?? false },
      input,
      responder: input.llm ? this.llmResponder : this.builtin,
      startedAt,
      idempotency,
      visitor: request.visitor,
    };
  }

  /**
   * Streams the reply; the final `done` comes after the turn is stored. When `signal` aborts (the
   * client closed the stream: the user pressed Stop), the responder is abandoned (the LLM request
   * aborts with it) and the turn is stored with the text sent so far, marked `stopped`, so history
   * shows what the user saw.
   */
  async *run(turn: PreparedTurn, signal: AbortSignal): AsyncIterable<TurnEvent> {
    this.running++;
    try {
      yield* this.answer(turn, signal);
    } finally {
      if (--this.running === 0) for (const idle of this.idleWaiters.splice(0)) idle();
    }
  }

  /**
   * Resolves once no turn is running: each has stored its reply, a stopped one included. A client
   * that hung up hears nothing more of its turn; this is what a test of Stop waits on.
   */
  idle(): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async *answer(turn: PreparedTurn, signal: AbortSignal): AsyncIterable<TurnEvent> {
    if (turn.replay) {
      yield { type: 'done', turn: turn.replay };
      return;
    }
    if (turn.held) {
      const { accountId, question, idempotency, attachments, visitor } = turn.held;
      const held = this.deps.handoffTurns!.hold(accountId, turn.conversationId, question, { idempotency, attachments });
      const stored = await held.then(({ message, handoff }) => ({ user: message, reply: message, entities: [], replayed: false, handoff }), (error) => this.winnerOf(accountId, idempotency, error));
      if (visitor && !stored.replayed) await this.deps.conversations.recordVisitor(accountId, turn.conversationId, visitor);
      yield { type: 'done', turn: stored };
      return;
    }
    let sent = '';
    let reply: ResponderReply | undefined;
    try {
      for await (const event of turn.responder.respond(turn.input, signal)) {
        if (signal.aborted) break;
        if (event.type === 'done') {
          reply = event.reply;
          break;
        }
        yield event;
        sent += event.text;
      }
    } catch (error) {
      if (!signal.aborted) throw error;
    }
    if (!reply && signal.aborted) reply = stoppedReply(sent, turn.input.llm ? 'llm' : 'fallback');
    if (!reply) throw new Error('The responder ended without a reply.');
    const { accountId } = turn.input;
    try {
      const [user, message] = await this.deps.conversations.append(
        accountId,
        turn.conversationId,
        [
          { role: 'user', content: turn.input.question, idempotency: turn.idempotency, attachments: turn.input.attachments },
          { role: 'assistant', ...reply, latencyMs: performance.now() - turn.startedAt },
        ],
        { create: turn.conversationExists ? undefined : { id: turn.conversationId, ...turn.owner } },
      );
      if (turn.visitor) await this.deps.conversations.recordVisitor(accountId, turn.conversationId, turn.visitor);
      const handoff = await this.deps.handoffTurns?.afterReply(accountId, turn.conversationId, turn.owner.botId, reply);
      yield { type: 'done', turn: { user: user!, reply: message!, entities: reply.entities ?? [], replayed: false, ...(handoff && { handoff }) } };
    } catch (error) {
      yield { type: 'done', turn: await this.winnerOf(accountId, turn.idempotency, error) };
    }
  }

  /** Another request with this Idempotency-Key stored its turn first (`error` says so): that turn; else `error`. */
  private async winnerOf(accountId: string, idempotency: IdempotencyTag | undefined, error: unknown): Promise<StoredTurn> {
    if (!idempotency || !isKeyedTurnConflict(error)) throw error;
    const winner = await this.deps.conversations.findKeyedTurn(accountId, idempotency);
    if (!winner) throw error;
    return this.replayOf(accountId, winner);
  }

  /** A stored turn answered again; a held one with the conversation's handoff as it is now. */
  private async replayOf(accountId: string, stored: KeyedTurn): Promise<StoredTurn> {
    const handoff = stored.held ? await this.deps.handoffTurns?.heldAgain(accountId, stored.user.conversation_id) : undefined;
    return { ...stored, replayed: true, ...(handoff && { handoff }) };
  }

  /**
   * The files the message sends, checked: the sender's own uploads for the conversation's bot
   * (`readBot`; an agent's or a bot-less conversation takes none), within the bot's `max_files`.
   */
  private async attachmentsOf(
    accountId: string,
    request: TurnRequest,
    conversation: ConversationRow | undefined,
    readBot?: () => Promise<BotTurnRow>,
  ): Promise<Attachment[]> {
    if (!request.attachments?.length) return [];
    if (!this.deps.attachments) throw new ServiceError('permission_denied', 'This service takes no attachments.', { param: 'attachments' });
    const bot = await readBot?.();
    return this.deps.attachments.forMessage(accountId, request.attachments, {
      botId: bot?.id ?? null,
      userId: request.user_id ?? conversation?.user_id ?? null,
      conversationId: conversation?.id,
      settings: bot && attachmentSettingsOf(bot.attachments),
    });
  }

  /**
   * The conversation the turn continues, or undefined for a new one. A conversation belongs to the
   * user it was started for: another user_id (e.g. another visitor behind the token proxy, which
   * forces user_id) must not be able to continue or read into it, so it answers as if it did not
   * exist and ids of other users' conversations cannot be probed.
   */
  private async conversationOf(accountId: string, request: TurnRequest, context: TurnContext): Promise<ConversationRow | undefined> {
    if (request.openConversation && request.bot_id && request.user_id) {
      return this.deps.conversations.openForBotUser(accountId, request.bot_id, request.user_id, { test: context.test });
    }
    if (!request.conversation_id) return undefined;
    const conversation = await this.deps.conversations.find(accountId, request.conversation_id);
    if (!conversation) throw notFound('conversation_id', 'conversation');
    if (request.user_id && conversation.user_id !== request.user_id) throw notFound('conversation_id', 'conversation');
    return conversation;
  }
}
