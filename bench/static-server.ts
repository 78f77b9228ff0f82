/**
 * The browser bench's only server, on 127.0.0.1: the page shell, the two widget bundles, and the
 * streamed replies at the same fixed cadence for both widgets — `POST /v1/chat` in our wire format
 * (SSE `meta`, `delta`…, `done`) and `POST /stream/deep` in deep-chat's (`data: {"text": …}`): a
 * token stream, and under `/md/…` the same two for a long markdown document. A stream's end is
 * announced on `streamDone`, so the driver knows when the page has every delta.
 */
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deltasOf, markdownDocument } from './lib/markdown-doc.ts';
import { sleep } from './lib/stats.ts';

export interface StaticServerOptions {
  files: Record<string, { path: string; type: string }>;
  /** Tokens per streamed reply. */
  tokens: number;
  /** Milliseconds between two tokens. */
  tokenIntervalMs: number;
  /** The markdown reply (`/md/v1/chat`, `/md/deep`): its size, and how many deltas each write holds. */
  markdown: { bytes: number; marker: string; deltasPerWrite: number; writeIntervalMs: number };
}

export interface StaticServer {
  url: string;
  streamDone: EventEmitter;
  close(): Promise<void>;
}

/** What one stream sends: the deltas, how many go in one write, and the pause between writes. */
interface Stream {
  deltas: string[];
  perWrite: number;
  intervalMs: number;
}

const token = (i: number) => `tok${i} `;

async function drain(request: IncomingMessage): Promise<void> {
  for await (const _chunk of request) {
    // the request body is not needed; reading it lets the connection be reused
  }
}

async function paced(res: ServerResponse, stream: Stream, frame: (text: string) => string): Promise<void> {
  for (let i = 0; i < stream.deltas.length && !res.destroyed; i += stream.perWrite) {
    res.write(stream.deltas.slice(i, i + stream.perWrite).map(frame).join(''));
    await sleep(stream.intervalMs);
  }
}

async function streamOurs(res: ServerResponse, stream: Stream): Promise<void> {
  const now = new Date().toISOString();
  const send = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
  res.write(send('meta', { request_id: 'req_bench', conversation_id: 'conv_bench' }));
  await paced(res, stream, (text) => send('delta', { text }));
  const text = stream.deltas.join('');
  const message = { id: 'msg_bench_reply', conversation_id: 'conv_bench', role: 'assistant', content: text, created_at: now, source: 'llm' };
  res.write(send('done', {
    success: true,
    data: { conversation_id: 'conv_bench', message, source: 'llm', intent: null, confidence: null, citations: [], suggestions: [] },
    meta: { request_id: 'req_bench', latency_ms: 0 },
  }));
}

async function streamDeepChat(res: ServerResponse, stream: Stream): Promise<void> {
  await paced(res, stream, (text) => `data: ${JSON.stringify({ text })}\n\n`);
}

export async function startStaticServer(options: StaticServerOptions): Promise<StaticServer> {
  const streamDone = new EventEmitter();
  const streams: Record<string, (res: ServerResponse, stream: Stream) => Promise<void>> = {
    '/v1/chat': streamOurs,
    '/stream/deep': streamDeepChat,
  };
  const tokens: Stream = { deltas: Array.from({ length: options.tokens }, (_, i) => token(i)), perWrite: 1, intervalMs: options.tokenIntervalMs };
  const md = options.markdown;
  const markdown: Stream = { deltas: deltasOf(markdownDocument(md.bytes, md.marker)), perWrite: md.deltasPerWrite, intervalMs: md.writeIntervalMs };
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const file = options.files[path];
    if (req.method === 'GET' && file) {
      // no caching: every page load evaluates a freshly fetched script, like a first visit
      res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' });
      res.end(readFileSync(file.path));
      return;
    }
    const send = streams[path.replace(/^\/md\//, '/')];
    if (req.method === 'POST' && send) {
      await drain(req);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.flushHeaders();
      await send(res, path.startsWith('/md/') ? markdown : tokens);
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
