// Per-IP rate limits count the real client address in every way the service is mounted: `npm start`
// (src/main.ts: service + demo proxy + static pages), the browser tests' dev server
// (getRequestListener with overrideGlobalObjects:false, test/support/service-plugin.mjs) and
// startServer(). Two clients are two loopback source addresses (127.0.0.2 and 127.0.0.3): one using
// up its budget must never cost the other anything. X-Forwarded-For counts only when the service is
// told how many proxies of its own stand in front of it.
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { getRequestListener } from '@hono/node-server';
import { createDemoProxy } from '../src/demo-proxy.ts';
import { startServer, type RunningServer, type Service } from '../src/index.ts';
import { startChildServer, type ChildServer } from './support/child-server.ts';
import { rawRequest } from './support/raw-http.ts';
import { createTestService, testDatabase, type TestDatabase } from './support/test-database.ts';

const A = '127.0.0.2';
const B = '127.0.0.3';
const POINTS = 5;
let nextWindow = randomInt(100_000, 1_000_000);
/**
 * A plan with a window no other service uses: counters are kept under the plan's name, and a
 * shared Redis (AI_CHAT_TEST_REDIS_URL) would otherwise carry per-IP counts from one service (or
 * run) into the next.
 */
function freshPlan() {
  return { points: POINTS, durationSeconds: nextWindow++ };
}
const BAD_KEY = { authorization: 'Bearer aicw_sk_not-a-real-key' };

/** Uses up A's budget with bad-key calls, then checks B still gets its answers. */
async function assertClientsApart(base: string) {
  for (let i = 0; i < POINTS; i++) {
    assert.equal((await rawRequest(`${base}/v1/bots`, { headers: BAD_KEY, from: A })).status, 401);
  }
  const spent = await rawRequest(`${base}/v1/bots`, { headers: BAD_KEY, from: A });
  assert.equal(spent.status, 429, spent.text);
  assert.equal((await rawRequest(`${base}/v1/openapi.json`, { from: A })).status, 429);

  const openapi = await rawRequest(`${base}/v1/openapi.json`, { from: B });
  assert.equal(openapi.status, 200, 'another address has its own budget');
  assert.equal(openapi.headers['x-ratelimit-remaining'], String(POINTS - 1));
  const bots = await rawRequest(`${base}/v1/bots`, { headers: BAD_KEY, from: B });
  assert.equal(bots.status, 401, bots.text);
  assert.equal(bots.json().error.code, 'invalid_api_key');
}

/** The demo proxy's per-IP limit (60 tokens a minute) holds per address. */
async function assertProxyClientsApart(base: string) {
  const mint = (from: string) =>
    rawRequest(`${base}/proxy/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', from });
  for (let i = 0; i < 60; i++) assert.equal((await mint(A)).status, 200, `token ${i + 1} of 60`);
  const refused = await mint(A);
  assert.equal(refused.status, 429, 'the 61st token of one address');
  assert.equal(refused.json().error.code, 'rate_limited');
  assert.equal((await mint(B)).status, 200, 'another address still gets a token');
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('per-IP limits: npm start (src/main.ts)', () => {
  let database: TestDatabase;
  let server: ChildServer;
  let base: string;

  before(async () => {
    database = await testDatabase();
    server = await startChildServer({
      storage: database.env,
      apiKey: 'aicw_sk_client_ip_test_key_0123456789',
      env: { AI_CHAT_RATE_LIMIT: String(POINTS), AI_CHAT_RATE_WINDOW: String(freshPlan().durationSeconds) },
    });
    base = server.url;
  });
  after(async () => {
    await server?.kill('SIGTERM');
    await database?.cleanup();
  });

  it('counts each client address on its own in the API', async () => {
    await assertClientsApart(base);
  });

  it('counts each client address on its own in the demo proxy', async () => {
    await assertProxyClientsApart(base);
  });

  it('answers unknown routes under /v1 with the JSON envelope and rate-limit headers', async () => {
    const key = { authorization: 'Bearer aicw_sk_client_ip_test_key_0123456789' };
    for (const path of ['/v1/no-such-endpoint', '/v1', '/v1/chat/']) {
      const res = await rawRequest(`${base}${path}`, { headers: key, from: '127.0.0.4' });
      assert.equal(res.status, 404, path);
      assert.match(String(res.headers['content-type']), /^application\/json/, path);
      assert.equal(res.json().error.code, 'route_not_found', path);
      assert.ok(res.headers['x-ratelimit-remaining'], path);
    }
  });
});

describe('per-IP limits: the browser tests’ dev server (getRequestListener)', () => {
  let service: Service;
  let server: Server;
  let base: string;

  before(async () => {
    service = await createTestService({ rateLimit: freshPlan() });
    // As test/support/service-plugin.mjs mounts them.
    const listener = getRequestListener(service.fetch, { overrideGlobalObjects: false });
    const proxy = await createDemoProxy(service);
    const proxyListener = getRequestListener(proxy.fetch, { overrideGlobalObjects: false });
    server = createServer((req, res) => void (req.url?.startsWith('/proxy/') ? proxyListener : listener)(req, res));
    base = await listen(server);
  });
  after(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await service?.close();
  });

  it('counts each client address on its own in the API', async () => {
    await assertClientsApart(base);
  });

  it('counts each client address on its own in the demo proxy', async () => {
    await assertProxyClientsApart(base);
  });
});

describe('per-IP limits: X-Forwarded-For', () => {
  const running: RunningServer[] = [];
  after(async () => {
    for (const r of running) await r.close();
  });

  async function start(trustedProxies?: number) {
    const database = await testDatabase();
    const r = await startServer({ ...database.options, seed: false, logLevel: 'silent', rateLimit: freshPlan(), trustedProxies });
    const close = r.close;
    r.close = async () => {
      await close();
      await database.cleanup();
    };
    running.push(r);
    return r.url;
  }
  const remaining = async (base: string, forwardedFor: string) =>
    (await rawRequest(`${base}/v1/openapi.json`, { headers: { 'x-forwarded-for': forwardedFor }, from: A })).headers[
      'x-ratelimit-remaining'
    ];

  it('is ignored by default: anyone can write it', async () => {
    const base = await start();
    assert.equal(await remaining(base, '198.51.100.1'), String(POINTS - 1));
    assert.equal(await remaining(base, '198.51.100.2'), String(POINTS - 2), 'same socket, same budget');
  });

  it('with trusted proxies, counts the address the outermost trusted proxy saw', async () => {
    const base = await start(1);
    assert.equal(await remaining(base, '203.0.113.9, 198.51.100.1'), String(POINTS - 1));
    assert.equal(await remaining(base, '198.51.100.2'), String(POINTS - 1), 'another client');
    // A client writing its own entries (left of the proxy's) does not get a new budget.
    assert.equal(await remaining(base, '203.0.113.10, 198.51.100.1'), String(POINTS - 2));
    assert.equal(await remaining(base, 'not-an-ip'), String(POINTS - 1), 'garbage falls back to the socket');
  });
});
