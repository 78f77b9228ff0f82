// Idempotency-Key on POSTs: replays, conflicts, streamed requests, and no duplicate messages.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createService, type Service } from '../src/index.ts';
import type { PreparedTurn } from '../src/turns/turn.ts';
import { clientFor, shopTraining, startTestService, type TestClient } from './support/core.ts';
import { holdTraining } from './support/hold-training.ts';
import { parseSseBody } from './support/sse.ts';
import { testDatabase } from './support/test-database.ts';

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
    const training = holdTraining(api.service.deps.nlu); // the first request trains until released
    const first = api.call('/v1/bots', { method: 'POST', body, headers });
    try {
      await training.started;
      const second = await api.json('/v1/bots', { method: 'POST', body, headers });
      assert.equal(second.res.status, 409);
      assert.equal(second.body.error.code, 'request_in_progress');
    } finally {
      training.release();
    }
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

/** Puts a key back into the state a crash between "turn committed" and "answer recorded" leaves. */
async function crashAfterCommit(service: Service, key: string, how: 'running' | 'deleted') {
  const rows = service.deps.db.updateTable('idempotency_keys').where('key', '=', key);
  if (how === 'running') await rows.set({ state: 'running', response_status: null, response_body: null }).execute();
  else await service.deps.db.deleteFrom('idempotency_keys').where('key', '=', key).execute();
}

async function countIn(service: Service, conversationId: string, content?: string) {
  let query = service.deps.db.selectFrom('messages').select('id').where('conversation_id', '=', conversationId);
  if (content !== undefined) query = query.where('content', '=', content);
  return (await query.execute()).length;
}

describe('Idempotency-Key across a crash after the turn was stored', () => {
  it('a retry of a chat turn whose answer was lost replays the stored reply and stores nothing', async () => {
    const init = { method: 'POST', body: { messages: [{ role: 'user', content: 'hello' }], bot_id: botId }, headers: { 'idempotency-key': 'lost-chat' } };
    const first = await api.json('/v1/chat', init);
    assert.equal(first.res.status, 200);
    await crashAfterCommit(api.service, 'lost-chat', 'deleted');
    const retry = await api.json('/v1/chat', init);
    assert.equal(retry.res.status, 200, JSON.stringify(retry.body));
    assert.equal(retry.res.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(retry.body.data, first.body.data);
    assert.equal(await messageCount(first.body.data.conversation_id), 2);
    // the replay's answer is recorded again: the next retry is an ordinary middleware replay
    const third = await api.call('/v1/chat', init);
    assert.equal(third.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual((await third.json()).data, first.body.data);
    assert.equal(await messageCount(first.body.data.conversation_id), 2);
  });

  it('a streamed retry gets the stored reply in its done frame', async () => {
    const body = { messages: [{ role: 'user', content: 'hello' }], bot_id: botId, stream: true };
    const init = { method: 'POST', body, headers: { 'idempotency-key': 'lost-stream' } };
    const first = parseSseBody(await (await api.call('/v1/chat', init)).text()).find((f) => f.event === 'done')!.data;
    await crashAfterCommit(api.service, 'lost-stream', 'deleted');
    const retry = await api.call('/v1/chat', init);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    const frames = parseSseBody(await retry.text());
    assert.equal(frames.find((f) => f.event === 'meta')!.data.conversation_id, first.data.conversation_id);
    assert.deepEqual(frames.find((f) => f.event === 'done')!.data.data, first.data);
    assert.equal(await messageCount(first.data.conversation_id), 2);
  });

  it('a bot message retry replays user message, reply and entities', async () => {
    const shop = (await api.json('/v1/bots', { method: 'POST', body: { name: 'Shop', training: shopTraining } })).body.data.id;
    const init = { method: 'POST', body: { message: 'track order ORD-123456', user_id: 'lost-bot' }, headers: { 'idempotency-key': 'lost-bot' } };
    const first = await api.json(`/v1/bots/${shop}/messages`, init);
    assert.equal(first.res.status, 200, JSON.stringify(first.body));
    assert.ok(first.body.data.entities.length > 0, 'the fixture must extract an entity for this check to mean anything');
    await crashAfterCommit(api.service, 'lost-bot', 'deleted');
    const retry = await api.json(`/v1/bots/${shop}/messages`, init);
    assert.equal(retry.res.status, 200, JSON.stringify(retry.body));
    assert.equal(retry.res.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(retry.body.data, first.body.data);
    assert.equal(await messageCount(first.body.data.conversation_id), 2);
  });

  it('the same key with another request is refused even when the key row is gone', async () => {
    const headers = { 'idempotency-key': 'lost-reused' };
    const first = await api.json('/v1/chat', { method: 'POST', body: { messages: [{ role: 'user', content: 'hello' }] }, headers });
    await crashAfterCommit(api.service, 'lost-reused', 'deleted');
    const other = await api.json('/v1/chat', { method: 'POST', body: { messages: [{ role: 'user', content: 'something else' }] }, headers });
    assert.equal(other.res.status, 409);
    assert.equal(other.body.error.code, 'idempotency_key_reused');
    const viaBot = await api.json(`/v1/bots/${botId}/messages`, { method: 'POST', body: { message: 'hello', user_id: 'u' }, headers });
    assert.equal(viaBot.res.status, 409);
    assert.equal(viaBot.body.error.code, 'idempotency_key_reused');
    assert.equal(await messageCount(first.body.data.conversation_id), 2);
  });

  it('two racing requests with one key store one turn and both answer it', async () => {
    const { deps } = api.service;
    const account = (await deps.accounts.authenticate(api.apiKey))!.id;
    const tag = { key: 'race-chat', requestHash: 'race-chat-hash' };
    const request = { messages: [{ role: 'user' as const, content: 'a racing hello' }], bot_id: botId };
    // both pass the lookup before either stores (what the middleware's lock cannot prevent once a
    // running row was freed while its request still ran)
    const turns = await Promise.all([deps.turns.prepare(account, request, { idempotency: tag }), deps.turns.prepare(account, request, { idempotency: tag })]);
    assert.ok(turns.every((t) => !t.replay));
    const answer = async (turn: PreparedTurn) => {
      for await (const event of deps.turns.run(turn, new AbortController().signal)) if (event.type === 'done') return event.turn;
      throw new Error('no reply');
    };
    const replies = await Promise.all(turns.map(answer));
    assert.equal(replies[0]!.reply.id, replies[1]!.reply.id);
    assert.equal(replies[0]!.reply.conversation_id, replies[1]!.reply.conversation_id);
    assert.equal(await countIn(api.service, replies[0]!.reply.conversation_id), 2);
    const orphans = await deps.db.selectFrom('conversations').select('id').where('id', 'in', turns.map((t) => t.conversationId)).execute();
    assert.equal(orphans.length, 1, 'the losing request must not leave an empty conversation behind');

    const botTag = { key: 'race-bot', requestHash: 'race-bot-hash' };
    // the bot endpoint's turn: the user's open conversation with the bot
    const botRequest = { messages: [{ role: 'user' as const, content: 'hello' }], bot_id: botId, user_id: 'racer', openConversation: true };
    const botTurns = await Promise.all([0, 1].map(() => deps.turns.prepare(account, botRequest, { idempotency: botTag })));
    const outcomes = await Promise.all(botTurns.map(answer));
    assert.equal(outcomes[0]!.user.id, outcomes[1]!.user.id);
    assert.equal(outcomes.filter((o) => o.replayed).length, 1);
    assert.equal(await countIn(api.service, outcomes[0]!.reply.conversation_id), 2);
  });

  it('after a restart a key left running proceeds (embedded database) and replays the stored turn', async () => {
    const database = await testDatabase({ persistent: true });
    const options = { ...database.options, seed: false, logLevel: 'silent' as const };
    let service: Service | undefined;
    try {
      service = await createService(options);
      const { apiKey } = await service.createAccount();
      const chatInit = { method: 'POST', body: { messages: [{ role: 'user', content: 'hello before the crash' }] }, headers: { 'idempotency-key': 'restart-chat' } };
      const first = await clientFor(service, apiKey).json('/v1/chat', chatInit);
      assert.equal(first.res.status, 200);
      await crashAfterCommit(service, 'restart-chat', 'running');
      const stuck = await clientFor(service, apiKey).json('/v1/chat', chatInit);
      assert.equal(stuck.body.error?.code, 'request_in_progress', 'a fresh running row still answers 409 in the same process');
      await service.close();
      service = undefined;

      service = await createService(options);
      const client = clientFor(service, apiKey);
      if (database.kind === 'postgres') {
        // Another process may still run it: the row is freed only by its age, not by a restart.
        const again = await client.json('/v1/chat', chatInit);
        assert.equal(again.body.error?.code, 'request_in_progress');
        await service.deps.db.updateTable('idempotency_keys').set({ created_at: new Date(Date.now() - 11 * 60_000) }).where('key', '=', 'restart-chat').execute();
      }
      const retry = await client.json('/v1/chat', chatInit);
      assert.equal(retry.res.status, 200, JSON.stringify(retry.body));
      assert.deepEqual(retry.body.data, first.body.data);
      assert.equal(await countIn(service, first.body.data.conversation_id, 'hello before the crash'), 1);
      assert.equal(await countIn(service, first.body.data.conversation_id), 2);
    } finally {
      await service?.close(); // an open database would keep the test process alive
      await database.cleanup();
    }
  });
});
