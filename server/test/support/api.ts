/**
 * Test helpers: a real service over a fresh test database (see test-database.ts), and `call()` that goes
 * through the service's own `fetch` with a Bearer key, returning status, headers and parsed body.
 */
import type { Service, ServiceOptions } from '../../src/index.ts';
import { createTestService } from './test-database.ts';

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

/** A quiet, unseeded service on its own fresh test database, dropped again by `close()`. */
export function memoryService(options: ServiceOptions = {}): Promise<Service> {
  return createTestService(options);
}
