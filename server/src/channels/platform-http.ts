/**
 * One request to a platform's API (JSON, a form, a multipart upload), answered as a `SendResult`-shaped outcome: 2xx is the
 * platform's JSON; 429 and 5xx are retryable (with the wait the platform asked for, from
 * `Retry-After` or what the adapter reads from the body); other 4xx are not. A request that got no
 * answer is retryable only when it never left (the connection was refused or the name did not
 * resolve); one that may have reached the platform (timed out, reset, aborted) is `uncertain`: no
 * platform here takes an idempotency key, so sending it again could show the reply twice.
 * Error texts never carry the URL: Telegram puts the bot token in its paths. `download` reads a
 * file a person sent, never more than the bytes it may take.
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

export interface PlatformRequest {
  headers?: Record<string, string>;
  signal: AbortSignal;
  timeoutMs: number;
}

export async function postJson(url: string, body: unknown, options: PlatformRequest): Promise<PlatformOutcome> {
  return send(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...options.headers } }, options);
}

/** A form (`URLSearchParams`, or `FormData` for a multipart upload: fetch writes its boundary). */
export async function postForm(url: string, body: URLSearchParams | FormData, options: PlatformRequest): Promise<PlatformOutcome> {
  return send(url, { method: 'POST', body, headers: { ...options.headers } }, options);
}

export async function getJson(url: string, options: PlatformRequest): Promise<PlatformOutcome> {
  return send(url, { method: 'GET', headers: { ...options.headers } }, options);
}

/** The request's answer as JSON, or why there is none. */
async function send(url: string, init: RequestInit, options: PlatformRequest): Promise<PlatformOutcome> {
  const res = await fetchPlatform(url, init, options);
  if (!('status' in res)) {
    if (res.neverLeft) return { ok: false, retryable: true, error: `the platform could not be reached (${res.why})` };
    return { ok: false, retryable: false, uncertain: true, error: `no answer from the platform (${res.why}): the reply may or may not have arrived` };
  }
  const text = await readText(res);
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  const answer: PlatformAnswer = { status: res.status, body: parsed, ...retryAfterOf(res) };
  if (res.ok) return { ok: true, answer };
  return { ok: false, answer, retryable: res.status === 429 || res.status >= 500, error: `the platform answered ${res.status}` };
}

/** The answer, or why there is none and whether the request surely never left. */
async function fetchPlatform(url: string, init: RequestInit, options: PlatformRequest): Promise<Response | { neverLeft: boolean; why: string }> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]), redirect: 'error' });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const why = cause ?? (options.signal.aborted ? 'stopped' : (error as Error).name === 'TimeoutError' ? 'timeout' : 'no answer');
    return { neverLeft: cause !== undefined && NOT_SENT.has(cause), why };
  }
}

function retryAfterOf(res: Response): { retryAfterSeconds?: number } {
  const retryAfter = Number(res.headers.get('retry-after'));
  return Number.isFinite(retryAfter) && retryAfter >= 0 && res.headers.has('retry-after') ? { retryAfterSeconds: retryAfter } : {};
}

/** A stored file's bytes as a part of a multipart upload (they are the database's own buffer, never shared memory). */
export function blobOf(file: { data: Uint8Array; contentType: string }): Blob {
  return new Blob([file.data as Uint8Array<ArrayBuffer>], { type: file.contentType });
}

/**
 * Whether a file URL a platform named may be sent its credentials: HTTPS, or on the API's own
 * origin (a fake platform on loopback in tests), so a token never goes out in clear text.
 */
export function mayFetch(url: string, apiUrl: string, hosts: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return parsed.origin === new URL(apiUrl).origin || (parsed.protocol === 'https:' && hosts.some((host) => parsed.hostname === host || parsed.hostname.endsWith(`.${host}`)));
}

export type Download = { ok: true; bytes: Uint8Array } | { ok: false; retryable: boolean; tooLarge?: true; error: string };

export function fileTooLarge(maxBytes: number): Download {
  return { ok: false, retryable: false, tooLarge: true, error: `The file is larger than ${maxBytes} bytes.` };
}

/**
 * A failed step that shows the person nothing (a lookup, an upload before the message): trying it
 * again cannot show anything twice, so a request without an answer is retryable, not uncertain.
 */
export function harmless<T extends { retryable: boolean; uncertain?: true; error: string }>(failure: T): Omit<T, 'uncertain'> {
  const { uncertain, ...rest } = failure;
  return { ...rest, retryable: rest.retryable || uncertain === true };
}

/**
 * A file the platform holds, read to at most `maxBytes`: refused by its `Content-Length` before a
 * byte is read, and cut off (the rest never read) when it sends more. A GET changes nothing, so
 * any failure without an answer may be tried again.
 */
export async function download(url: string, maxBytes: number, options: PlatformRequest): Promise<Download> {
  const res = await fetchPlatform(url, { method: 'GET', headers: { ...options.headers } }, options);
  if (!('status' in res)) return { ok: false, retryable: true, error: `no answer from the platform (${res.why})` };
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    return { ok: false, retryable: res.status === 429 || res.status >= 500, error: `the platform answered ${res.status}` };
  }
  const tooLarge = fileTooLarge(maxBytes);
  if (Number(res.headers.get('content-length')) > maxBytes) {
    await res.body?.cancel().catch(() => {});
    return tooLarge;
  }
  try {
    const bytes = res.body ? await readLimited(res.body, maxBytes) : new Uint8Array();
    return bytes ? { ok: true, bytes } : tooLarge;
  } catch {
    return { ok: false, retryable: true, error: 'the download was cut off' };
  }
}

async function readText(res: Response): Promise<string> {
  const bytes = res.body ? await readLimited(res.body, MAX_ANSWER_BYTES) : null;
  return bytes ? Buffer.from(bytes).toString('utf8') : '';
}
