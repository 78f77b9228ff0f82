// Stop: a client that closes a turn's stream stops the answer. Over a real loopback
// port (the path a browser's abort takes), with fake-openai streaming slowly: the fake sees its
// request aborted, and the turn is stored with the text sent before the stop, marked `stopped`,
// which history shows and the OpenAPI document describes.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { serve, type ServerType } from '@hono/node-server';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { startTestService, type TestClient } from './support/core.ts';
import { startFakeOpenAi, type FakeOpenAi, type FakeRequest } from './support/fake-openai.ts';

let api: TestClient;
let fake: FakeOpenAi;
let server: ServerType;
let origin: string;

before(async () => {
  fake = await startFakeOpenAi();
  // `stall`: one delta ("Partial "), then silence; `slow-stream`: four words 600 ms apart.
  api = await startTestService({ llm: { baseUrl: fake.baseUrl, model: 'stall', timeoutMs: 60_000 } });
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: api.service.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  (server as { closeAllConnections?: () => void }).closeAllConnections?.();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await api.service.close();
  await fake.close();
});

/** POSTs a streamed turn over the port, reads until `until` text arrived, then aborts (Stop). */
async function streamThenStop(path: string, body: unknown, until: string, key: string): Promise<{ conversationId: string }> {
  const controller = new AbortController();
  const res = await fetch(`${origin}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.apiKey}`, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  assert.equal(res.status, 200);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  while (!text.includes(until)) {
    const { value, done } = await reader.read();
    assert.ok(!done, `the stream ended before "${until}": ${text}`);
    text += value;
  }
  controller.abort();
  await reader.cancel().catch(() => undefined);
  const meta = /event: meta\ndata: (.*)\n/.exec(text);
  return { conversationId: JSON.parse(meta![1]!).conversation_id };
}

async function storedMessages(conversationId: string): Promise<any[]> {
  const { res, body } = await api.json(`/v1/chat/history?conversation_id=${conversationId}`);
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.equal(body.data.items.length, 2, JSON.stringify(body.data.items));
  return body.data.items;
}

/** The stop reached the LLM (the fake saw its request cancelled) and the stopped turn was stored. */
async function stopped(upstream: FakeRequest): Promise<void> {
  await upstream.cancelled;
  await api.service.deps.turns.idle();
}

describe('stopping a streamed answer', () => {
  it('/v1/chat: aborts the LLM request and stores the partial reply marked stopped', async () => {
    fake.scenarioOverride = 'stall';
    const requestsBefore = fake.requests.length;
    const ask = { messages: [{ role: 'user', content: 'Tell me everything' }], stream: true };
    const { conversationId } = await streamThenStop('/v1/chat', ask, 'Partial', 'stop-chat-1');
    await stopped(fake.requests[requestsBefore]!);
    const [user, reply] = await storedMessages(conversationId);
    assert.equal(user.role, 'user');
    assert.equal(user.content, 'Tell me everything');
    assert.equal(reply.role, 'assistant');
    assert.equal(reply.content, 'Partial ');
    assert.equal(reply.stopped, true);
    assert.equal(reply.source, 'llm');

    // The served document describes the stored message as history returns it.
    const doc = (await api.json('/v1/openapi.json', { auth: null })).body;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addFormat('date-time', { validate: (s: string) => !Number.isNaN(Date.parse(s)) });
    ajv.addSchema(doc, 'api');
    const validate = ajv.getSchema('api#/components/schemas/Message')!;
    assert.ok(validate(reply), JSON.stringify(validate.errors));
    assert.ok(!validate({ ...reply, stopped: false }), 'stopped is only ever true');
  });

  it('the bot endpoint stops alike; a retry with the same key answers the stopped turn', async () => {
    fake.scenarioOverride = 'slow-stream';
    const bot = (await api.json('/v1/bots', { method: 'POST', body: { name: 'Stopper' } })).body.data;
    const requestsBefore = fake.requests.length;
    const body = { message: 'Count for me', user_id: 'visitor-1', stream: true };
    const { conversationId } = await streamThenStop(`/v1/bots/${bot.id}/messages`, body, 'two', 'stop-bot-1');
    await stopped(fake.requests[requestsBefore]!);
    const [, reply] = await storedMessages(conversationId);
    assert.equal(reply.content, 'one two ');
    assert.equal(reply.stopped, true);

    // The stopped turn is the key's answer: nothing is generated again.
    const retry = await api.call(`/v1/bots/${bot.id}/messages`, { method: 'POST', headers: { 'idempotency-key': 'stop-bot-1' }, body });
    assert.equal(retry.status, 200);
    // (the idempotency layer answers a recorded stream's `done` envelope as JSON)
    const text = await retry.text();
    const done = JSON.parse(/event: done\ndata: (.*)\n/.exec(text)?.[1] ?? text);
    assert.equal(done.data.message.content, 'one two ');
    assert.equal(done.data.message.stopped, true);
    assert.equal(fake.requests.length, requestsBefore + 1);
  });

  it('a JSON (not streamed) turn whose client goes away is stopped and stored alike', async () => {
    fake.scenarioOverride = 'stall';
    const requestsBefore = fake.requests.length;
    const controller = new AbortController();
    const answer = fetch(`${origin}/v1/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'Never mind' }], user_id: 'json-stopper' }),
      signal: controller.signal,
    }).catch((error: Error) => error);
    const upstream = await fake.request(requestsBefore); // the LLM is asked
    controller.abort();
    assert.equal((await answer as Error).name, 'AbortError');
    await stopped(upstream);
    const stored = (await api.json('/v1/chat/history?user_id=json-stopper')).body.data.items;
    assert.equal(stored.length, 2, JSON.stringify(stored));
    assert.equal(stored[0].content, 'Never mind');
    assert.equal(stored[1].stopped, true);
    // the stall sends one word first: whether it was read before the client left is a race
    assert.ok(['', 'Partial '].includes(stored[1].content), stored[1].content);
  });

  it('an answer read to its end is not marked stopped', async () => {
    fake.scenarioOverride = 'stream';
    const res = await api.call('/v1/chat', { method: 'POST', body: { messages: [{ role: 'user', content: 'Hi' }], stream: true } });
    const text = await res.text();
    const done = JSON.parse(/event: done\ndata: (.*)\n/.exec(text)![1]!);
    assert.equal(done.data.message.stopped, undefined);
    const [, reply] = await storedMessages(done.data.conversation_id);
    assert.equal(reply.stopped, undefined);
  });
});
