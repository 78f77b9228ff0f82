/**
 * The upstream call: the browser's token is swapped for the real API key, only known headers go
 * either way, and the answer's body is handed back: Server-Sent Events as a stream (they arrive as
 * the service writes them), a JSON answer read whole first. Time to the upstream's answer (for
 * JSON, the whole document) is bounded; a running stream is not.
 */
import { ProxyError } from './errors.js';
import type { LimitState } from './limits.js';
import type { ResolvedOptions } from './options.js';

/** What the proxy sends upstream. */
export interface UpstreamCallInit {
  method: string;
  headers: Headers;
  /** JSON text, or a file's bytes (an upload). */
  body: string | Uint8Array<ArrayBuffer> | null;
  signal: AbortSignal;
}

/** An upstream answer: its body whole (a JSON document), as a stream (Server-Sent Events), or none. */
export interface UpstreamAnswer {
  status: number;
  statusText: string;
  headers: Headers;
  body: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | null;
}

/** How the proxy reaches its upstream: `fetch` (any runtime, `viaFetch`) or an adapter's own (`node-transport.ts`). */
export type UpstreamCall = (url: string, init: UpstreamCallInit) => Promise<UpstreamAnswer>;

/** Statuses a `Response` may not carry a body with. */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

const isEventStream = (headers: Headers) => (headers.get('content-type') ?? '').startsWith('text/event-stream');

/**
 * `fetch` as an upstream call. A JSON answer is read whole here: handing its stream on cost two
 * stream layers per chunk, and the Node adapter, unable to tell whether more was coming, could
 * wait a timer tick before answering: ~1–2 ms of the proxy's overhead.
 */
export function viaFetch(fetchImpl: typeof fetch): UpstreamCall {
  return async (url, init) => {
    const res = await fetchImpl(url, { ...init, redirect: 'manual' });
    const meta = { status: res.status, statusText: res.statusText, headers: res.headers };
    if (NULL_BODY_STATUSES.has(res.status)) return { ...meta, body: null };
    if (isEventStream(res.headers) || (res.status >= 300 && res.status < 400) || res.status === 401) return { ...meta, body: res.body };
    return { ...meta, body: new Uint8Array(await res.arrayBuffer()) };
  };
}

/** Request headers the browser may pass on (everything else, cookies included, stays here). */
const REQUEST_HEADERS = ['accept', 'accept-language'];
/** The service's rule for `Idempotency-Key`. */
const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,255}$/;
/** Response headers handed back to the browser. */
const RESPONSE_HEADERS = [
  'content-type',
  // a file's (attachments): how it is shown, and the guards that keep it inert
  'content-disposition',
  'x-content-type-options',
  'content-security-policy',
  'referrer-policy',
  'cache-control',
  'retry-after',
  'x-request-id',
  'idempotent-replayed',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
];

export interface UpstreamRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string | Uint8Array<ArrayBuffer> | null;
  incoming: Request;
  /** The token's subject: idempotency keys are namespaced by it. */
  userId: string;
}

/**
 * All users of a proxy share one API key, hence one upstream idempotency-key space. Hashing the
 * user in keeps one user's keys from ever meeting another's (a replay, or a 409 by collision),
 * while a retry by the same user under a renewed token still hits its own key.
 */
async function namespacedIdempotencyKey(key: string, userId: string): Promise<string> {
  if (!IDEMPOTENCY_KEY.test(key) || !key.trim()) {
    throw new ProxyError('validation_failed', 'Idempotency-Key must be 1–255 printable ASCII characters.', {
      param: 'Idempotency-Key',
    });
  }
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${userId}\n${key}`));
  return `pxy_${Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Calls the upstream and answers its response for the browser. `proxyLimit` (the proxy's own,
 * tighter limit, if any) replaces the upstream's `X-RateLimit-*` when fewer requests remain in it.
 */
export async function forward(
  request: UpstreamRequest,
  options: Pick<ResolvedOptions, 'apiKey' | 'upstream' | 'upstreamTimeoutMs'>,
  proxyLimit: LimitState | null,
  call: UpstreamCall,
): Promise<Response> {
  // The key is the proxy's, the caller a widget visitor: the service then answers chat without a
  // bot or agent from no knowledge, not from every entry the key could read, and counts the call in
  // its visitors' budget (this visitor's share of it), not in the one of the account's API keys.
  const headers = new Headers({
    Authorization: `Bearer ${options.apiKey}`,
    'AI-Chat-Caller': 'widget',
    'AI-Chat-Visitor': request.userId,
  });
  for (const name of REQUEST_HEADERS) {
    const value = request.incoming.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  if (request.body !== null) headers.set('Content-Type', typeof request.body === 'string' ? 'application/json' : 'application/octet-stream');
  const idempotencyKey = request.incoming.headers.get('idempotency-key');
  if (idempotencyKey !== null) {
    headers.set('Idempotency-Key', await namespacedIdempotencyKey(idempotencyKey, request.userId));
  }

  const query = request.query.toString();
  const url = `${options.upstream}${request.path}${query ? `?${query}` : ''}`;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.upstreamTimeoutMs);
  // The browser went away: stop the upstream work (and a stream) too.
  const onClientGone = () => controller.abort();
  const clientSignal = request.incoming.signal as AbortSignal | undefined;
  clientSignal?.addEventListener?.('abort', onClientGone, { once: true });

  let upstream: UpstreamAnswer;
  try {
    upstream = await call(url, { method: request.method, headers, body: request.body, signal: controller.signal });
  } catch {
    clientSignal?.removeEventListener?.('abort', onClientGone);
    throw timedOut
      ? new ProxyError('upstream_timeout', 'The chat service did not answer in time.')
      : new ProxyError('upstream_error', 'The chat service could not be reached.');
  } finally {
    clearTimeout(timer);
  }

  if (upstream.status === 401 || (upstream.status >= 300 && upstream.status < 400)) {
    // The browser's token was fine (we checked it); a 401 here means the proxy's API key was refused.
    // Answering 401 would make the widget renew its token in a loop.
    if (upstream.body instanceof ReadableStream) await upstream.body.cancel().catch(() => {});
    clientSignal?.removeEventListener?.('abort', onClientGone);
    throw new ProxyError('upstream_error', 'The chat service refused the proxy (check its API key and upstream URL).');
  }

  const out = new Headers();
  for (const name of RESPONSE_HEADERS) {
    const value = upstream.headers.get(name);
    if (value !== null) out.set(name, value);
  }
  if (proxyLimit) {
    const upstreamRemaining = Number(out.get('x-ratelimit-remaining') ?? Infinity);
    if (proxyLimit.remaining < upstreamRemaining) {
      out.set('X-RateLimit-Limit', String(proxyLimit.limit));
      out.set('X-RateLimit-Remaining', String(proxyLimit.remaining));
      out.set('X-RateLimit-Reset', String(proxyLimit.reset));
    }
  }
  const release = () => clientSignal?.removeEventListener?.('abort', onClientGone);
  if (upstream.body instanceof ReadableStream) {
    if (isEventStream(out)) {
      // ask buffering reverse proxies (nginx) not to hold the events back
      out.set('X-Accel-Buffering', 'no');
      out.set('Cache-Control', 'no-cache');
    }
    return new Response(releaseWhenDone(upstream.body, release), { status: upstream.status, statusText: upstream.statusText, headers: out });
  }
  release();
  return new Response(upstream.body, { status: upstream.status, statusText: upstream.statusText, headers: out });
}

/** Passes chunks through untouched and runs `done` when the stream ends either way. */
function releaseWhenDone(body: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: finished, value } = await reader.read();
        if (finished) {
          done();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
}
