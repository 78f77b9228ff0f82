/**
 * The request core: URL building, credentials, per-attempt timeout, retries, 401 token refresh.
 *
 * Retry policy (conservative, as in ky and openai-node):
 * - Retried: network errors, timeouts, and 408/429/502/503/504 answers, up to `maxRetries` times.
 * - Only idempotent requests: GET, PUT and DELETE always, POST only with an `idempotencyKey`. (A
 *   DELETE retried after its first answer was lost can answer 404: the object is gone either way.)
 * - Wait: `Retry-After` (seconds or HTTP date), else for 429 the `X-RateLimit-Reset` time, else
 *   0.5 s · 2^n with up to 25 % jitter, capped at 8 s. A server-requested wait longer than
 *   `maxRetryDelayMs` is not slept through: the error (a `RateLimitError` for 429) is thrown at once.
 * - Never retried: a user abort, an unknown exception (a bug is not cured by repetition), and a
 *   stream once its body has started.
 * - 401 with `getToken`: one fresh token, one replay (not counted as a retry); a second 401 throws.
 */
import {
  AbortError,
  NetworkError,
  TimeoutError,
  isAiChatError,
  isApiError,
  isNetworkError,
  isTimeoutError,
  type RequestTarget,
} from './errors.js';
import { interpretBody, parseRateLimit } from './envelope.js';
import type { ApiResult, ClientOptions, RequestOptions } from './options.js';
import type { RateLimitInfo } from './types.js';

export type QueryValue = string | number | boolean | readonly string[] | null | undefined;

/** One API call, relative to the base URL. */
export interface RequestSpec {
  /** PATCH: the dashboard's own endpoints only (src/dashboard/api.ts); /v1 has none. */
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below the base URL, starting with `/`; ids already encoded. */
  path: string;
  query?: Record<string, QueryValue>;
  /** JSON, or a file (a `Blob` or bytes: sent as it is, `application/octet-stream`). */
  body?: unknown;
}

/** A body sent as it is rather than as JSON: a file. */
const isFile = (body: unknown): body is Blob | ArrayBufferView | ArrayBuffer =>
  body instanceof Blob || body instanceof ArrayBuffer || ArrayBuffer.isView(body);

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_MAX_RETRY_DELAY_MS = 10_000;
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 8_000;

/** Encodes one path segment (an id); an empty id is a programming error, not a request. */
export function segment(id: string, name: string): string {
  if (typeof id !== 'string' || id === '') throw new TypeError(`${name} must be a non-empty string`);
  return encodeURIComponent(id);
}

/** `?a=1&tags=x,y`: undefined/null values and empty arrays are left out, arrays are comma-joined. */
export function buildQuery(query: Record<string, QueryValue> | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) params.append(key, value.join(','));
    } else {
      params.append(key, String(value));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function backoffMs(retry: number): number {
  const base = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** retry);
  return Math.round(base * (1 - Math.random() * 0.25));
}

function sleep(ms: number, signal: AbortSignal | undefined, target: RequestTarget): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError(target, signal.reason));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError(target, signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * One attempt's abort wiring: the caller's signal plus a timer. The timer can be restarted (a
 * stream's idle timeout) and the attempt tells a timeout from a user abort afterwards.
 */
export class Attempt {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timedOut = false;
  private readonly onUserAbort = () => this.controller.abort();

  constructor(
    private readonly userSignal: AbortSignal | undefined,
    readonly timeoutMs: number,
    readonly target: RequestTarget,
  ) {
    if (userSignal?.aborted) this.controller.abort();
    else userSignal?.addEventListener('abort', this.onUserAbort, { once: true });
    this.restartTimer();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  restartTimer(): void {
    clearTimeout(this.timer);
    if (this.timeoutMs > 0 && Number.isFinite(this.timeoutMs)) {
      this.timer = setTimeout(() => {
        this.timedOut = true;
        this.controller.abort();
      }, this.timeoutMs);
    }
  }

  /** Throws {@link AbortError} once the caller has aborted (checked between stream events). */
  throwIfAborted(): void {
    if (this.userSignal?.aborted) throw new AbortError(this.target, this.userSignal.reason);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.userSignal?.removeEventListener('abort', this.onUserAbort);
  }

  /** Maps whatever fetch or a body read threw to the client's errors; unknown exceptions pass through. */
  toError(error: unknown): unknown {
    if (this.userSignal?.aborted) return new AbortError(this.target, this.userSignal.reason);
    if (this.timedOut) return new TimeoutError(this.target, this.timeoutMs);
    if (isAiChatError(error)) return error;
    // fetch reports every transport failure (refused, reset, DNS, CORS) as a TypeError.
    if (error instanceof TypeError) {
      return new NetworkError(this.target, error, `network error: ${error.message || 'no answer'}`);
    }
    return error;
  }
}

interface Limits {
  timeoutMs: number;
  maxRetries: number;
  maxRetryDelayMs: number;
}

/** Low-level HTTP for {@link AiChatClient}; resources call `request` and `open`. */
export class HttpCore {
  readonly baseUrl: string;
  /** The base URL's path (`/v1`), read without `URL#pathname`, which React Native's `URL` lacks. */
  private readonly basePath: string;
  /** Last `X-RateLimit-*` seen on any answer. */
  rateLimit: RateLimitInfo | null = null;
  private token: string | undefined;
  private pendingToken: Promise<string> | undefined;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: ClientOptions = {}) {
    this.baseUrl = resolveBaseUrl(options.baseUrl);
    this.basePath = this.baseUrl.replace(/^[^:/?#]+:\/\/[^/?#]*/, '');
    this.token = options.token;
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  setToken(token: string | undefined): void {
    this.token = token;
  }

  /** A JSON call: resolves with the success envelope's data, rejects with the client's errors. */
  request<T>(spec: RequestSpec, options: RequestOptions = {}): Promise<ApiResult<T>> {
    return this.run(spec, options, 'application/json', async (response, attempt) => {
      const text = await response.text();
      attempt.dispose();
      return interpretBody<T>(response, text, attempt.target);
    });
  }

  /**
   * Sends the request (`accept` is the Accept header) and hands the response to `read` while the
   * attempt is still live. `read` owns the attempt from then on: it must dispose it (at once, or
   * when a stream ends). Errors it throws go through the retry policy, so it must not hand out any
   * data before it returns; a stream's later errors are the stream reader's own.
   */
  open<R>(
    spec: RequestSpec,
    options: RequestOptions,
    accept: string,
    read: (response: Response, attempt: Attempt) => Promise<R>,
  ): Promise<R> {
    return this.run(spec, options, accept, read);
  }

  private limits(options: RequestOptions): Limits {
    return {
      timeoutMs: options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxRetries: Math.max(0, options.maxRetries ?? this.options.maxRetries ?? DEFAULT_MAX_RETRIES),
      maxRetryDelayMs: options.maxRetryDelayMs ?? this.options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS,
    };
  }

  private async run<R>(
    spec: RequestSpec,
    options: RequestOptions,
    accept: string,
    read: (response: Response, attempt: Attempt) => Promise<R>,
  ): Promise<R> {
    const url = `${this.baseUrl}${spec.path}${buildQuery(spec.query)}`;
    const target: RequestTarget = { method: spec.method, path: this.basePath + spec.path };
    const limits = this.limits(options);
    const idempotent = (spec.method !== 'POST' && spec.method !== 'PATCH') || Boolean(options.idempotencyKey);
    let retries = 0;
    let replayedAfter401 = false;
    for (;;) {
      const credential = await this.credential();
      const attempt = new Attempt(options.signal, limits.timeoutMs, target);
      let error: unknown;
      try {
        const fetchImpl = options.transport?.(this.fetchImpl, Boolean(this.options.fetch)) ?? this.fetchImpl;
        const response = await fetchImpl(url, {
          method: spec.method,
          headers: this.headers(spec, options, accept, credential),
          body: spec.body === undefined ? undefined : isFile(spec.body) ? (spec.body as BodyInit) : JSON.stringify(spec.body),
          signal: attempt.signal,
        });
        const rateLimit = parseRateLimit(response.headers);
        if (rateLimit) this.rateLimit = rateLimit;
        return await read(response, attempt);
      } catch (caught) {
        attempt.dispose();
        error = attempt.toError(caught);
      }
      if (isApiError(error) && error.status === 401 && this.options.getToken && !replayedAfter401) {
        replayedAfter401 = true;
        await this.refreshToken(credential);
        continue;
      }
      const delay = this.retryDelay(error, idempotent, retries, limits);
      if (delay === null) throw error;
      retries += 1;
      await sleep(delay, options.signal, target);
    }
  }

  /** How long to wait before retrying `error`, or null to throw it. */
  private retryDelay(error: unknown, idempotent: boolean, retries: number, limits: Limits): number | null {
    if (!idempotent || retries >= limits.maxRetries) return null;
    if (isNetworkError(error) || isTimeoutError(error)) return backoffMs(retries);
    if (isApiError(error) && error.retryable) {
      const asked = error.retryAfterMs;
      if (asked === null || asked === 0) return backoffMs(retries);
      return asked > limits.maxRetryDelayMs ? null : asked;
    }
    return null;
  }

  private headers(spec: RequestSpec, options: RequestOptions, accept: string, credential: string | undefined): Headers {
    const headers = new Headers({ Accept: accept });
    if (spec.body !== undefined) headers.set('Content-Type', isFile(spec.body) ? 'application/octet-stream' : 'application/json');
    for (const [name, value] of Object.entries(this.options.headers ?? {})) headers.set(name, value);
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
    if (options.idempotencyKey) headers.set('Idempotency-Key', options.idempotencyKey);
    if (credential) headers.set('Authorization', `Bearer ${credential}`);
    return headers;
  }

  /** The credential for the next attempt; asks `getToken` lazily when none is held. */
  private async credential(): Promise<string | undefined> {
    const held = this.token ?? this.options.apiKey;
    if (held !== undefined || !this.options.getToken) return held;
    return this.fetchToken('initial');
  }

  /** After a 401: a new token, unless another request already replaced the one that failed. */
  private async refreshToken(failed: string | undefined): Promise<void> {
    if (this.token !== undefined && this.token !== failed) return;
    await this.fetchToken('unauthorized');
  }

  private fetchToken(reason: 'initial' | 'unauthorized'): Promise<string> {
    const getToken = this.options.getToken!;
    this.pendingToken ??= getToken({ reason })
      .then((token) => {
        this.token = token;
        return token;
      })
      .finally(() => {
        this.pendingToken = undefined;
      });
    return this.pendingToken;
  }
}

function resolveBaseUrl(baseUrl: string | undefined): string {
  const location = (globalThis as { location?: { href: string; origin: string } }).location;
  let resolved: string;
  if (baseUrl === undefined) {
    if (!location) throw new TypeError('AiChatClient: `baseUrl` is required outside a browser');
    resolved = `${location.origin}/v1`;
  } else {
    resolved = new URL(baseUrl, location?.href).href;
  }
  return resolved.replace(/\/+$/, '');
}
