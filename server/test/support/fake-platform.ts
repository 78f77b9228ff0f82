/**
 * What the FAKE messaging platforms (fake-telegram.ts, fake-whatsapp.ts) share: a loopback HTTP
 * server that records every request, answers through the platform's own handler, and fails or
 * holds requests on demand. Tests wait on `next()` (an event), never on time.
 */
import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The body as sent (signatures are over these bytes). */
  raw: string;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- asserted field by field
}

export interface FakeAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export class FakePlatform {
  /** Every request received, in order, failed and held ones included. */
  readonly requests: FakeRequest[] = [];
  url = '';
  private readonly server: Server;
  private readonly events = new EventEmitter();
  private readonly failures: FakeAnswer[] = [];
  private held: { release: () => void }[] = [];
  private holdNextCount = 0;

  constructor(private readonly answer: (request: FakeRequest) => FakeAnswer) {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  async listen(): Promise<this> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    const address = this.server.address() as { port: number };
    this.url = `http://127.0.0.1:${address.port}`;
    return this;
  }

  /** The next requests (any path) are answered with these, in order, instead of the platform's answer. */
  failNext(...answers: FakeAnswer[]): void {
    this.failures.push(...answers);
  }

  /** The next request is recorded but not answered until `release()` (or the caller gives up). */
  holdNext(): { release: () => void } {
    this.holdNextCount++;
    const handle = { release: () => this.held.shift()?.release() };
    return handle;
  }

  /** Resolves with the next request whose path ends with `suffix` (one already received counts when `after` is below its index). */
  async next(suffix: string, after = this.requests.length): Promise<FakeRequest> {
    for (;;) {
      const found = this.requests.slice(after).find((request) => request.path.endsWith(suffix));
      if (found) return found;
      await once(this.events, 'request');
    }
  }

  /** Requests whose path ends with `suffix`. */
  calls(suffix: string): FakeRequest[] {
    return this.requests.filter((request) => request.path.endsWith(suffix));
  }

  async close(): Promise<void> {
    for (const held of this.held) held.release();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const request: FakeRequest = { method: req.method ?? 'GET', path: new URL(req.url ?? '/', this.url).pathname, headers: req.headers, raw: text, body: text ? JSON.parse(text) : null };
    this.requests.push(request);
    const failure = this.failures.shift();
    if (this.holdNextCount > 0) {
      this.holdNextCount--;
      const released = new Promise<void>((resolve) => this.held.push({ release: resolve }));
      this.events.emit('request', request);
      await released;
    } else {
      this.events.emit('request', request);
    }
    const answer = failure ?? this.answer(request);
    if (res.destroyed) return;
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(JSON.stringify(answer.body));
  }
}
