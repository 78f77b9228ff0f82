/**
 * The service on a loopback port with the demo token proxy mounted at /proxy, as `npm start` runs
 * it (server/src/main.ts), over a fresh seeded test database; `close()` drops the database too.
 */
import { createDemoProxy, DEMO_PROXY_PATH } from '../../src/demo-proxy.ts';
import { startServer, type RunningServer } from '../../src/index.ts';
import { testDatabase } from './test-database.ts';

export { DEMO_PROXY_PATH };

export async function startDemoServer(): Promise<RunningServer> {
  const database = await testDatabase();
  const server = await startServer({
    ...database.options,
    seed: true,
    logLevel: 'silent',
    port: 0,
    mount: async (app, service) => {
      const proxy = await createDemoProxy(service);
      app.all(`${DEMO_PROXY_PATH}/*`, (c) => proxy.fetch(c.req.raw));
    },
  }).catch(async (error: unknown) => {
    await database.cleanup();
    throw error;
  });
  return {
    ...server,
    async close() {
      try {
        await server.close();
      } finally {
        await database.cleanup();
      }
    },
  };
}

/** A visitor of the demo page: the widget token the demo proxy minted, its bot and user. */
export interface Visitor {
  token: string;
  botId: string;
  userId: string;
}

/** `POST /proxy/token` as the widget sends it: a kept anonymous id (`userId`), or none for a new visitor. */
export async function mintVisitor(server: RunningServer, userId?: string): Promise<Visitor> {
  const res = await fetch(`${server.url}${DEMO_PROXY_PATH}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify(userId ? { user_id: userId } : {}),
  });
  const body = (await res.json()) as { data?: { token: string; bot_id: string; user_id: string } };
  if (res.status !== 200 || !body.data) throw new Error(`the demo proxy minted no token: ${res.status} ${JSON.stringify(body)}`);
  return { token: body.data.token, botId: body.data.bot_id, userId: body.data.user_id };
}

/** A call through the demo proxy with `who`'s token, from the demo page's own origin. */
export async function viaProxy(server: RunningServer, who: Visitor, path: string, init: { method?: string; body?: unknown } = {}) {
  const res = await fetch(`${server.url}${DEMO_PROXY_PATH}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/json', origin: server.url },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { res, body: (await res.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test assertions read it freely
}
