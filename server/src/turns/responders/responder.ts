/**
 * The responder turns a chat turn into a reply. Two implementations share one retrieval step:
 * `builtin` (deterministic: intent answer → knowledge extract with citations → honest fallback)
 * and `llm` (the configured OpenAI-compatible model, grounded with the same passages).
 * Both stream: `delta` events whose texts concatenate to the reply, then one `done`.
 */
import type { Attachment, ChatMessage, KnowledgeScope, TrainingData } from '../../../../src/client/types.ts';
import type { NewAssistantMessage } from '../../conversations/message-writer.ts';
import type { LlmProvider } from '../../llm/index.ts';
import type { TrainedModel } from '../../nlu/index.ts';

/** The reply a responder produces: the assistant message it stores, before it is timed. */
export type ResponderReply = Omit<NewAssistantMessage, 'role' | 'latencyMs'>;

export type ResponderEvent = { type: 'delta'; text: string } | { type: 'done'; reply: ResponderReply };

/** Everything a responder may use for one turn, resolved (and authorised) by the chat service. */
export interface ResponderInput {
  accountId: string;
  /** The conversation as the caller sent it; the last one is the user's new message. */
  messages: ChatMessage[];
  question: string;
  language: string;
  /** The bot's or agent's trained intents, when there is a model. */
  intents: TrainedModel | null;
  /** Where fallback responses come from (the bot's or agent's training settings). */
  training: Pick<TrainingData, 'fallback'> | null;
  quickReplies: string[];
  /**
   * The entries this turn may quote: the agent's or the bot's scope, else the caller's (every entry
   * for a key holder, none for a widget visitor). Null: none; `{tags: []}`: all.
   */
  knowledge: KnowledgeScope | null;
  /** Agent instructions, for the LLM's system prompt. */
  instructions?: string;
  /** Set when the LLM answers this turn (`images`: the model takes the question's images). */
  llm?: { provider: LlmProvider; model?: string; temperature?: number; maxTokens?: number; images?: boolean } | null;
  /** Files sent with the question (attachments/); the question may then be empty. */
  attachments?: Attachment[];
}

export interface Responder {
  respond(input: ResponderInput, signal: AbortSignal): AsyncIterable<ResponderEvent>;
}
