/** Turns an HTTP answer (status, headers, body text) into an {@link ApiResult} or an {@link ApiError}. */
import { apiErrorFromBody, createApiError, type ApiError, type RequestTarget } from './errors.js';
import type { ApiResult } from './options.js';
import type { ErrorEnvelope, Meta, RateLimitInfo, SuccessEnvelope } from './types.js';

/** Parses `X-RateLimit-Limit/Remaining/Reset`; null unless all three are numbers. */
export function parseRateLimit(headers: Headers): RateLimitInfo | null {
  const limit = Number(headers.get('x-ratelimit-limit') ?? NaN);
  const remaining = Number(headers.get('x-ratelimit-remaining') ?? NaN);
  const reset = Number(headers.get('x-ratelimit-reset') ?? NaN);
  if (![limit, remaining, reset].every(Number.isFinite)) return null;
  return { limit, remaining, reset };
}

/**
 * The wait the server asked for, in ms: `Retry-After` (delta seconds or an HTTP date), else for
 * 429 the time until `X-RateLimit-Reset`. Null when neither says anything usable.
 */
export function parseRetryAfter(status: number, headers: Headers, now = Date.now()): number | null {
  const value = headers.get('retry-after')?.trim();
  if (value) {
    if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
    const date = Date.parse(value);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  if (status === 429) {
    const rateLimit = parseRateLimit(headers);
    if (rateLimit) return Math.max(0, rateLimit.reset * 1000 - now);
  }
  return null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  return (
    isRecord(value) &&
    value.success === false &&
    isRecord(value.error) &&
    typeof value.error.code === 'string' &&
    typeof value.error.message === 'string'
  );
}

export function isSuccessEnvelope(value: unknown): value is SuccessEnvelope<unknown> {
  return isRecord(value) && value.success === true && 'data' in value && value.data !== undefined;
}

/** `meta` of a success envelope; rebuilt from the headers if the server left it out. */
function metaOf(body: SuccessEnvelope<unknown>, headers: Headers): Meta {
  if (isRecord(body.meta) && typeof body.meta.request_id === 'string') return body.meta;
  return { request_id: headers.get('x-request-id') ?? '', latency_ms: 0 };
}

function contentTypeOf(headers: Headers): string {
  return (headers.get('content-type') ?? 'no content type').split(';')[0]!.trim();
}

/** Common fields of every error built from an answer. */
function errorContext(response: Response, target: RequestTarget) {
  return {
    status: response.status,
    requestId: response.headers.get('x-request-id'),
    rateLimit: parseRateLimit(response.headers),
    retryAfterMs: parseRetryAfter(response.status, response.headers),
    target,
  };
}

/** An error from an `error` envelope (in a body or an SSE `error` frame); the status defaults to the response's. */
export function errorFromEnvelope(
  envelope: ErrorEnvelope,
  response: Response,
  target: RequestTarget,
  status = response.status,
): ApiError {
  return apiErrorFromBody(envelope.error, { ...errorContext(response, target), status });
}

/** An `invalid_response` error: the answer was not the envelope the contract promises. */
export function invalidResponse(response: Response, target: RequestTarget, what: string, cause?: unknown): ApiError {
  return createApiError({ ...errorContext(response, target), code: 'invalid_response', message: what, cause });
}

/**
 * Interprets a complete JSON answer. Success envelope with a 2xx status: the result. Error
 * envelope: its {@link ApiError}. Anything else (an HTML error page from a proxy, malformed JSON,
 * an envelope without `data`): an `invalid_response` ApiError carrying the HTTP status.
 */
export function interpretBody<T>(response: Response, text: string, target: RequestTarget): ApiResult<T> {
  let body: unknown;
  let parseError: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    parseError = error;
  }
  if (isErrorEnvelope(body)) throw errorFromEnvelope(body, response, target);
  if (response.ok && isSuccessEnvelope(body)) {
    return {
      data: body.data as T,
      meta: metaOf(body, response.headers),
      rateLimit: parseRateLimit(response.headers),
      status: response.status,
    };
  }
  let what: string;
  if (parseError !== undefined) {
    what = text.trim() === ''
      ? `empty body with HTTP ${response.status}`
      : `expected a JSON envelope, got unparseable ${contentTypeOf(response.headers)} with HTTP ${response.status}`;
  } else if (!response.ok) {
    what = `HTTP ${response.status} without an error envelope`;
  } else {
    what = `HTTP ${response.status} without a success envelope carrying data`;
  }
  throw invalidResponse(response, target, what, parseError);
}
