// Group commit of chat turns (ConversationService.append over db/batcher.ts): concurrent turns of an
// account are stored by one statement, and every turn still gets its own messages, in order, or its
// own error — on PGlite, and on PostgreSQL in the second run.
import assert from 'node:assert/strict';
import type { KyselyPlugin } from 'kysely';
import { after, before, describe, it } from 'node:test';
import type { NewMessage } from '../src/conversations/message-writer.ts';
import { ConversationService } from '../src/conversations/service.ts';
import { newId } from '../src/ids.ts';
import { clientFor, startTestService, type TestClient } from './support/core.ts';

let api: TestClient;
let accountId: string;
let statements = 0;
let store: ConversationService;

/** Counts the statements the store sends. */
const counting: KyselyPlugin = {
  transformQuery: (args) => (statements++, args.node),
  transformResult: async (args) => args.result,
};

before(async () => {
  api = await startTestService();
  const account = await api.service.createAccount();
  accountId = account.accountId;
  api = clientFor(api.service, account.apiKey);
  store = new ConversationService(api.service.deps.db.withPlugin(counting));
});
after(() => api.service.close());

const turn = (question: string, key?: string): NewMessage[] => [
  { role: 'user', content: question, ...(key && { idempotency: { key, requestHash: `hash-${key}` } }) },
  { role: 'assistant', content: `answer to ${question}`, source: 'fallback', intent: null, confidence: null, citations: [], suggestions: [], latencyMs: 3 },
];

async function createBot(): Promise<string> {
  const { res, body } = await api.json('/v1/bots', { method: 'POST', body: { name: 'Group commit' } });
  assert.equal(res.status, 201);
  return body.data.id;
}

describe('group commit of chat turns', () => {
  it('stores 30 concurrent new conversations in one statement, each turn with its own two messages in order', async () => {
    statements = 0;
    const ids = Array.from({ length: 30 }, () => newId('conv'));
    const stored = await Promise.all(ids.map((id, i) => store.append(accountId, id, turn(`question ${i}`), { create: { id, userId: `u${i}` } })));
    assert.equal(statements, 1);
    stored.forEach(([user, reply], i) => {
      assert.equal(user!.conversation_id, ids[i]);
      assert.equal(user!.content, `question ${i}`);
      assert.equal(reply!.role, 'assistant');
      assert.equal(reply!.content, `answer to question ${i}`);
      assert.equal(reply!.conversation_id, ids[i]);
    });
    const history = (await api.json(`/v1/chat/history?conversation_id=${ids[7]}`)).body.data.items;
    assert.deepEqual(history.map((m: { content: string }) => m.content), ['question 7', 'answer to question 7']);
    const conversation = (await api.json(`/v1/conversations/${ids[7]}`)).body.data;
    assert.equal(conversation.user_id, 'u7');
  });

  it('writes a second turn of the same conversation after the first, never in the same statement', async () => {
    const id = newId('conv');
    await store.append(accountId, id, turn('first'), { create: { id } });
    statements = 0;
    const [a, b] = await Promise.all([store.append(accountId, id, turn('second')), store.append(accountId, id, turn('third'))]);
    assert.equal(statements, 2);
    assert.equal(b![0]!.content, 'third');
    const history = (await api.json(`/v1/chat/history?conversation_id=${id}`)).body.data.items;
    assert.deepEqual(
      history.map((m: { content: string }) => m.content),
      ['first', 'answer to first', 'second', 'answer to second', 'third', 'answer to third'],
    );
    assert.equal(a![0]!.content, 'second');
  });

  it('gives a turn of a missing conversation its 404, and stores the others of its batch', async () => {
    const ids = [newId('conv'), newId('conv')];
    const results = await Promise.allSettled([
      store.append(accountId, ids[0]!, turn('kept'), { create: { id: ids[0]! } }),
      store.append(accountId, 'conv_does_not_exist', turn('lost')),
      store.append(accountId, ids[1]!, turn('kept too'), { create: { id: ids[1]! } }),
    ]);
    assert.equal(results[0]!.status, 'fulfilled');
    assert.equal(results[2]!.status, 'fulfilled');
    assert.equal(results[1]!.status, 'rejected');
    assert.equal((results[1] as PromiseRejectedResult).reason.code, 'resource_not_found');
  });

  it('gives a turn for a deleted bot its 404, and stores the others of its batch', async () => {
    const botId = await createBot();
    assert.equal((await api.call(`/v1/bots/${botId}`, { method: 'DELETE' })).status, 200);
    const ids = [newId('conv'), newId('conv'), newId('conv')];
    const results = await Promise.allSettled([
      store.append(accountId, ids[0]!, turn('before'), { create: { id: ids[0]! } }),
      store.append(accountId, ids[1]!, turn('to a deleted bot'), { create: { id: ids[1]!, botId } }),
      store.append(accountId, ids[2]!, turn('after'), { create: { id: ids[2]! } }),
    ]);
    assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
    assert.equal((results[1] as PromiseRejectedResult).reason.code, 'resource_not_found');
    assert.equal((results[1] as PromiseRejectedResult).reason.param, 'bot_id');
  });

  it('stores one of two turns racing with one Idempotency-Key, and the other batch members as usual', async () => {
    const ids = [newId('conv'), newId('conv'), newId('conv')];
    const results = await Promise.allSettled([
      store.append(accountId, ids[0]!, turn('keyed', 'race-key'), { create: { id: ids[0]! } }),
      store.append(accountId, ids[1]!, turn('keyed', 'race-key'), { create: { id: ids[1]! } }),
      store.append(accountId, ids[2]!, turn('unkeyed'), { create: { id: ids[2]! } }),
    ]);
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 2);
    const lost = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.equal(lost?.reason.code, '23505', 'the loser sees the key’s unique violation, which the pipeline answers with the stored turn');
    assert.equal(results[2]!.status, 'fulfilled');
    const found = await store.findKeyedTurn(accountId, { key: 'race-key', requestHash: 'hash-race-key' });
    assert.equal(found?.reply.content, 'answer to keyed');
  });

  it('stores one turn for racing /v1/chat requests with one Idempotency-Key: the others wait (409) or get it', async () => {
    const send = () =>
      api.json('/v1/chat', {
        method: 'POST',
        headers: { 'Idempotency-Key': 'chat-race' },
        body: { messages: [{ role: 'user', content: 'hello there' }], user_id: 'racer' },
      });
    const answers = await Promise.all([send(), send(), send(), send()]);
    const ok = answers.filter(({ res }) => res.status === 200);
    assert.ok(ok.length >= 1);
    for (const { res, body } of answers) if (res.status !== 200) assert.equal(body.error.code, 'request_in_progress');
    assert.equal(new Set(ok.map(({ body }) => body.data.message.id)).size, 1, 'every 200 answers with the one stored reply');
    const again = await send();
    assert.equal(again.res.status, 200);
    assert.equal(again.body.data.message.id, ok[0]!.body.data.message.id);
    const history = (await api.json(`/v1/chat/history?user_id=racer`)).body.data.items;
    assert.equal(history.length, 2);
  });
});
