/**
 * The browser bench's only server, on 127.0.0.1: the page shell, the two widget bundles, and two
 * token streams at the same fixed cadence — `POST /v1/chat` in our wire format (SSE `meta`,
 * `delta`…, `done`) and `POST /stream/deep` in deep-chat's (`data: {"text": …}`). A stream's end is
 * announced on `streamDone`, so the driver knows when the page has every token.
 */
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sleep } from './lib/stats.ts';

export interface StaticServerOptions {
  files: Record<string, { path: string; type: string }>;
  /** Tokens per streamed reply. */
  tokens: number;
  /** Milliseconds between two tokens. */
  tokenIntervalMs: number;
}

export interface StaticServer {
  url: string;
  streamDone: EventEmitter;
  close(): Promise<void>;
}

const token = (i: number) => `tok${i} `;

async function drain(request: IncomingMessage): Promise<void> {
  for await (const _chunk of request) {
    // the request body is not needed; reading it lets the connection be reused
  }
}

async function streamOurs(res: ServerResponse, options: StaticServerOptions): Promise<void> {
  const now = new Date().toISOString();
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  send('meta', { request_id: 'req_bench', conversation_id: 'conv_bench' });
  let text = '';
  for (let i = 0; i < options.tokens; i++) {
    send('delta', { text: token(i) });
    text += token(i);
    await sleep(options.tokenIntervalMs);
  }
  const message = { id: 'msg_bench_reply', conversation_id: 'conv_bench', role: 'assistant', content: text, created_at: now, source: 'llm' };
  send('done', {
    success: true,
    data: { conversation_id: 'conv_bench', message, source: 'llm', intent: null, confidence: null, citations: [], suggestions: [] },
    meta: { request_id: 'req_bench', latency_ms: 0 },
  });
}

async function streamDeepChat(res: ServerResponse, options: StaticServerOptions): Promise<void> {
  for (let i = 0; i < options.tokens; i++) {
    res.write(`data: ${JSON.stringify({ text: token(i) })}\n\n`);
    await sleep(options.tokenIntervalMs);
  }
}

export async function startStaticServer(options: StaticServerOptions): Promise<StaticServer> {
  const streamDone = new EventEmitter();
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const file = options.files[path];
    if (req.method === 'GET' && file) {
      // no caching: every page load evaluates a freshly fetched script, like a first visit
      res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' });
      res.end(readFileSync(file.path));
      return;
    }
    if (req.method === 'POST' && (path === '/v1/chat' || path === '/stream/deep')) {
      await drain(req);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.flushHeaders();
      await (path === '/v1/chat' ? streamOurs(res, options) : streamDeepChat(res, options));
      res.end();
      streamDone.emit('done', path);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    streamDone,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
