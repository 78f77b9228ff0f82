/**
 * The LLM responder: an intent the owner wrote an answer for still wins (deterministic, cheap);
 * otherwise the configured OpenAI-compatible model answers, grounded with the retrieved passages
 * in the system prompt and asked to cite them as [n]. Provider failures surface as ServiceErrors
 * (`upstream_error` 502 / `upstream_timeout` 504).
 */
import type { Kysely } from 'kysely';
import type { AttachmentService } from '../../attachments/service.ts';
import type { Database } from '../../db/schema.ts';
import { ServiceError } from '../../http/errors.ts';
import type { LlmMessage } from '../../llm/index.ts';
import { answerWithIntent, type NluEngine } from '../../nlu/index.ts';
import { intentAnswers } from './builtin.ts';
import { wordDeltas } from './extract.ts';
import type { Responder, ResponderEvent, ResponderInput } from './responder.ts';
import { retrieve, toCitation, type KnowledgeSearch, type Passage } from './retrieval.ts';

const PASSAGE_CHARS = 1500;
/** How much of an attached text file the model reads. */
const TEXT_FILE_CHARS = 20_000;

/**
 * The system prompt. `grounded`: the turn has a knowledge base to answer from; when none of its
 * passages passed the relevance gate, the model is told the knowledge has no answer, so it says it
 * does not know instead of answering from its own memory as if the owner had said so.
 */
export function systemPrompt(instructions: string | undefined, passages: Passage[], grounded = false): string {
  const parts = [
    instructions?.trim() || 'You are a helpful, concise assistant.',
    passages.length
      ? 'Answer from the numbered passages below when they are relevant, and cite them as [1], [2]. ' +
        'If they do not contain the answer, say that you do not know rather than guessing.'
      : grounded
        ? 'The knowledge base you answer from has nothing on this question: say that you do not know, ' +
          'and offer to help with something else, rather than guessing or answering from memory.'
        : 'If you do not know the answer, say so rather than guessing.',
  ];
  passages.forEach((p, i) => {
    parts.push(`[${i + 1}] ${p.hit.title}\n${p.content.slice(0, PASSAGE_CHARS)}`);
  });
  return parts.join('\n\n');
}

export class LlmResponder implements Responder {
  constructor(private readonly deps: { db: Kysely<Database>; nlu: NluEngine; knowledge?: KnowledgeSearch; attachments?: Pick<AttachmentService, 'bytesOf'> }) {}

  /**
   * The question with its files: images as data URLs for a model that takes them, plain text
   * inlined (up to `TEXT_FILE_CHARS`), and for anything else a line naming the file, so the model
   * can say it did not read it rather than pretend.
   */
  private async withAttachments(input: ResponderInput): Promise<LlmMessage> {
    const files = input.attachments!;
    const images = input.llm?.images ? files.filter((f) => f.content_type.startsWith('image/')) : [];
    const texts = files.filter((f) => f.content_type === 'text/plain');
    const bytes = (await this.deps.attachments?.bytesOf(input.accountId, [...images, ...texts].map((f) => f.id))) ?? new Map<string, Buffer>();
    const notes = files.map((file) => {
      const data = bytes.get(file.id);
      if (file.content_type === 'text/plain' && data) return `[Attached text file "${file.filename}"]\n${data.toString('utf8').slice(0, TEXT_FILE_CHARS)}`;
      if (images.includes(file) && data) return `[Attached image "${file.filename}", below]`;
      return `[Attached file "${file.filename}" (${file.content_type}): you cannot read it; say so if it matters]`;
    });
    const text = [input.question, ...notes].filter(Boolean).join('\n\n');
    const pictures = images.flatMap((file) => {
      const data = bytes.get(file.id);
      return data ? [{ type: 'image_url' as const, image_url: { url: `data:${file.content_type};base64,${data.toString('base64')}` } }] : [];
    });
    return { role: 'user', content: pictures.length ? [{ type: 'text', text }, ...pictures] : text };
  }

  async *respond(input: ResponderInput, signal: AbortSignal): AsyncIterable<ResponderEvent> {
    const llm = input.llm;
    if (!llm) throw new Error('LlmResponder used without a provider');
    // The same relevance gate as the built-in responder: the model never sees a passage that does not answer.
    const [answer, passages] = await Promise.all([
      input.intents ? answerWithIntent(this.deps.nlu, input.intents, input.question) : null,
      retrieve(this.deps.db, this.deps.knowledge, input.accountId, input.question, { limit: 3, scope: input.knowledge }),
    ]);
    if (intentAnswers(answer, passages)) {
      for (const text of wordDeltas(answer.text)) yield { type: 'delta', text };
      yield {
        type: 'done',
        reply: { content: answer.text, source: 'intent', intent: answer.intent, confidence: answer.confidence, citations: [], suggestions: answer.suggestions, entities: answer.entities },
      };
      return;
    }
    const messages: LlmMessage[] = input.messages.map((m) => ({ role: m.role, content: m.content }));
    if (input.attachments?.length) messages[messages.length - 1] = await this.withAttachments(input);
    let content = '';
    try {
      for await (const text of llm.provider.complete({
        system: systemPrompt(input.instructions, passages, input.knowledge !== null),
        messages,
        model: llm.model,
        temperature: llm.temperature,
        maxTokens: llm.maxTokens,
        signal,
      })) {
        if (!text) continue;
        content += text;
        yield { type: 'delta', text };
      }
    } catch (error) {
      if (error instanceof ServiceError || signal.aborted) throw error;
      throw new ServiceError('upstream_error', 'The language model provider failed.', { cause: error });
    }
    if (content.trim() === '') throw new ServiceError('upstream_error', 'The language model returned an empty answer.');
    yield {
      type: 'done',
      reply: { content, source: 'llm', intent: null, confidence: null, citations: passages.map((p) => toCitation(p.hit)), suggestions: [] },
    };
  }
}
