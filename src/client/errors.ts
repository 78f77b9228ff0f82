/**
 * The client's error hierarchy. Every failure the client reports is one of these classes:
 *
 * ```text
 * AiChatError
 * ├── ApiError          the service (or something in front of it) answered with an error
 * │   └── RateLimitError   …with 429
 * ├── NetworkError      no answer: DNS, refused connection, reset, CORS
 * ├── TimeoutError      no answer within `timeoutMs`
 * └── AbortError        the caller aborted through its `signal`
 * ```
 *
 * Messages name the method and URL path (never the query, a key or a token) so a log line stands
 * on its own. Use the `is…` guards rather than `instanceof` when errors may cross realms (iframes,
 * two copies of the bundle): they also accept an object carrying the right `name`.
 */
import type { ApiErrorBody, ErrorCode, RateLimitInfo, ValidationIssue } from './types.js';

/** Where a failed request was going; part of every error the client throws for a request. */
export interface RequestTarget {
  method: string;
  /** URL path only, e.g. `/v1/bots/bot_123`; never the query string. */
  path: string;
}

/** `code` of an {@link ApiError}: a service error code, or `invalid_response` when the answer was not an envelope. */
export type ApiErrorCode = ErrorCode | 'invalid_response';

/** HTTP statuses worth retrying: the request most likely did not take effect, or will succeed later. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 502, 503, 504]);

/** Base class of every error the client throws. */
export class AiChatError extends Error {
  override name = 'AiChatError';
  /** HTTP method of the failed request, when the error belongs to one. */
  readonly method: string | undefined;
  /** URL path of the failed request, when the error belongs to one. */
  readonly path: string | undefined;

  constructor(message: string, options: { target?: RequestTarget; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.method = options.target?.method;
    this.path = options.target?.path;
  }
}

export interface ApiErrorInit {
  status: number;
  code: ApiErrorCode;
  /** The service's own message (or a description of the invalid answer). */
  message: string;
  param?: string;
  details?: ValidationIssue[];
  requestId?: string | null;
  rateLimit?: RateLimitInfo | null;
  /** Wait the server asked for (`Retry-After`, or the rate-limit reset for 429), in ms. */
  retryAfterMs?: number | null;
  target?: RequestTarget;
  cause?: unknown;
}

/** The service answered with an error envelope, or with something that is not an envelope at all. */
export class ApiError extends AiChatError {
  override name = 'ApiError';
  /** HTTP status of the answer. */
  readonly status: number;
  /** Stable machine-readable code; `invalid_response` when the body was not a valid envelope. */
  readonly code: ApiErrorCode;
  /** The service's message without the method/path decoration of `message`; safe to show a developer. */
  readonly serverMessage: string;
  /** The offending parameter, when the service named one. */
  readonly param: string | undefined;
  /** Per-field problems of a `validation_failed` error. */
  readonly details: ValidationIssue[] | undefined;
  /** `error.request_id` or the `X-Request-Id` header; quote it in bug reports. */
  readonly requestId: string | undefined;
  /** `X-RateLimit-*` of the failed answer, when present. */
  readonly rateLimit: RateLimitInfo | null;
  /** Wait the server asked for before trying again, in ms (null: none given). */
  readonly retryAfterMs: number | null;
  /** True for statuses that may succeed when tried again later (408, 429, 502, 503, 504). */
  readonly retryable: boolean;

  constructor(init: ApiErrorInit) {
    const where = init.target ? ` (${init.target.method} ${init.target.path})` : '';
    super(`${init.status} ${init.code}: ${init.message}${where}`, { target: init.target, cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.serverMessage = init.message;
    this.param = init.param;
    this.details = init.details;
    this.requestId = init.requestId ?? undefined;
    this.rateLimit = init.rateLimit ?? null;
    this.retryAfterMs = init.retryAfterMs ?? null;
    this.retryable = RETRYABLE_STATUSES.has(init.status);
  }
}

/** 429: the account's rate limit is exhausted. `retryAfterMs`/`resetAt` say when to try again. */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
  /** How long to wait before the next request, in ms (0 when the server gave no hint). */
  override readonly retryAfterMs: number;
  /** When the rate-limit window resets. */
  readonly resetAt: Date;

  constructor(init: ApiErrorInit) {
    super(init);
    const now = Date.now();
    const resetMs = init.rateLimit ? init.rateLimit.reset * 1000 : null;
    this.retryAfterMs = init.retryAfterMs ?? (resetMs === null ? 0 : Math.max(0, resetMs - now));
    this.resetAt = new Date(resetMs ?? now + this.retryAfterMs);
  }
}

/** The request got no HTTP answer (connection refused or reset, DNS, CORS, offline). `cause` holds the original error. */
export class NetworkError extends AiChatError {
  override name = 'NetworkError';

  constructor(target: RequestTarget, cause: unknown, detail = 'network error') {
    super(`${detail} (${target.method} ${target.path})`, { target, cause });
  }
}

/** No answer within the per-attempt `timeoutMs` (for a stream: no data for `timeoutMs`). */
export class TimeoutError extends AiChatError {
  override name = 'TimeoutError';
  readonly timeoutMs: number;

  constructor(target: RequestTarget, timeoutMs: number) {
    super(`request timed out after ${timeoutMs} ms (${target.method} ${target.path})`, { target });
    this.timeoutMs = timeoutMs;
  }
}

/** The caller aborted the request through its `signal`. `cause` holds the signal's reason. */
export class AbortError extends AiChatError {
  override name = 'AbortError';

  constructor(target: RequestTarget | undefined, reason?: unknown) {
    super(`request aborted${target ? ` (${target.method} ${target.path})` : ''}`, { target, cause: reason });
  }
}

function hasName(value: unknown, names: readonly string[]): boolean {
  return typeof value === 'object' && value !== null && names.includes((value as { name?: unknown }).name as string);
}

/** Any error thrown by the client. */
export function isAiChatError(value: unknown): value is AiChatError {
  return (
    value instanceof AiChatError ||
    hasName(value, ['AiChatError', 'ApiError', 'RateLimitError', 'NetworkError', 'TimeoutError', 'AbortError'])
  );
}
/** An error answer from the service (including 429). */
export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError || hasName(value, ['ApiError', 'RateLimitError']);
}
export function isRateLimitError(value: unknown): value is RateLimitError {
  return value instanceof RateLimitError || hasName(value, ['RateLimitError']);
}
export function isNetworkError(value: unknown): value is NetworkError {
  return value instanceof NetworkError || hasName(value, ['NetworkError']);
}
// DOMException also uses the names 'TimeoutError' and 'AbortError'; ours carry `method` as well.
export function isTimeoutError(value: unknown): value is TimeoutError {
  return value instanceof TimeoutError || (hasName(value, ['TimeoutError']) && 'timeoutMs' in (value as object));
}
/** A caller-initiated abort (not a timeout). */
export function isAbortError(value: unknown): value is AbortError {
  return value instanceof AbortError || (hasName(value, ['AbortError']) && 'method' in (value as object));
}

/** Builds the error for an error envelope (or a non-envelope answer): 429 becomes a {@link RateLimitError}. */
export function createApiError(init: ApiErrorInit): ApiError {
  return init.status === 429 ? new RateLimitError(init) : new ApiError(init);
}

/** Builds the error for an `error` envelope body (as found in a response or an SSE `error` frame). */
export function apiErrorFromBody(
  body: ApiErrorBody,
  init: Omit<ApiErrorInit, 'code' | 'message' | 'param' | 'details'>,
): ApiError {
  return createApiError({
    ...init,
    code: body.code,
    message: body.message,
    param: body.param,
    details: body.details,
    requestId: body.request_id ?? init.requestId,
  });
}
