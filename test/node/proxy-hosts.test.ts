/// <reference types="node" />
// The proxy embedded in host frameworks, against the REAL reference service: Express 5 under a mount
// path (before express.json()), Express at the root with `basePath`, and a Hono app.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import express from 'express';
import { Hono } from 'hono';
import { createProxy } from '../../src/proxy/index.js';
import { toNodeHandler } from '../../src/proxy/node.js';
import {
  call,
  closeServer,
  createBot,
  json,
  listen,
  mint,
  SECRET,
  sessionUser,
  startService,
  type RunningService,
} from './proxy-harness.js';

let service: RunningService;
let apiKey: string;
let botId: string;

before(async () => {
  service = await startService();
  apiKey = (await service.service.createAccount({ name: 'proxy hosts' })).apiKey;
  botId = await createBot(service.url, apiKey);
});
after(() => service?.close());

/** An Express app whose own JSON routes must keep working next to the proxy. */
function expressApp(mount: (app: express.Express) => void) {
  const app = express();
  mount(app);
  app.use(express.json());
  app.post('/echo', (req, res) => {
    res.json({ echoed: req.body });
  });
  return app;
}

describe('proxy: hosts', () => {
  it('works in Express 5 under app.use("/ai", …) mounted before express.json()', async () => {
    const proxy = createProxy({ apiKey, upstream: service.url, secret: SECRET, botId, authorize: sessionUser });
    const server = createServer(expressApp((app) => app.use('/ai', toNodeHandler(proxy))));
    const url = await listen(server);
    try {
      const { res, body, token } = await mint(`${url}/ai`, { user: 'alice' });
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.equal(body.data.api_base, '/ai/v1'); // as the browser must address it
      const reply = await call(url, token, `/ai/v1/bots/${botId}/messages`, { body: { message: 'hello', user_id: 'x' } });
      const replyBody = await json(reply);
      assert.equal(reply.status, 200, JSON.stringify(replyBody));
      assert.equal(replyBody.data.message.content, 'Hello!');
      const denied = await call(url, token, '/ai/v1/knowledge', { body: {} });
      assert.equal(denied.status, 403);

      const echo = await fetch(`${url}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ still: 'works' }),
      });
      assert.deepEqual(await echo.json(), { echoed: { still: 'works' } });
    } finally {
      await closeServer(server);
    }
  });

  it('works in Express at the root with basePath, passing other paths on to the app', async () => {
    const proxy = createProxy({
      apiKey,
      upstream: service.url,
      secret: SECRET,
      botId,
      authorize: sessionUser,
      basePath: '/chat-proxy',
    });
    const server = createServer(expressApp((app) => app.use(toNodeHandler(proxy))));
    const url = await listen(server);
    try {
      const { body, token } = await mint(`${url}/chat-proxy`, { user: 'alice' });
      assert.equal(body.data.api_base, '/chat-proxy/v1');
      const reply = await call(url, token, `/chat-proxy/v1/bots/${botId}/messages`, { body: { message: 'hello' } });
      assert.equal(reply.status, 200, await reply.clone().text());
      const echo = await fetch(`${url}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ a: 1 }),
      });
      assert.deepEqual(await echo.json(), { echoed: { a: 1 } });
    } finally {
      await closeServer(server);
    }
  });

  it('works as a Hono sub-route (the raw Request handed over as is)', async () => {
    const proxy = createProxy({ apiKey, upstream: service.url, secret: SECRET, botId, allowAnonymous: true, basePath: '/proxy' });
    const app = new Hono();
    app.all('/proxy/*', (c) => proxy.fetch(c.req.raw));
    app.get('/', (c) => c.text('home'));
    const { body, token } = await (async () => {
      const res = await app.request('/proxy/token', { method: 'POST' });
      const b = await json(res);
      return { body: b, token: b.data?.token as string };
    })();
    assert.equal(body.data.api_base, '/proxy/v1');
    assert.match(body.data.user_id, /^anon_/);
    const reply = await app.request(`/proxy/v1/bots/${botId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hello' }),
    });
    assert.equal(reply.status, 200, await reply.clone().text());
    assert.equal((await json(reply)).data.intent, 'greet');
    assert.equal(await (await app.request('/')).text(), 'home');
  });

  it('does not replace the host’s global Request/Response', async () => {
    const { Request: BeforeRequest, Response: BeforeResponse } = globalThis;
    const proxy = createProxy({ apiKey, upstream: service.url, secret: SECRET, allowAnonymous: true });
    const server = createServer(toNodeHandler(proxy));
    const url = await listen(server);
    try {
      assert.equal((await mint(url)).res.status, 200);
      assert.equal(globalThis.Request, BeforeRequest);
      assert.equal(globalThis.Response, BeforeResponse);
    } finally {
      await closeServer(server);
    }
  });
});
