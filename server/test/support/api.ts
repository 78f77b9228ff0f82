/**
 * Test helpers: a real service over an in-memory (or temp-dir) PGlite, and `call()` that goes
 * through the service's own `fetch` with a Bearer key, returning status, headers and parsed body.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createService, type Service, type ServiceOptions } from '../../src/index.ts';

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  /** The Bearer key; `null` sends none. */
  auth?: string | null;
  headers?: Record<string, string>;
}

export type Caller = (path: string, options?: CallOptions) => Promise<CallResult>;

/** A caller bound to one service and one default key. */
export function caller(service: Service, key: string): Caller {
  return async (path, options = {}) => {
    const headers = new Headers(options.headers);
    const auth = options.auth === undefined ? key : options.auth;
    if (auth) headers.set('authorization', `Bearer ${auth}`);
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    }
    const res = await service.fetch(
      new Request(`http://127.0.0.1${path}`, { method: options.method ?? (body ? 'POST' : 'GET'), headers, body }),
    );
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON (e.g. an SSE stream): keep the text
    }
    return { status: res.status, headers: res.headers, body: parsed };
  };
}

export function memoryService(options: ServiceOptions = {}): Promise<Service> {
  return createService({ dataDir: 'memory://', seed: false, logLevel: 'silent', ...options });
}

/** A temporary PGlite data directory, removed by the returned cleanup. */
export function tempDataDir(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'aicw-test-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
