/**
 * An OpenAI-compatible embeddings client (OpenAI, Ollama, llama.cpp, vLLM…): `POST {base}/embeddings`
 * with `{model, input: [...]}`, answered `{data: [{embedding, index}], model, usage}`.
 *
 * Bounds: at most `MAX_BATCH` inputs and `MAX_BATCH_BYTES` of text per request (longer lists are
 * sent in several), each input cut to `MAX_INPUT_CHARS`; a response larger than its inputs can
 * need, or of vectors longer than `MAX_DIMENSIONS`, is refused. Each request has a deadline, and
 * a call may have one over all its retries. 429 and 5xx (and no answer at all) are retried at
 * most `maxRetries` times, after `Retry-After` when the server sends one, else with exponential
 * backoff; a wait that would pass the deadline is not started.
 *
 * Every failure is an `EmbeddingsError` (`embeddings_unavailable`, 503) whose message never
 * echoes the upstream body, URL or key; the caller's own abort passes through as its reason.
 */
import { readLimited } from '../../../src/proxy/json-body.ts';
import { ServiceError } from '../http/errors.ts';
import type { EmbeddingsOptions } from './options.ts';

export const MAX_BATCH = 96;
export const MAX_BATCH_BYTES = 256 * 1024;
/** About 2,000 tokens: under every common model's context (8,191 for OpenAI's). */
export const MAX_INPUT_CHARS = 8_000;
/** OpenAI's largest model has 3,072 dimensions. */
export const MAX_DIMENSIONS = 4_096;
/** Bytes one number may take in a JSON response (`-0.012345678901234567,`), with room to spare. */
const BYTES_PER_NUMBER = 32;
const RESPONSE_OVERHEAD = 64 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_RETRIES = 2;
const BACKOFF_MS = 500;
/** A `Retry-After` longer than this is not waited for: the request fails instead. */
const MAX_RETRY_AFTER_MS = 20_000;

export type EmbeddingsFailure = 'timeout' | 'rate_limited' | 'http' | 'network' | 'malformed';

export class EmbeddingsError extends ServiceError {
  override name = 'EmbeddingsError';
  constructor(
    readonly reason: EmbeddingsFailure,
    message: string,
    /** Whether trying the same inputs again may succeed (false for a 4xx other than 408/429, or a malformed answer). */
    readonly retriable: boolean,
    /** The server's `Retry-After`, in milliseconds. */
    readonly retryAfterMs?: number,
  ) {
    super('embeddings_unavailable', message);
  }
}

export interface EmbedOptions {
  signal?: AbortSignal;
  /** Milliseconds for the whole call, retries and waits included. */
  deadlineMs?: number;
  /** Overrides the configured `maxRetries`. */
  retries?: number;
}

export interface EmbeddingsClientDeps {
  fetch?: typeof fetch;
  /** Waits before a retry; tests pass one that records the delay and returns at once. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

interface EmbeddingsResponse {
  data?: { embedding?: unknown; index?: unknown }[];
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

/** `Retry-After` in milliseconds (seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d{1,7}$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Splits inputs into requests of at most `MAX_BATCH` items and `MAX_BATCH_BYTES` of text. */
export function batchesOf(inputs: readonly string[]): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const input of inputs) {
    const size = Buffer.byteLength(input);
    if (current.length > 0 && (current.length === MAX_BATCH || bytes + size > MAX_BATCH_BYTES)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(input);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

function failure(reason: EmbeddingsFailure, message: string, retriable = true): EmbeddingsError {
  return new EmbeddingsError(reason, message, retriable);
}

function timedOut(): EmbeddingsError {
  return failure('timeout', 'The embeddings endpoint did not answer in time.');
}

export class EmbeddingsClient {
  private readonly url: string;
  private readonly fetch: typeof fetch;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;

  constructor(
    private readonly options: EmbeddingsOptions,
    deps: EmbeddingsClientDeps = {},
  ) {
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
    this.fetch = deps.fetch ?? fetch;
    this.sleep = deps.sleep ?? sleep;
  }

  get model(): string {
    return this.options.model;
  }

  /** One vector per input, in input order, all of the same length. */
  async embed(inputs: readonly string[], options: EmbedOptions = {}): Promise<number[][]> {
    const deadline = options.deadlineMs !== undefined ? AbortSignal.timeout(options.deadlineMs) : undefined;
    const signal = AbortSignal.any([options.signal, deadline].filter((s): s is AbortSignal => s !== undefined));
    const vectors: number[][] = [];
    for (const batch of batchesOf(inputs.map((input) => (input.length > MAX_INPUT_CHARS ? input.slice(0, MAX_INPUT_CHARS) : input)))) {
      const batchVectors = await this.withRetries(batch, signal, options);
      if (vectors.length > 0 && batchVectors[0]!.length !== vectors[0]!.length) throw failure('malformed', 'The embeddings endpoint answered vectors of different lengths.', false);
      vectors.push(...batchVectors);
    }
    return vectors;
  }

  private async withRetries(batch: string[], signal: AbortSignal, options: EmbedOptions): Promise<number[][]> {
    const retries = options.retries ?? this.options.maxRetries ?? DEFAULT_RETRIES;
    const ends = options.deadlineMs !== undefined ? performance.now() + options.deadlineMs : Infinity;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.request(batch, signal);
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (!(error instanceof EmbeddingsError) || !error.retriable || attempt >= retries || signal.aborted) throw error;
        const wait = error.retryAfterMs ?? BACKOFF_MS * 2 ** attempt;
        if (wait > MAX_RETRY_AFTER_MS || performance.now() + wait >= ends) throw error;
        try {
          await this.sleep(wait, signal);
        } catch {
          if (options.signal?.aborted) throw options.signal.reason;
          throw timedOut();
        }
      }
    }
  }

  /** One request with its own deadline. */
  private async request(batch: string[], outer: AbortSignal): Promise<number[][]> {
    const signal = AbortSignal.any([outer, AbortSignal.timeout(this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS)]);
    let response: Response;
    try {
      response = await this.fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(this.options.apiKey && { authorization: `Bearer ${this.options.apiKey}` }),
        },
        body: JSON.stringify({ model: this.options.model, input: batch }),
        signal,
      });
    } catch {
      if (signal.aborted) throw timedOut();
      throw failure('network', 'The embeddings endpoint could not be reached.');
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      const status = response.status;
      const retriable = status === 408 || status === 429 || status >= 500;
      const message = `The embeddings endpoint answered with HTTP ${status}.`;
      throw new EmbeddingsError(status === 429 ? 'rate_limited' : 'http', message, retriable, retryAfterMs(response.headers.get('retry-after')));
    }
    const limit = RESPONSE_OVERHEAD + batch.length * MAX_DIMENSIONS * BYTES_PER_NUMBER;
    let text: string;
    try {
      text = await readBounded(response, limit);
    } catch (error) {
      if (error instanceof EmbeddingsError) throw error;
      if (signal.aborted) throw timedOut();
      throw failure('network', 'The embeddings endpoint broke off its answer.');
    }
    return vectorsOf(text, batch.length);
  }
}

/** The body as text, refused past `limit` bytes without reading further. */
async function readBounded(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw failure('malformed', 'The embeddings endpoint answered more than its inputs can need.', false);
  }
  if (!response.body) return '';
  const bytes = await readLimited(response.body, limit);
  if (!bytes) throw failure('malformed', 'The embeddings endpoint answered more than its inputs can need.', false);
  return Buffer.from(bytes).toString('utf8');
}

/** The vectors of an OpenAI embeddings response, ordered by `index`, checked item by item. */
function vectorsOf(text: string, count: number): number[][] {
  let body: EmbeddingsResponse;
  try {
    body = JSON.parse(text) as EmbeddingsResponse;
  } catch {
    throw failure('malformed', 'The embeddings endpoint answered something other than JSON.', false);
  }
  const malformed = () => failure('malformed', 'The embeddings endpoint answered an unexpected shape.', false);
  if (!body || !Array.isArray(body.data) || body.data.length !== count) throw malformed();
  const vectors: (number[] | undefined)[] = new Array(count);
  let dimensions = -1;
  for (const item of body.data) {
    const { index, embedding } = item ?? {};
    if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= count || vectors[index as number]) throw malformed();
    if (!Array.isArray(embedding) || embedding.length === 0 || embedding.length > MAX_DIMENSIONS) throw malformed();
    if (dimensions >= 0 && embedding.length !== dimensions) throw malformed();
    if (!embedding.every((x) => typeof x === 'number' && Number.isFinite(x))) throw malformed();
    if (!embedding.some((x) => x !== 0)) throw malformed(); // a zero vector has no direction to compare
    dimensions = embedding.length;
    vectors[index as number] = embedding as number[];
  }
  return vectors as number[][];
}
