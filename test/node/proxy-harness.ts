/// <reference types="node" />
/**
 * Shared set-up of the proxy tests: the REAL reference service on a loopback port, a tenant with
 * its own key, and helpers to host a proxy in Node `http` and to call it like a browser would.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxy, type Proxy, type ProxyOptions } from '../../src/proxy/index.js';
import { toNodeHandler } from '../../src/proxy/node.js';

/** The part of `server/src/index.ts` these tests use (imported at run time, outside the root type check). */
export interface RunningService {
  url: string;
  service: { createAccount(options?: { name?: string }): Promise<{ accountId: string; apiKey: string }> };
  close(): Promise<void>;
}

export const SECRET = 'test-secret-for-the-proxy-0123456789abcdef';
export const SHOP = 'https://shop.example';

/**
 * The service on a fresh test database: in-memory PGlite, or PostgreSQL with `AI_CHAT_TEST_DATABASE_URL`.
 * `extra`: more service options (e.g. `llm`).
 */
export async function startService(extra: Record<string, unknown> = {}): Promise<RunningService> {
  const entry = new URL('../../server/src/index.ts', import.meta.url).href;
  const { startServer } = (await import(entry)) as {
    startServer(options: Record<string, unknown>): Promise<RunningService>;
  };
  const { testDatabase } = (await import(new URL('../../server/test/support/test-database.ts', import.meta.url).href)) as {
    testDatabase(): Promise<{ options: Record<string, unknown>; cleanup(): Promise<void> }>;
  };
  const database = await testDatabase();
  const running = await startServer({ ...database.options, seed: false, logLevel: 'silent', port: 0, ...extra }).catch(async (error: unknown) => {
    await database.cleanup();
    throw error;
  });
  return {
    ...running,
    async close() {
      try {
        await running.close();
      } finally {
        await database.cleanup();
      }
    },
  };
}

/** A bot with one intent, created through the service's API with `apiKey`. */
export async function createBot(serviceUrl: string, apiKey: string): Promise<string> {
  const res = await fetch(`${serviceUrl}/v1/bots`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Proxy test bot',
      training: { intents: [{ name: 'greet', examples: ['hello', 'hi there'], responses: ['Hello!'] }] },
    }),
  });
  const body = (await res.json()) as { success: boolean; data?: { id: string }; error?: unknown };
  if (!res.ok || !body.data) throw new Error(`creating the bot failed: ${res.status} ${JSON.stringify(body)}`);
  return body.data.id;
}

/** `authorize` of the tests: the "session" is a `cookie: session=<user>` header. */
export async function sessionUser(request: Request) {
  const match = /(?:^|;\s*)session=([A-Za-z0-9_-]+)/.exec(request.headers.get('cookie') ?? '');
  return match ? { userId: match[1]! } : null;
}

export interface HostedProxy {
  proxy: Proxy;
  /** Origin of the Node server hosting the proxy, e.g. `http://127.0.0.1:41234`. */
  url: string;
  close(): Promise<void>;
}

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections?.();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** The proxy in a plain `http.createServer(toNodeHandler(proxy))`. */
export async function hostProxy(options: Partial<ProxyOptions> & Pick<ProxyOptions, 'apiKey' | 'upstream'>): Promise<HostedProxy> {
  const proxy = createProxy({ secret: SECRET, authorize: sessionUser, allowedOrigins: [SHOP], ...options });
  const server = createServer(toNodeHandler(proxy));
  const url = await listen(server);
  return { proxy, url, close: () => closeServer(server) };
}

export interface Envelope {
  success: boolean;
  data?: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test assertions read it freely
  error?: { code: string; message: string; request_id?: string; param?: string };
  meta?: { request_id: string };
}

export async function json(res: Response): Promise<Envelope> {
  return (await res.json()) as Envelope;
}

/** `POST {base}/token` as the widget does, with an optional session user and Origin. */
export async function mint(
  base: string,
  options: { user?: string; origin?: string; body?: Record<string, unknown> } = {},
): Promise<{ res: Response; body: Envelope; token: string }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (options.user) headers.cookie = `session=${options.user}`;
  if (options.origin) headers.origin = options.origin;
  const res = await fetch(`${base}/token`, { method: 'POST', headers, body: JSON.stringify(options.body ?? {}) });
  const body = await json(res);
  return { res, body, token: body.data?.token ?? '' };
}

/** A call through the proxy with a widget token. */
export function call(
  base: string,
  token: string | null,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string>; origin?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (init.origin) headers.origin = init.origin;
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  return fetch(`${base}${path}`, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
}

/** The JWT's payload, decoded without verification (what a browser could read). */
export function claimsOf(token: string): Record<string, unknown> {
  const part = token.split('.')[1]!;
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
}
