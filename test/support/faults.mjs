// Deterministic faults in front of the real service, for client and widget tests (test-only, never
// part of the product). Mounted by service-plugin.mjs before the service itself.
//
// A fault URL is `/__test__/fault/<chain>/v1/<real path>?<real query>`. The chain is a list of steps
// read left to right; a step either answers (and ends the chain) or passes on to the next one. When
// the chain is used up, the request is forwarded to the real service as `/v1/<real path>?<query>`,
// body and headers untouched. Keys are free-form strings; use a fresh one per test.
//
//   count/<key>               count this request under <key>, go on.
//                             GET /__test__/count/<key> -> {"count": n} (0 for an unknown key).
//   flaky/<n>/<key>           the first n requests for <key> run the rest of the chain (default:
//                             `status/503`); later ones skip it and reach the real service.
//                             Counts under <key> too. e.g. flaky/2/k1/status/429/1
//   status/<code>[/<secs>]    answer <code> with an error envelope whose code matches the status
//                             (`rate_limited` for 429, `service_unavailable` for 503, ...). With <secs>,
//                             or for 429 (default 1), sends `Retry-After: <secs>`. 429 also sends
//                             X-RateLimit-Limit/Remaining(0)/Reset(now + secs).
//   html                      502 with an nginx-like `text/html` error page.
//   malformed-json            200 `application/json` whose body is cut off mid-object.
//   no-data                   200 `{"success":true}`: an envelope without `data`.
//   slow/<ms>                 wait <ms>, go on (or the client's abort ends it).
//   drop-after/<ms>           go on, and destroy the connection if its answer is still being written
//                             <ms> later: an events stream cut as a mobile network or a proxy cuts it
//                             (answers that end sooner are untouched).
//   hang                      never answer; the connection stays open until the client gives up.
//   reset                     destroy the connection without an answer (fetch fails: a network error).
//                             Chromium may silently resend a request whose reused connection was
//                             reset before any answer, so the service can see it twice; use `cut`
//                             where the number of attempts matters.
//   cut                       200 headers promising a JSON body, a few bytes of it, then destroy the
//                             connection (reading the body fails: a network error the browser never
//                             retries on its own).
//   lost                      forward the request to the real service, wait for its whole answer,
//                             then `cut`: the server did the work, the client never hears of it
//                             (the case an Idempotency-Key exists for).
//   sse-error                 200 `text/event-stream`: meta, one delta, then an `event: error` frame
//                             carrying an `upstream_error` envelope.
//   sse-truncated             200 `text/event-stream`: meta and one delta, then the stream ends
//                             without `done`.
//   sse-stall                 200 `text/event-stream`: meta, then silence until the client gives up.
//   sse-echo                  200 `text/event-stream`: the request's last message comes back as the
//                             reply, in deltas of 1–61 characters (a fixed cycle, so they split
//                             markup anywhere), ten per write with 2 ms between writes, then `done`.
//                             For tests that need a long reply of exactly known text.
//
// Every answer made here carries `Cache-Control: no-store` and an `X-Request-Id` of `req_fault_…`.

const STATUS_CODES = {
  400: 'validation_failed',
  401: 'invalid_api_key',
  403: 'permission_denied',
  404: 'resource_not_found',
  408: 'upstream_timeout',
  409: 'conflict',
  429: 'rate_limited',
  500: 'internal_error',
  502: 'upstream_error',
  503: 'service_unavailable',
  504: 'upstream_timeout',
};

const NGINX_502 = `<html>
<head><title>502 Bad Gateway</title></head>
<body>
<center><h1>502 Bad Gateway</h1></center>
<hr><center>nginx/1.25.3</center>
</body>
</html>
`;

let requestSeq = 0;

function setCommonHeaders(ctx) {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Request-Id', `req_fault_${++requestSeq}`);
}

function answerStatus(ctx, status, retryAfterSeconds) {
  setCommonHeaders(ctx);
  const code = STATUS_CODES[status] ?? (status >= 500 ? 'internal_error' : 'validation_failed');
  const secs = retryAfterSeconds ?? (status === 429 ? 1 : undefined);
  if (secs !== undefined) ctx.set('Retry-After', String(secs));
  if (status === 429) {
    ctx.set('X-RateLimit-Limit', '10');
    ctx.set('X-RateLimit-Remaining', '0');
    ctx.set('X-RateLimit-Reset', String(Math.ceil(Date.now() / 1000 + (secs ?? 1))));
  }
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = JSON.stringify({
    success: false,
    error: { code, message: `fault injected: ${status}`, request_id: ctx.response.get('X-Request-Id') },
  });
}

function answerRaw(ctx, status, contentType, body) {
  setCommonHeaders(ctx);
  ctx.status = status;
  ctx.type = contentType;
  ctx.body = body;
}

/** Writes an SSE answer straight to the socket (Koa would buffer or compress it); `end: false` leaves it open. */
function answerStream(ctx, frames, { end = true } = {}) {
  ctx.respond = false;
  ctx.res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Request-Id': `req_fault_${++requestSeq}`,
  });
  for (const frame of frames) ctx.res.write(frame);
  if (end) ctx.res.end();
}

function sseFrame(event, data) {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function delay(ms, ctx) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    ctx.res.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** `sse-echo`: streams the request's last message back as a chat reply (see the list above). */
async function echoStream(ctx) {
  const body = JSON.parse((await readBody(ctx)).toString('utf8'));
  const text = body.messages.at(-1).content;
  answerStream(ctx, [sseFrame('meta', { request_id: 'req_fault_echo', conversation_id: 'conv_fault_echo' })], { end: false });
  const deltas = [];
  for (let at = 0, i = 0; at < text.length; i++) {
    const size = 1 + ((i * 37) % 61);
    deltas.push(text.slice(at, at + size));
    at += size;
  }
  for (let i = 0; i < deltas.length; i += 10) {
    if (ctx.res.destroyed) return;
    ctx.res.write(deltas.slice(i, i + 10).map((t) => sseFrame('delta', { text: t })).join(''));
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const message = { id: 'msg_fault_echo', conversation_id: 'conv_fault_echo', role: 'assistant', content: text, created_at: new Date().toISOString(), source: 'llm' };
  const data = { conversation_id: 'conv_fault_echo', message, source: 'llm', intent: null, confidence: null, citations: [], suggestions: [] };
  ctx.res.end(sseFrame('done', { success: true, data, meta: { request_id: 'req_fault_echo', latency_ms: 0 } }));
}

async function readBody(ctx) {
  const chunks = [];
  for await (const chunk of ctx.req) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Sends the request to the real service on this same server, reads the answer, then drops the client. */
async function forwardAndDrop(ctx, realPath) {
  const body = await readBody(ctx);
  const headers = {};
  for (const name of ['authorization', 'content-type', 'accept', 'idempotency-key', 'origin']) {
    const value = ctx.get(name);
    if (value) headers[name] = value;
  }
  const response = await fetch(`http://${ctx.host}${realPath}${ctx.search}`, {
    method: ctx.method,
    headers,
    body: ['GET', 'HEAD'].includes(ctx.method) ? undefined : body,
  });
  await response.arrayBuffer(); // the service has finished (and stored) before the client is dropped
  cutAnswer(ctx);
}

/** Headers and the start of a body, then a destroyed connection: fetch resolves, reading the body fails. */
function cutAnswer(ctx) {
  ctx.respond = false;
  ctx.res.writeHead(200, {
    'Content-Type': 'application/json',
    'Content-Length': '4096',
    'Cache-Control': 'no-store',
    'X-Request-Id': `req_fault_${++requestSeq}`,
  });
  ctx.res.write('{"success":true,"data":{');
  setTimeout(() => ctx.req.socket.destroy(), 20);
}

/** @returns {import('koa').Middleware} */
export function faults() {
  const counts = new Map();
  const bump = (key) => {
    const next = (counts.get(key) ?? 0) + 1;
    counts.set(key, next);
    return next;
  };

  return async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path.startsWith('/__test__/count/')) {
      const key = decodeURIComponent(ctx.path.slice('/__test__/count/'.length));
      answerRaw(ctx, 200, 'application/json', JSON.stringify({ count: counts.get(key) ?? 0 }));
      return;
    }
    if (!ctx.path.startsWith('/__test__/fault/')) return next();

    const rest = ctx.path.slice('/__test__/fault/'.length);
    const split = rest.search(/(^|\/)v1(\/|$)/);
    if (split === -1) {
      answerRaw(ctx, 400, 'text/plain', 'fault URL needs a /v1/ part');
      return;
    }
    const chainText = rest.slice(0, split);
    const realPath = '/' + rest.slice(split).replace(/^\//, '');
    const steps = chainText.split('/').filter(Boolean).map(decodeURIComponent);

    let i = 0;
    const take = () => steps[i++];
    const isNumber = (value) => value !== undefined && /^\d+$/.test(value);
    while (i < steps.length) {
      const step = take();
      switch (step) {
        case 'count':
          bump(take());
          break;
        case 'flaky': {
          const n = Number(take());
          const seen = bump(take());
          if (seen > n) {
            i = steps.length; // healed: skip the failure steps
          } else if (i >= steps.length) {
            return answerStatus(ctx, 503);
          }
          break;
        }
        case 'status': {
          const status = Number(take());
          const secs = isNumber(steps[i]) ? Number(take()) : undefined;
          return answerStatus(ctx, status, secs);
        }
        case 'html':
          return answerRaw(ctx, 502, 'text/html', NGINX_502);
        case 'malformed-json':
          return answerRaw(ctx, 200, 'application/json', '{"success":true,"data":{"id":"bot_1","na');
        case 'no-data':
          return answerRaw(ctx, 200, 'application/json', JSON.stringify({ success: true, meta: { request_id: 'req_fault', latency_ms: 0 } }));
        case 'slow':
          await delay(Number(take()), ctx);
          if (ctx.res.destroyed || ctx.req.destroyed) {
            ctx.status = 200;
            ctx.respond = false;
            return;
          }
          break;
        case 'drop-after': {
          const timer = setTimeout(() => ctx.res.writableEnded || ctx.res.destroy(), Number(take()));
          ctx.res.once('close', () => clearTimeout(timer));
          break;
        }
        case 'hang':
          ctx.status = 200; // nothing is ever sent; keeps the runner's 404 report quiet
          ctx.respond = false;
          await delay(120_000, ctx);
          if (!ctx.res.headersSent && !ctx.res.destroyed) ctx.res.destroy();
          return;
        case 'cut':
          return cutAnswer(ctx);
        case 'lost':
          await forwardAndDrop(ctx, realPath);
          return;
        case 'reset':
          ctx.status = 200;
          ctx.respond = false;
          ctx.req.socket.destroy();
          return;
        case 'sse-error':
          return answerStream(ctx, [
            sseFrame('meta', { request_id: 'req_fault_stream', conversation_id: 'conv_fault' }),
            sseFrame('delta', { text: 'Hel' }),
            sseFrame('error', { success: false, error: { code: 'upstream_error', message: 'model went away' } }),
          ]);
        case 'sse-truncated':
          return answerStream(ctx, [
            sseFrame('meta', { request_id: 'req_fault_stream', conversation_id: 'conv_fault' }),
            sseFrame('delta', { text: 'Hel' }),
          ]);
        case 'sse-stall':
          answerStream(ctx, [sseFrame('meta', { request_id: 'req_fault_stream', conversation_id: 'conv_fault' })], { end: false });
          await delay(120_000, ctx);
          if (!ctx.res.writableEnded) ctx.res.end();
          return;
        case 'sse-echo':
          return echoStream(ctx);
        default:
          answerRaw(ctx, 400, 'text/plain', `unknown fault step: ${step}`);
          return;
      }
    }
    ctx.path = realPath; // keeps the query string; the service middleware reads ctx.req.url
    return next();
  };
}
