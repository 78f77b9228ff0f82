/// <reference types="node" preserve="true" />
/**
 * The Node adapter's way to the upstream: `node:http(s)` over one keep-alive agent. Node's global
 * `fetch` (undici) cost about two thirds of the proxy's own time per forwarded call — a web
 * `Request` and its clone for `redirect: 'manual'`, an `AbortSignal` chain, web streams for both
 * bodies, a `Response` whose bytes are then read back — most of the ~1 ms the proxy may add (its
 * throughput budget). Redirects are not followed (a 3xx is answered as it is, as `redirect: 'manual'` gives it).
 * A JSON answer is read whole into one buffer; Server-Sent Events stream on.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import type { UpstreamCall } from './forward.js';

const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
/** Statuses a `Response` may not carry a body with. */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

function responseHeaders(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  return headers;
}

export const nodeTransport: UpstreamCall = (url, init) => {
  const target = new URL(url);
  const headers: Record<string, string> = {};
  init.headers.forEach((value, name) => (headers[name] = value));
  if (init.body !== null) headers['content-length'] = String(Buffer.byteLength(init.body));
  const secure = target.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const request = (secure ? httpsRequest : httpRequest)(
      target,
      { method: init.method, headers, agent: secure ? agents.https : agents.http, signal: init.signal },
      (res) => {
        const status = res.statusCode ?? 502;
        const meta = { status, statusText: res.statusMessage ?? '', headers: responseHeaders(res) };
        if (NULL_BODY_STATUSES.has(status)) {
          res.resume();
          resolve({ ...meta, body: null });
        } else if ((res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
          resolve({ ...meta, body: Readable.toWeb(res) as ReadableStream<Uint8Array> });
        } else {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.once('end', () => resolve({ ...meta, body: Buffer.concat(chunks) as Uint8Array<ArrayBuffer> })); // concat: never a SharedArrayBuffer
          res.once('error', reject);
        }
      },
    );
    request.once('error', reject);
    request.end(init.body ?? undefined);
  });
};
