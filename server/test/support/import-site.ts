/**
 * What the knowledge-import tests share: a small website on loopback (its pages are handlers the
 * tests set and change between syncs; anything else answers 404), and `importSuite()`: that site and
 * a real service allowed to read it, started and closed with the suite, with calls that import,
 * sync and list an import's entries.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import type { Service, ServiceOptions } from '../../src/index.ts';
import { caller, memoryService, type Caller } from './api.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A small website on loopback whose pages the tests change between syncs. */
export class Site {
  readonly pages = new Map<string, Handler>();
  private server!: Server;
  origin = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const handler = this.pages.get(new URL(req.url ?? '/', 'http://x').pathname);
      if (handler) return handler(req, res);
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  html(path: string, body: string, title = path): void {
    this.pages.set(path, (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`));
  }

  text(path: string, type: string, body: string | Buffer): void {
    this.pages.set(path, (_req, res) => res.writeHead(200, { 'content-type': type }).end(body));
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Base64 of a file's bytes, as an import body carries them. */
export const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

export interface ImportedEntry {
  id: string;
  import_id: string | null;
  title: string;
  content: string;
  url: string | null;
  heading_path: string[];
  version: number;
}

export interface ImportSuite {
  site: Site;
  service: Service;
  /** A caller of one account of `service`. */
  call: Caller;
  /** `POST /v1/knowledge/imports?wait=true`, asserting 200: the import with its finished job. */
  importAndWait(body: Record<string, unknown>, as?: Caller): Promise<any>;
  /** `POST /v1/knowledge/imports/{id}/sync?wait=true`, asserting 200. */
  syncAndWait(id: string, body?: Record<string, unknown>): Promise<any>;
  /** The import's entries, by title. */
  entriesOf(importId: string): Promise<ImportedEntry[]>;
}

/** Registers `before`/`after` hooks that start the site and a service with `options`, and stop both. */
export function importSuite(options: ServiceOptions): ImportSuite {
  const suite = {
    site: new Site(),
    async importAndWait(body: Record<string, unknown>, as?: Caller) {
      const res = await (as ?? suite.call)('/v1/knowledge/imports?wait=true', { body });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data;
    },
    async syncAndWait(id: string, body?: Record<string, unknown>) {
      const res = await suite.call(`/v1/knowledge/imports/${id}/sync?wait=true`, { method: 'POST', body });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data;
    },
    async entriesOf(importId: string) {
      const res = await suite.call('/v1/knowledge?limit=200');
      return (res.body.data.items as ImportedEntry[]).filter((e) => e.import_id === importId).sort((a, b) => a.title.localeCompare(b.title));
    },
  } as ImportSuite;
  before(async () => {
    await suite.site.start();
    suite.service = await memoryService(options);
    suite.call = caller(suite.service, (await suite.service.createAccount()).apiKey);
  });
  after(async () => {
    await suite.service?.close();
    await suite.site.close();
  });
  return suite;
}
