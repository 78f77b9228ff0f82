// POST /v1/chat with an OpenAI-compatible provider: a fake one on a loopback port (a real HTTP
// server, not a mock of our own code). Grounding, streaming, and upstream failures.
import assert from 'node:assert/strict';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestClient } from './support/core.ts';
import { parseSseBody } from './support/sse.ts';

let api: TestClient;
let upstream: ServerType;
let mode: 'ok' | 'fail' = 'ok';
const received: any[] = [];

before(async () => {
  const fake = new Hono();
  fake.post('/v1/chat/completions', async (c) => {
    received.push(await c.req.json());
    if (mode === 'fail') return c.json({ error: { message: 'boom' } }, 500);
    const words = ['The ', 'accent ', 'is ', '--ai-chat-accent ', '[1].'];
    const body = words.map((w) => `data: ${JSON.stringify({ choices: [{ delta: { content: w } }] })}\n\n`).join('') + 'data: [DONE]\n\n';
    return c.body(body, 200, { 'content-type': 'text/event-stream' });
  });
  const port = await new Promise<number>((resolve) => {
    upstream = serve({ fetch: fake.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(info.port));
  });
  api = await startTestService({ llm: { baseUrl: `http://127.0.0.1:${port}/v1`, model: 'fake-model', timeoutMs: 5000 } });
  await api.json('/v1/knowledge', {
    method: 'POST',
    body: { title: 'Theming', content: 'Set the --ai-chat-accent custom property to change the accent colour of the widget.' },
  });
});
after(async () => {
  await api.service.close();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
});

const ask = { messages: [{ role: 'user', content: 'How do I change the accent colour?' }] };

describe('LLM responder', () => {
  it('answers from the model, grounded with knowledge passages, citing them', async () => {
    mode = 'ok';
    const { res, body } = await api.json('/v1/chat', { method: 'POST', body: ask });
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(body.data.source, 'llm');
    assert.equal(body.data.message.content, 'The accent is --ai-chat-accent [1].');
    assert.equal(body.data.citations[0].title, 'Theming');
    const request = received.at(-1);
    assert.equal(request.model, 'fake-model');
    assert.equal(request.messages[0].role, 'system');
    assert.match(request.messages[0].content, /\[1\] Theming\nSet the --ai-chat-accent/);
    assert.deepEqual(request.messages.at(-1), ask.messages[0]);
  });

  it('streams the model deltas and stores the full text', async () => {
    mode = 'ok';
    const res = await api.call('/v1/chat', { method: 'POST', body: { ...ask, stream: true } });
    const frames = parseSseBody(await res.text());
    const deltas = frames.filter((f) => f.event === 'delta').map((f) => f.data.text);
    assert.deepEqual(deltas, ['The ', 'accent ', 'is ', '--ai-chat-accent ', '[1].']);
    const done = frames.at(-1)!;
    assert.equal(done.event, 'done');
    const history = (await api.json(`/v1/chat/history?conversation_id=${done.data.data.conversation_id}`)).body.data.items;
    assert.equal(history[1].content, deltas.join(''));
    assert.equal(history[1].source, 'llm');
  });

  it('maps a provider failure to 502 upstream_error (JSON) and an error frame (stream)', async () => {
    mode = 'fail';
    const json = await api.json('/v1/chat', { method: 'POST', body: ask });
    assert.equal(json.res.status, 502);
    assert.equal(json.body.error.code, 'upstream_error');
    assert.doesNotMatch(JSON.stringify(json.body), /boom|127\.0\.0\.1/);
    const res = await api.call('/v1/chat', { method: 'POST', body: { ...ask, stream: true } });
    assert.equal(res.status, 200);
    const frames = parseSseBody(await res.text());
    assert.equal(frames[0]!.event, 'meta');
    const last = frames.at(-1)!;
    assert.equal(last.event, 'error');
    assert.equal(last.data.success, false);
    assert.equal(last.data.error.code, 'upstream_error');
    // A failed turn stores nothing.
    const history = await api.json(`/v1/chat/history?conversation_id=${frames[0]!.data.conversation_id}`);
    assert.equal(history.res.status, 404);
  });

  it('a 502 is not kept for an Idempotency-Key: the retry really retries', async () => {
    mode = 'fail';
    const headers = { 'idempotency-key': 'llm-retry' };
    assert.equal((await api.call('/v1/chat', { method: 'POST', body: ask, headers })).status, 502);
    mode = 'ok';
    const retry = await api.call('/v1/chat', { method: 'POST', body: ask, headers });
    assert.equal(retry.status, 200);
    assert.equal(retry.headers.get('idempotent-replayed'), null);
  });
});

