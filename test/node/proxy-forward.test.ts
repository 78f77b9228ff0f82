/// <reference types="node" />
// Forwarding through the proxy to the REAL reference service: the real key is used upstream, the
// browser's user_id is overwritten by the token's subject, history is confined to that user,
// idempotent replays survive a token renewal, SSE streams through, and upstream failures map to 502/504.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import {
  call,
  closeServer,
  createBot,
  hostProxy,
  json,
  listen,
  mint,
  startService,
  type HostedProxy,
  type RunningService,
} from './proxy-harness.js';

let service: RunningService;
let apiKey: string;
let botId: string;
let host: HostedProxy;

before(async () => {
  service = await startService();
  apiKey = (await service.service.createAccount({ name: 'proxy forwarding' })).apiKey;
  botId = await createBot(service.url, apiKey);
  host = await hostProxy({ apiKey, upstream: service.url, botId, allowAnonymous: true });
});
after(async () => {
  await host?.close();
  await service?.close();
});

/** History straight from the service with the real key (what the account owner sees). */
async function historyAsOwner(query: Record<string, string>) {
  const res = await fetch(`${service.url}/v1/chat/history?${new URLSearchParams(query)}`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  const body = await json(res);
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.data.items as { conversation_id: string; role: string; content: string }[];
}

describe('proxy: forwarding', () => {
  it('forwards a bot message with the real key and the token’s user, whatever user_id the browser sent', async () => {
    const { token } = await mint(host.url, { user: 'alice' });
    const res = await call(host.url, token, `/v1/bots/${botId}/messages`, { body: { message: 'hello', user_id: 'mallory' } });
    const body = await json(res);
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(body.data.message.content, 'Hello!');
    assert.equal(body.data.intent, 'greet');
    assert.match(res.headers.get('x-request-id') ?? '', /^req_/);
    assert.ok(res.headers.get('x-ratelimit-limit'));

    const alice = await historyAsOwner({ user_id: 'alice', bot_id: botId });
    assert.ok(alice.some((m) => m.content === 'hello' && m.conversation_id === body.data.conversation_id));
    assert.deepEqual(await historyAsOwner({ user_id: 'mallory' }), []);
  });

  it('forwards POST /v1/chat and overwrites a spoofed user_id', async () => {
    const { token } = await mint(host.url, { user: 'carol' });
    const res = await call(host.url, token, '/v1/chat', {
      body: { messages: [{ role: 'user', content: 'hi there' }], user_id: 'mallory' },
    });
    const body = await json(res);
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(body.data.message.role, 'assistant');
    const carol = await historyAsOwner({ user_id: 'carol' });
    assert.ok(carol.some((m) => m.content === 'hi there' && m.conversation_id === body.data.conversation_id));
    assert.deepEqual(await historyAsOwner({ user_id: 'mallory' }), []);
  });

  it('under toNodeHandler reaches the upstream over node:http, not the global fetch, unless given a fetch', async () => {
    // undici's fetch was most of the proxy's own time per call. The spy passes every call on.
    const original = globalThis.fetch;
    const upstreamCalls: string[] = [];
    const spy: typeof fetch = (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.startsWith(service.url)) upstreamCalls.push(url);
      return original(input, init);
    };
    globalThis.fetch = spy;
    let own: HostedProxy | undefined;
    let given: HostedProxy | undefined;
    try {
      own = await hostProxy({ apiKey, upstream: service.url, botId, allowAnonymous: true });
      given = await hostProxy({ apiKey, upstream: service.url, botId, allowAnonymous: true, fetch: spy });
      for (const proxy of [own, given]) {
        const { token } = await mint(proxy.url, { user: 'dora' });
        const res = await call(proxy.url, token, '/v1/chat', { body: { messages: [{ role: 'user', content: 'hi there' }] } });
        const body = await json(res);
        assert.equal(res.status, 200, JSON.stringify(body));
        assert.equal(body.data.message.role, 'assistant');
        assert.equal(res.headers.get('content-type'), 'application/json');
        assert.ok(res.headers.get('x-request-id'));
        assert.equal(upstreamCalls.length, proxy === own ? 0 : 1, upstreamCalls.join(', '));
      }
    } finally {
      globalThis.fetch = original;
      await own?.close();
      await given?.close();
    }
  });

  it('answers a user’s own history, and never another user’s', async () => {
    const alice = (await mint(host.url, { user: 'alice' })).token;
    const bob = (await mint(host.url, { user: 'bob' })).token;
    const sent = await json(
      await call(host.url, alice, `/v1/bots/${botId}/messages`, { body: { message: 'hi there', user_id: 'alice' } }),
    );
    const conversation = sent.data.conversation_id as string;

    const own = await call(host.url, alice, `/v1/chat/history?conversation_id=${conversation}`);
    const ownBody = await json(own);
    assert.equal(own.status, 200, JSON.stringify(ownBody));
    assert.ok(ownBody.data.items.some((m: { content: string }) => m.content === 'hi there'));

    // Bob asks for Alice's conversation by id, and for "user_id=alice": the proxy pins user_id to bob.
    for (const query of [`conversation_id=${conversation}`, 'user_id=alice', `conversation_id=${conversation}&user_id=alice`]) {
      const res = await call(host.url, bob, `/v1/chat/history?${query}`);
      const text = await res.text();
      assert.ok(!text.includes('hi there'), `bob read alice's messages with ${query}: ${text}`);
      if (res.status === 200) assert.deepEqual(JSON.parse(text).data.items, []);
    }
  });

  it('does not let a user continue another user’s conversation through /v1/chat', async () => {
    const alice = (await mint(host.url, { user: 'alice-chat' })).token;
    const bob = (await mint(host.url, { user: 'bob-chat' })).token;
    const first = await json(
      await call(host.url, alice, '/v1/chat', { body: { messages: [{ role: 'user', content: 'my secret plan' }] } }),
    );
    const conversation = first.data.conversation_id as string;
    const res = await call(host.url, bob, '/v1/chat', {
      body: { messages: [{ role: 'user', content: 'hello' }], conversation_id: conversation },
    });
    await res.arrayBuffer();
    assert.ok(res.status === 404 || res.status === 403, `bob wrote into alice's conversation: ${res.status}`);
    const aliceView = await historyAsOwner({ conversation_id: conversation });
    assert.ok(!aliceView.some((m) => m.content === 'hello'));
  });

  it('replays an idempotent request under a renewed token', async () => {
    const first = (await mint(host.url, { user: 'dave' })).token;
    const request = { body: { message: 'hello', user_id: 'dave' }, headers: { 'idempotency-key': 'proxy-replay-1' } };
    const original = await call(host.url, first, `/v1/bots/${botId}/messages`, request);
    const originalBody = await json(original);
    assert.equal(original.status, 200, JSON.stringify(originalBody));

    const renewed = (await mint(host.url, { user: 'dave' })).token;
    assert.notEqual(renewed, first);
    const replay = await call(host.url, renewed, `/v1/bots/${botId}/messages`, request);
    const replayBody = await json(replay);
    assert.equal(replay.status, 200);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replayBody.data.message.id, originalBody.data.message.id);
    const dave = await historyAsOwner({ user_id: 'dave' });
    assert.equal(dave.filter((m) => m.role === 'user').length, 1);
  });

  it('keeps idempotency keys apart per user (no replay of another user’s answer)', async () => {
    const frank = (await mint(host.url, { user: 'frank' })).token;
    const grace = (await mint(host.url, { user: 'grace' })).token;
    const request = { body: { message: 'hello' }, headers: { 'idempotency-key': 'proxy-shared-key' } };
    const first = await call(host.url, frank, `/v1/bots/${botId}/messages`, request);
    assert.equal(first.status, 200);
    const firstBody = await json(first);
    const second = await call(host.url, grace, `/v1/bots/${botId}/messages`, request);
    const secondBody = await json(second);
    assert.equal(second.status, 200, JSON.stringify(secondBody));
    assert.equal(second.headers.get('idempotent-replayed'), null);
    assert.notEqual(secondBody.data.conversation_id, firstBody.data.conversation_id);
    const bad = await call(host.url, grace, `/v1/bots/${botId}/messages`, { ...request, headers: { 'idempotency-key': ' ' } });
    assert.equal(bad.status, 400);
    assert.equal((await json(bad)).error!.param, 'Idempotency-Key');
  });

  it('streams a real SSE chat reply through as text/event-stream', async () => {
    const { token } = await mint(host.url, { user: 'erin' });
    const res = await call(host.url, token, '/v1/chat', {
      body: { messages: [{ role: 'user', content: 'hello' }], stream: true },
      headers: { accept: 'text/event-stream' },
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.equal(res.headers.get('x-accel-buffering'), 'no');
    const text = await res.text();
    const events = [...text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    assert.equal(events[0], 'meta', text);
    assert.ok(events.includes('delta'), text);
    assert.equal(events.at(-1), 'done');
    const done = JSON.parse(/event: done\ndata: (.*)\n/.exec(text)![1]!);
    assert.equal(done.success, true);
    const erin = await historyAsOwner({ user_id: 'erin' });
    assert.ok(erin.some((m) => m.content === 'hello'));
  });

  it('answers 502 upstream_error when the API key is refused upstream (not a 401 the widget would retry)', async () => {
    const wrongKey = await hostProxy({ apiKey: 'aicw_sk_not-a-real-key', upstream: service.url, botId });
    try {
      const { token } = await mint(wrongKey.url, { user: 'alice' });
      const res = await call(wrongKey.url, token, '/v1/chat/history');
      assert.equal(res.status, 502);
      assert.equal((await json(res)).error!.code, 'upstream_error');
    } finally {
      await wrongKey.close();
    }
  });
});

describe('proxy: upstream behaviour', () => {
  it('hands each SSE frame over as soon as the upstream writes it (no buffering)', async () => {
    // An upstream that sends `meta`, then holds `done` back until the browser side has seen `meta`:
    // the test can only finish if the proxy passes frames through one by one.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const upstream = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'req_upstream' });
      res.write('event: meta\ndata: {"conversation_id":"conv_1"}\n\n');
      void released.then(() => res.end('event: done\ndata: {"success":true}\n\n'));
    });
    const upstreamUrl = await listen(upstream);
    const proxy = await hostProxy({ apiKey, upstream: upstreamUrl, botId, upstreamTimeoutMs: 5000 });
    try {
      const { token } = await mint(proxy.url, { user: 'alice' });
      const res = await call(proxy.url, token, '/v1/chat', { body: { messages: [], stream: true } });
      assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
      assert.equal(res.headers.get('x-request-id'), 'req_upstream');
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      const deadline = setTimeout(release, 3000); // never hang the suite: fail below instead
      while (!text.includes('\n\n')) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      assert.ok(!text.includes('event: done'), 'the proxy held meta back until the stream ended');
      assert.match(text, /^event: meta\n/);
      clearTimeout(deadline);
      release();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      assert.match(text, /event: done/);
    } finally {
      release();
      await proxy.close();
      await closeServer(upstream);
    }
  });

  it('answers 502 upstream_error when the service is down', async () => {
    const doomed = await startService();
    const key = (await doomed.service.createAccount()).apiKey;
    const proxy = await hostProxy({ apiKey: key, upstream: doomed.url, botId: 'bot_x' });
    try {
      const { token } = await mint(proxy.url, { user: 'alice' });
      assert.equal((await call(proxy.url, token, '/v1/chat/history')).status !== 502, true);
      await doomed.close();
      const res = await call(proxy.url, token, '/v1/chat/history');
      const body = await json(res);
      assert.equal(res.status, 502);
      assert.equal(body.error!.code, 'upstream_error');
      assert.match(body.error!.request_id ?? '', /^req_/);
    } finally {
      await proxy.close();
    }
  });

  it('answers 504 upstream_timeout when the upstream does not answer in time', async () => {
    // a socket that accepts and never answers: what a hung upstream looks like
    const silent = createServer(() => {});
    const silentUrl = await listen(silent);
    const proxy = await hostProxy({ apiKey, upstream: silentUrl, botId, upstreamTimeoutMs: 300 });
    try {
      const { token } = await mint(proxy.url, { user: 'alice' });
      const started = Date.now();
      const res = await call(proxy.url, token, '/v1/chat/history');
      assert.equal(res.status, 504);
      assert.equal((await json(res)).error!.code, 'upstream_timeout');
      assert.ok(Date.now() - started < 5000);
    } finally {
      await proxy.close();
      await closeServer(silent);
    }
  });
});
