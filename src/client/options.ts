/** Options and result shapes of the client's public surface. */
import type { Meta, RateLimitInfo } from './types.js';

/** Why the client asks `getToken` for a token. */
export interface GetTokenContext {
  /** `initial`: no token is held yet. `unauthorized`: the held token was answered with 401. */
  reason: 'initial' | 'unauthorized';
}

export interface ClientOptions {
  /**
   * Base URL including the version segment, e.g. `'https://api.example.com/v1'`. A relative URL
   * resolves against the page. Required in Node.
   * @default `${location.origin}/v1` in browsers
   */
  baseUrl?: string;
  /** A secret API key, sent as `Authorization: Bearer <apiKey>`. Server-side use only. */
  apiKey?: string;
  /** A widget token (from a token proxy), also sent as Bearer. Takes precedence over `apiKey`. */
  token?: string;
  /**
   * Async token source (proxy mode). Called when there is no token yet, and once more after a
   * 401 (reason `'unauthorized'`); the failed request is then replayed once. Concurrent callers
   * share one pending call.
   */
  getToken?: (ctx: GetTokenContext) => Promise<string>;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Per attempt; for a stream, the longest silence between two chunks. @default 30000 */
  timeoutMs?: number;
  /** Retries after the first attempt (see the retry policy in `http.ts`). @default 2 */
  maxRetries?: number;
  /**
   * Longest `Retry-After` / rate-limit wait the client will sleep through itself; longer waits
   * throw at once (a `RateLimitError` for 429). @default 10000
   */
  maxRetryDelayMs?: number;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
}

/** Per-call options; the numeric ones override the client's. */
export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
  maxRetryDelayMs?: number;
  /**
   * Makes a POST safe to retry; the server returns the first answer for a repeated key.
   * Sent as the `Idempotency-Key` header.
   */
  idempotencyKey?: string;
  headers?: Record<string, string>;
  /**
   * Internal: the `fetch` for this call, given the client's own and whether it was the caller's
   * (`ClientOptions.fetch`). Uploads use it for progress (resources/attachments.ts).
   * @internal
   */
  transport?: (own: typeof fetch, custom: boolean) => typeof fetch;
}

/** A successful answer: the envelope's `data` and `meta`, plus what the headers said. */
export interface ApiResult<T> {
  data: T;
  meta: Meta;
  /** `X-RateLimit-*` of this answer, when present. */
  rateLimit: RateLimitInfo | null;
  /** HTTP status (200, 201 or 202). */
  status: number;
}
