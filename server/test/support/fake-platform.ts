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
  bytes: Buffer;
  /** JSON parsed; a form's or a multipart upload's fields (a file part as a `FakeFilePart`). */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- asserted field by field
}

/** A file part of a multipart upload as the fake received it. */
export interface FakeFilePart {
  filename: string;
  type: string;
  bytes: Buffer;
}

export interface FakeAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Sent as is instead of `body` as JSON (a file download, a plain-text answer). */
  raw?: Uint8Array;
  /** `raw` goes chunked, without a `Content-Length`: its size is known only by reading it. */
  unsized?: true;
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
    const bytes = Buffer.concat(chunks);
    const text = bytes.toString('utf8');
    const request: FakeRequest = { method: req.method ?? 'GET', path: new URL(req.url ?? '/', this.url).pathname, headers: req.headers, raw: text, bytes, body: await parseBody(req.headers['content-type'] ?? '', bytes) };
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
    if (answer.raw) {
      res.writeHead(answer.status, { 'content-type': 'application/octet-stream', ...(!answer.unsized && { 'content-length': String(answer.raw.byteLength) }), ...answer.headers });
      res.end(answer.raw);
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(JSON.stringify(answer.body));
  }
}

/** A body as the platform reads it: JSON, a URL-encoded form, or multipart form data. */
async function parseBody(contentType: string, bytes: Buffer): Promise<unknown> {
  if (!bytes.length) return null;
  if (contentType.startsWith('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(bytes.toString('utf8')));
  if (contentType.startsWith('multipart/form-data')) {
    const form = await new Response(new Uint8Array(bytes), { headers: { 'content-type': contentType } }).formData();
    const fields: Record<string, string | FakeFilePart> = {};
    for (const [name, value] of form) {
      fields[name] = typeof value === 'string' ? value : { filename: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
    }
    return fields;
  }
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return null;
  }
}
