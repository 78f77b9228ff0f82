/**
 * One JSON request to a platform's API, answered as a `SendResult`-shaped outcome: 2xx is the
 * platform's JSON; 429 and 5xx are retryable (with the wait the platform asked for, from
 * `Retry-After` or what the adapter reads from the body); other 4xx are not. A request that got no
 * answer is retryable only when it never left (the connection was refused or the name did not
 * resolve); one that may have reached the platform (timed out, reset, aborted) is `uncertain`: no
 * platform here takes an idempotency key, so sending it again could show the reply twice.
 * Error texts never carry the URL: Telegram puts the bot token in its paths.
 */
import { readLimited } from '../../../src/proxy/json-body.ts';

export interface PlatformAnswer {
  status: number;
  body: unknown;
  /** Seconds from `Retry-After`, when it is a number. */
  retryAfterSeconds?: number;
}

export type PlatformOutcome = { ok: true; answer: PlatformAnswer } | { ok: false; answer?: PlatformAnswer; retryable: boolean; uncertain?: true; error: string };

/** Failures before the request was written: sending again cannot double it. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Bytes of a platform's answer read at most (they are small JSON objects). */
const MAX_ANSWER_BYTES = 64 * 1024;

export async function postJson(url: string, body: unknown, options: { headers?: Record<string, string>; signal: AbortSignal; timeoutMs: number }): Promise<PlatformOutcome> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...options.headers },
      body: JSON.stringify(body),
      signal: AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]),
      redirect: 'error',
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const why = cause ?? (options.signal.aborted ? 'stopped' : (error as Error).name === 'TimeoutError' ? 'timeout' : 'no answer');
    if (cause && NOT_SENT.has(cause)) return { ok: false, retryable: true, error: `the platform could not be reached (${why})` };
    return { ok: false, retryable: false, uncertain: true, error: `no answer from the platform (${why}): the reply may or may not have arrived` };
  }
  const text = await readText(res);
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  const retryAfter = Number(res.headers.get('retry-after'));
  const answer: PlatformAnswer = { status: res.status, body: parsed, ...(Number.isFinite(retryAfter) && retryAfter >= 0 && res.headers.has('retry-after') && { retryAfterSeconds: retryAfter }) };
  if (res.ok) return { ok: true, answer };
  return { ok: false, answer, retryable: res.status === 429 || res.status >= 500, error: `the platform answered ${res.status}` };
}

async function readText(res: Response): Promise<string> {
  const bytes = res.body ? await readLimited(res.body, MAX_ANSWER_BYTES) : null;
  return bytes ? Buffer.from(bytes).toString('utf8') : '';
}
