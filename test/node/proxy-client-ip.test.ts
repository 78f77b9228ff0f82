/// <reference types="node" />
// The proxy's per-IP limit counts the real client in each host docs/proxy.md shows (Node `http`,
// Express, Hono), against the REAL reference service. Each host below is mounted with the exact
// line its docs/proxy.md snippet shows (checked, so the two cannot drift apart), and two clients are
// two loopback source addresses (127.0.0.2 and 127.0.0.3). Also: bodies nested too deep for the
// service are refused by the proxy with the service's own code.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import express from 'express';
import { Hono } from 'hono';
import { createProxy, type Proxy, type ProxyOptions } from '../../src/proxy/index.js';
import { toNodeHandler } from '../../src/proxy/node.js';
import { rawRequest } from '../../server/test/support/raw-http.js';
import { closeServer, createBot, listen, mint, SECRET, startService, type RunningService } from './proxy-harness.js';

const A = '127.0.0.2';
const B = '127.0.0.3';
const PER_IP = 3;
const docs = readFileSync(new URL('../../docs/proxy.md', import.meta.url), 'utf8');

/** The ts snippet under `### {heading}` in docs/proxy.md. */
function snippet(heading: string): string {
  const section = docs.split(/^### /m).find((s) => s.startsWith(`${heading}\n`));
  const code = section && /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(code, `docs/proxy.md has a ts snippet under "### ${heading}"`);
  return code;
}

let service: RunningService;
let apiKey: string;
let botId: string;

before(async () => {
  service = await startService();
  apiKey = (await service.service.createAccount({ name: 'proxy client ip' })).apiKey;
  botId = await createBot(service.url, apiKey);
});
after(() => service?.close());

function options(extra: Partial<ProxyOptions> = {}): ProxyOptions {
  return { apiKey, upstream: service.url, secret: SECRET, botId, allowAnonymous: true, rateLimit: { perIp: { points: PER_IP, windowSeconds: 60 } }, ...extra };
}

const token = (base: string, from: string, headers: Record<string, string> = {}) =>
  rawRequest(`${base}/token`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}', from });

/** One address uses up its tokens; the other still gets one. */
async function assertClientsApart(base: string) {
  for (let i = 0; i < PER_IP; i++) assert.equal((await token(base, A)).status, 200, `token ${i + 1} from ${A}`);
  const refused = await token(base, A);
  assert.equal(refused.status, 429, refused.text);
  assert.equal(refused.json().error.code, 'rate_limited');
  const other = await token(base, B);
  assert.equal(other.status, 200, `another address has its own budget: ${other.text}`);
}

async function withServer(server: Server, check: (url: string) => Promise<void>) {
  const url = await listen(server);
  try {
    await check(url);
  } finally {
    await closeServer(server);
  }
}

describe('proxy: per-IP limits in each documented host', () => {
  it('Node http: toNodeHandler passes the socket address', async () => {
    assert.match(snippet('Node `http`'), /createServer\(toNodeHandler\(proxy\)\)/);
    await withServer(createServer(toNodeHandler(createProxy(options()))), assertClientsApart);
  });

  it('Express: app.use("/ai", toNodeHandler(proxy)) counts req.ip', async () => {
    assert.match(snippet('Express'), /app\.use\('\/ai', toNodeHandler\(proxy\)\)/);
    const app = express();
    app.use('/ai', toNodeHandler(createProxy(options())));
    await withServer(createServer(app), (url) => assertClientsApart(`${url}/ai`));
  });

  it("Express: X-Forwarded-For counts only through Express's own trust proxy setting", async () => {
    const forwarded = (ip: string) => ({ 'x-forwarded-for': ip });
    const plain = express();
    plain.use('/ai', toNodeHandler(createProxy(options())));
    await withServer(createServer(plain), async (url) => {
      for (let i = 0; i < PER_IP; i++) assert.equal((await token(`${url}/ai`, A, forwarded(`198.51.100.${i}`))).status, 200);
      assert.equal((await token(`${url}/ai`, A, forwarded('198.51.100.99'))).status, 429, 'a written header is no new client');
    });
    const trusting = express();
    trusting.set('trust proxy', 'loopback');
    trusting.use('/ai', toNodeHandler(createProxy(options())));
    await withServer(createServer(trusting), async (url) => {
      for (let i = 0; i < PER_IP; i++) assert.equal((await token(`${url}/ai`, A, forwarded('198.51.100.1'))).status, 200);
      assert.equal((await token(`${url}/ai`, A, forwarded('198.51.100.1'))).status, 429);
      assert.equal((await token(`${url}/ai`, A, forwarded('198.51.100.2'))).status, 200, 'the proxy in front named another client');
    });
  });

  it('Hono on Node: the route passes getConnInfo(c).remote.address', async () => {
    const shown = snippet('Hono');
    assert.match(shown, /app\.all\('\/ai\/\*', \(c\) => proxy\.handle\(c\.req\.raw, \{ clientIp: getConnInfo\(c\)\.remote\.address \}\)\);/);
    assert.match(shown, /import \{ getConnInfo \} from '@hono\/node-server\/conninfo';/);
    const proxy: Proxy = createProxy(options({ basePath: '/ai' }));
    const app = new Hono();
    app.all('/ai/*', (c) => proxy.handle(c.req.raw, { clientIp: getConnInfo(c).remote.address }));
    const server = await new Promise<Server>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1', overrideGlobalObjects: false }, () => resolve(s as Server));
    });
    const { port } = server.address() as { port: number };
    try {
      await assertClientsApart(`http://127.0.0.1:${port}/ai`);
    } finally {
      await closeServer(server);
    }
  });
});

describe('proxy: deeply nested bodies', () => {
  it('answers 400 json_too_deep for 15,000 levels, never a 500', async () => {
    const proxy = createProxy(options({ rateLimit: {} }));
    await withServer(createServer(toNodeHandler(proxy)), async (url) => {
      const minted = await mint(url);
      assert.equal(minted.res.status, 200);
      const deep = `${'['.repeat(15_000)}${']'.repeat(15_000)}`;
      for (const chunked of [false, true]) {
        const res = await rawRequest(`${url}/v1/bots/${botId}/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${minted.token}`, 'content-type': 'application/json' },
          body: `{"message":"hi","metadata":${deep}}`,
          chunked,
        });
        assert.equal(res.status, 400, res.text);
        assert.equal(res.json().error.code, 'json_too_deep');
      }
    });
  });
});
