// POST /v1/chat with an OpenAI-compatible provider: fake-openai on a loopback port (a real HTTP
// server, not a mock of our own code). Grounding, streaming, and upstream failures.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clientFor, startTestService, type TestClient } from './support/core.ts';
import { FAKE_REPLY, FAKE_REPLY_DELTAS, FAKE_SECRET, startFakeOpenAi, type FakeOpenAi } from './support/fake-openai.ts';
import { parseSseBody } from './support/sse.ts';

let api: TestClient;
let fake: FakeOpenAi;

before(async () => {
  fake = await startFakeOpenAi();
  // The configured model name is the fake's scenario: a well-behaved stream unless a test overrides it.
  api = await startTestService({ llm: { baseUrl: fake.baseUrl, model: 'stream', timeoutMs: 5000 } });
  await api.json('/v1/knowledge', {
    method: 'POST',
    body: { title: 'Theming', content: 'Set the --ai-chat-accent custom property to change the accent colour of the widget.' },
  });
});
after(async () => {
  await api.service.close();
  await fake.close();
});

const ask = { messages: [{ role: 'user', content: 'How do I change the accent colour?' }] };

describe('LLM responder', () => {
  it('answers from the model, grounded with knowledge passages, citing them', async () => {
    fake.scenarioOverride = null;
    const { res, body } = await api.json('/v1/chat', { method: 'POST', body: ask });
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(body.data.source, 'llm');
    assert.equal(body.data.message.content, FAKE_REPLY);
    assert.equal(body.data.citations[0].title, 'Theming');
    const request = fake.requests.at(-1)!.body as any;
    assert.equal(request.model, 'stream');
    assert.equal(request.messages[0].role, 'system');
    assert.match(request.messages[0].content, /cite them as \[1\]/);
    assert.match(request.messages[0].content, /\[1\] Theming\nSet the --ai-chat-accent/);
    assert.deepEqual(request.messages.at(-1), ask.messages[0]);
  });

  it('streams the model deltas and stores the full text', async () => {
    fake.scenarioOverride = null;
    const res = await api.call('/v1/chat', { method: 'POST', body: { ...ask, stream: true } });
    const frames = parseSseBody(await res.text());
    const deltas = frames.filter((f) => f.event === 'delta').map((f) => f.data.text);
    assert.deepEqual(deltas, FAKE_REPLY_DELTAS);
    const done = frames.at(-1)!;
    assert.equal(done.event, 'done');
    const history = (await api.json(`/v1/chat/history?conversation_id=${done.data.data.conversation_id}`)).body.data.items;
    assert.equal(history[1].content, deltas.join(''));
    assert.equal(history[1].source, 'llm');
  });

  it('maps a provider failure to 502 upstream_error (JSON) and an error frame (stream)', async () => {
    fake.scenarioOverride = 'server-error'; // a 500 whose body holds FAKE_SECRET
    const json = await api.json('/v1/chat', { method: 'POST', body: ask });
    assert.equal(json.res.status, 502);
    assert.equal(json.body.error.code, 'upstream_error');
    assert.ok(!JSON.stringify(json.body).includes(FAKE_SECRET), 'the upstream body does not leak');
    assert.doesNotMatch(JSON.stringify(json.body), /127\.0\.0\.1/);
    const res = await api.call('/v1/chat', { method: 'POST', body: { ...ask, stream: true } });
    assert.equal(res.status, 200);
    const text = await res.text();
    assert.ok(!text.includes(FAKE_SECRET), 'the upstream body does not leak into the stream');
    const frames = parseSseBody(text);
    assert.equal(frames[0]!.event, 'meta');
    const last = frames.at(-1)!;
    assert.equal(last.event, 'error');
    assert.equal(last.data.success, false);
    assert.equal(last.data.error.code, 'upstream_error');
    // A failed turn stores nothing.
    const history = await api.json(`/v1/chat/history?conversation_id=${frames[0]!.data.conversation_id}`);
    assert.equal(history.res.status, 404);
  });

  it('grounds the model with a passage stored twice only once, and cites it once', async () => {
    fake.scenarioOverride = null;
    const tenant = clientFor(api.service, (await api.service.createAccount()).apiKey);
    const content = 'Set the --ai-chat-accent custom property to change the accent colour of the widget.';
    for (const title of ['Theming', 'Theming (imported again)']) {
      const res = await tenant.json('/v1/knowledge', { method: 'POST', body: { title, content } });
      assert.equal(res.res.status, 201, JSON.stringify(res.body));
    }
    const { body } = await tenant.json('/v1/chat', { method: 'POST', body: ask });
    assert.equal(body.data.source, 'llm', JSON.stringify(body));
    assert.equal(body.data.citations.length, 1, JSON.stringify(body.data.citations));
    const system = (fake.requests.at(-1)!.body as any).messages[0].content as string;
    assert.equal(system.split(content).length - 1, 1, system);
    assert.doesNotMatch(system, /^\[2\] /m, 'a second passage');
  });

  it('a 502 is not kept for an Idempotency-Key: the retry really retries', async () => {
    fake.scenarioOverride = 'server-error';
    const headers = { 'idempotency-key': 'llm-retry' };
    assert.equal((await api.call('/v1/chat', { method: 'POST', body: ask, headers })).status, 502);
    fake.scenarioOverride = null;
    const upstreamCalls = fake.requests.length;
    const retry = await api.call('/v1/chat', { method: 'POST', body: ask, headers });
    assert.equal(retry.status, 200);
    assert.equal(retry.headers.get('idempotent-replayed'), null);
    assert.equal(fake.requests.length, upstreamCalls + 1, 'the retry reached the provider');
    assert.equal((await retry.json()).data.message.content, FAKE_REPLY);
  });
});

