// Idempotency-Key on POSTs: replays, conflicts, streamed requests, and no duplicate messages.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clientFor, startTestService, type TestClient } from './support/core.ts';
import { parseSseBody } from './support/sse.ts';

let api: TestClient;
let botId: string;

const training = { intents: [{ name: 'greeting', examples: ['hello', 'hi there', 'hey'], responses: ['Hello!'] }] };

before(async () => {
  api = await startTestService();
  botId = (await api.json('/v1/bots', { method: 'POST', body: { name: 'Idem', training } })).body.data.id;
});
after(() => api.service.close());

async function messageCount(conversationId: string) {
  const rows = await api.service.deps.db.selectFrom('messages').select('id').where('conversation_id', '=', conversationId).execute();
  return rows.length;
}

describe('Idempotency-Key', () => {
  it('replays a bot message with the same body and stores it once', async () => {
    const init = { method: 'POST', body: { message: 'hello', user_id: 'idem-1' }, headers: { 'idempotency-key': 'key-bot-1' } };
    const first = await api.call(`/v1/bots/${botId}/messages`, init);
    const firstText = await first.text();
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const again = await api.call(`/v1/bots/${botId}/messages`, init);
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(await again.text(), firstText);
    assert.equal(await messageCount(JSON.parse(firstText).data.conversation_id), 2);
  });

  it('answers 409 idempotency_key_reused for the same key with another body', async () => {
    const headers = { 'idempotency-key': 'key-chat-1' };
    const first = await api.json('/v1/chat', { method: 'POST', body: { messages: [{ role: 'user', content: 'hello' }] }, headers });
    assert.equal(first.res.status, 200);
    const other = await api.json('/v1/chat', { method: 'POST', body: { messages: [{ role: 'user', content: 'goodbye' }] }, headers });
    assert.equal(other.res.status, 409);
    assert.equal(other.body.error.code, 'idempotency_key_reused');
    assert.equal(await messageCount(first.body.data.conversation_id), 2);
  });

  it('keys are per account', async () => {
    const tenant = clientFor(api.service, (await api.service.createAccount()).apiKey);
    const headers = { 'idempotency-key': 'shared-key' };
    const body = { messages: [{ role: 'user', content: 'hello' }] };
    const mine = await api.json('/v1/chat', { method: 'POST', body, headers });
    const theirs = await tenant.json('/v1/chat', { method: 'POST', body, headers });
    assert.equal(theirs.res.headers.get('idempotent-replayed'), null);
    assert.notEqual(theirs.body.data.conversation_id, mine.body.data.conversation_id);
  });

  it('answers 409 request_in_progress while the first request runs', async () => {
    const headers = { 'idempotency-key': 'slow-key', 'content-type': 'application/json' };
    const body = JSON.stringify({ name: 'Slow', training: { intents: Array.from({ length: 60 }, (_, i) => ({ name: `t${i}`, examples: [`question ${i} alpha${i}`, `query ${i} beta${i}`, `ask ${i} gamma${i}`], responses: ['x'] })) } });
    const first = api.call('/v1/bots', { method: 'POST', body, headers });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const second = await api.json('/v1/bots', { method: 'POST', body, headers });
    assert.equal(second.res.status, 409);
    assert.equal(second.body.error.code, 'request_in_progress');
    assert.equal((await first).status, 201);
    const third = await api.call('/v1/bots', { method: 'POST', body, headers });
    assert.equal(third.status, 201);
    assert.equal(third.headers.get('idempotent-replayed'), 'true');
  });

  it('stores a streamed chat and replays it as JSON', async () => {
    const init = { method: 'POST', body: { messages: [{ role: 'user', content: 'hello' }], bot_id: botId, stream: true }, headers: { 'idempotency-key': 'stream-key' } };
    const streamed = await api.call('/v1/chat', init);
    const frames = parseSseBody(await streamed.text());
    const done = frames.find((f) => f.event === 'done')!.data;
    const replay = await api.call('/v1/chat', init);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.match(replay.headers.get('content-type') ?? '', /application\/json/);
    assert.deepEqual(await replay.json(), done);
    assert.equal(await messageCount(done.data.conversation_id), 2);
  });

  it('rejects a malformed key', async () => {
    const { res, body } = await api.json('/v1/chat', { method: 'POST', body: { messages: [{ role: 'user', content: 'x' }] }, headers: { 'idempotency-key': 'x'.repeat(256) } });
    assert.equal(res.status, 400);
    assert.equal(body.error.param, 'Idempotency-Key');
  });
});
