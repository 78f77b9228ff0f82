/** The Graph API's refusals, read the same way by the adapter's sends and its media calls. */
import type { SendResult } from '../adapter.ts';
import { cutChars, obj } from '../payload.ts';
import type { PlatformOutcome } from '../platform-http.ts';

/** Graph API error codes that mean "too many messages, try later" (throughput, pair rate, spam rate). */
const RATE_LIMIT_CODES = new Set([4, 80007, 130429, 131048, 131056]);

/** A Graph API refusal (`{error: {message, code}}`) as a send result: rate limits are retried. */
export function graphFailure(outcome: Extract<PlatformOutcome, { ok: false }>): Extract<SendResult, { ok: false }> {
  const error = obj(obj(outcome.answer?.body)?.error);
  const code = Number(error?.code);
  const retryAfter = outcome.answer?.retryAfterSeconds;
  return {
    ok: false,
    retryable: outcome.retryable || RATE_LIMIT_CODES.has(code),
    ...(outcome.uncertain && { uncertain: true as const }),
    error: typeof error?.message === 'string' ? cutChars(`${error.message}${Number.isFinite(code) ? ` (${code})` : ''}`, 200) : outcome.error,
    ...(retryAfter !== undefined && { retryAfterMs: retryAfter * 1000 }),
  };
}
