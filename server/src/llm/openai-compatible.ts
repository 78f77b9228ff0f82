/**
 * An OpenAI-compatible chat-completions client (OpenAI, Ollama, llama.cpp, vLLM…): our own fetch and
 * the typed client's SSE parser (one parser for the project), no SDK. `complete()` streams the assistant text as it arrives.
 *
 * Error mapping (messages never echo the upstream body, URL or key):
 * - no answer / connection refused / HTTP 4xx / 5xx / a JSON error instead of a stream / an `error`
 *   object inside the stream / malformed frames → `upstream_error` (502);
 * - no response, or no event for `timeoutMs` (default 30 s) → `upstream_timeout` (504).
 * The caller's own `signal` aborting is passed through as the abort reason, not mapped.
 */
import { ServiceError } from '../http/errors.ts';
import { parseSse } from '../../../src/client/sse.ts';

/** The provider's settings (`ServiceOptions.llm`, from `AI_CHAT_LLM_*`). */
export interface LlmOptions {
  /** OpenAI-compatible base URL, e.g. `http://127.0.0.1:11434/v1` (Ollama). */
  baseUrl: string;
  apiKey?: string;
  model?: string;
  timeoutMs?: number;
  /** The model takes images (`AI_CHAT_LLM_IMAGES=true`): a message's image attachments are sent to it. */
  images?: boolean;
}

/** A part of a message for a model that takes images (the OpenAI chat format). */
export type LlmContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export interface LlmMessage {
  role: 'system' | 'user' | 'assistant';
  /** Text, or text and images (only for a model configured to take images). */
  content: string | LlmContentPart[];
}

export interface LlmRequest {
  /** System instructions, sent as the first message. */
  system?: string;
  messages: LlmMessage[];
  /** Overrides the configured model. */
  model?: string;
  temperature?: number;
  maxTokens?: number;
  /** Aborts the request (e.g. the client went away). */
  signal?: AbortSignal;
}

export interface LlmProvider {
  /** The model used when a request names none. */
  readonly defaultModel: string | undefined;
  /** The reply as text deltas, in order. Throws `ServiceError` (`upstream_error` | `upstream_timeout`). */
  complete(request: LlmRequest): AsyncIterable<string>;
}

export const DEFAULT_LLM_TIMEOUT_MS = 30_000;

interface ChunkPayload {
  choices?: { delta?: { content?: string | null }; finish_reason?: string | null }[];
  error?: unknown;
}

function upstreamError(message: string, extra: { retryAfter?: string | null } = {}): ServiceError {
  const headers: Record<string, string> = {};
  if (extra.retryAfter && /^\d{1,6}$/.test(extra.retryAfter)) headers['Retry-After'] = extra.retryAfter;
  return new ServiceError('upstream_error', message, { headers });
}

function timeoutError(ms: number): ServiceError {
  return new ServiceError('upstream_timeout', `The language model did not answer within ${Math.round(ms / 1000)} s.`);
}

export class OpenAiCompatibleProvider implements LlmProvider {
  private readonly url: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: LlmOptions) {
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
  }

  get defaultModel(): string | undefined {
    return this.options.model;
  }

  async *complete(request: LlmRequest): AsyncGenerator<string> {
    const timeout = new AbortController();
    // An idle timeout: it restarts with every event, so a long answer that keeps streaming is not cut.
    let timer = setTimeout(() => timeout.abort(), this.timeoutMs);
    const rearm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => timeout.abort(), this.timeoutMs);
    };
    const signal = request.signal ? AbortSignal.any([request.signal, timeout.signal]) : timeout.signal;
    const rethrow = (error: unknown): never => {
      if (request.signal?.aborted) throw request.signal.reason;
      if (timeout.signal.aborted) throw timeoutError(this.timeoutMs);
      if (error instanceof ServiceError) throw error;
      throw upstreamError('The language model could not be reached.');
    };
    try {
      let response: Response;
      try {
        response = await fetch(this.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'text/event-stream',
            ...(this.options.apiKey && { authorization: `Bearer ${this.options.apiKey}` }),
          },
          body: JSON.stringify(this.body(request)),
          signal,
        });
      } catch (error) {
        return rethrow(error);
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        const retryAfter = response.headers.get('retry-after');
        if (response.status === 429) throw upstreamError('The language model is rate limited; retry later.', { retryAfter });
        throw upstreamError(`The language model answered with HTTP ${response.status}.`, { retryAfter });
      }
      const type = response.headers.get('content-type') ?? '';
      if (!type.includes('text/event-stream')) {
        // Some servers answer 200 with a JSON error (or a non-streamed completion) instead of a stream.
        const text = await response.text().catch(() => '');
        const single = tryParse(text) as { choices?: { message?: { content?: string } }[] } | null;
        const content = single?.choices?.[0]?.message?.content;
        if (typeof content === 'string' && !(single as ChunkPayload).error) {
          if (content) yield content;
          return;
        }
        throw upstreamError('The language model answered with an error instead of a stream.');
      }
      if (!response.body) throw upstreamError('The language model sent an empty response.');
      try {
        for await (const event of parseSse(response.body)) {
          rearm();
          if (event.data === '[DONE]') return;
          const payload = tryParse(event.data) as ChunkPayload | null;
          if (!payload || typeof payload !== 'object') throw upstreamError('The language model sent a malformed stream.');
          if (payload.error) throw upstreamError('The language model reported an error while answering.');
          for (const choice of payload.choices ?? []) {
            const text = choice.delta?.content;
            if (typeof text === 'string' && text) yield text;
          }
        }
        // Ending without `[DONE]` is fine (llama.cpp forks do): the text so far is the answer.
      } catch (error) {
        rethrow(error);
      }
    } finally {
      clearTimeout(timer);
    }
  }

  private body(request: LlmRequest): Record<string, unknown> {
    const messages = [...(request.system ? [{ role: 'system', content: request.system }] : []), ...request.messages];
    return {
      model: request.model ?? this.options.model ?? 'default',
      messages,
      stream: true,
      ...(request.temperature !== undefined && { temperature: request.temperature }),
      ...(request.maxTokens !== undefined && { max_tokens: request.maxTokens }),
    };
  }
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
