// Semantic knowledge search with fake-embeddings (a FAKE OpenAI-compatible embeddings server on a
// loopback port whose vectors make synonyms close): a question sharing no word with the right entry
// finds it, an off-topic one still gets the fallback, a failing or hanging endpoint leaves lexical
// answers, and one account never sees another's vectors. On a PostgreSQL without pgvector the
// service starts all the same and says so; search is lexical there.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { SemanticKnowledge } from '../src/embeddings/semantic.ts';
import { clientFor, startTestService, type TestClient } from './support/core.ts';
import { startFakeEmbeddings, type FakeEmbeddings } from './support/fake-embeddings.ts';

let fake: FakeEmbeddings;
let api: TestClient;
let other: TestClient;
let lexical: TestClient;
let semantic: SemanticKnowledge;
let botId: string;
const ids = new Map<string, string>();

const ENTRIES = {
  refunds: { title: 'Refunds', content: 'We reimburse orders within 30 days of purchase.' },
  shipping: { title: 'Shipping', content: 'Parcels leave our warehouse within two days.' },
};
/** Shares no word with the refunds entry: only its meaning is the same. */
const SYNONYM_QUESTION = 'How do I get my money back?';
const OFF_TOPIC = 'What is the weather in Lisbon tomorrow?';

async function add(client: TestClient, entry: { title: string; content: string }): Promise<string> {
  const res = await client.json('/v1/knowledge', { method: 'POST', body: entry });
  assert.equal(res.res.status, 201, JSON.stringify(res.body));
  return res.body.data.id;
}

async function search(client: TestClient, q: string) {
  const res = await client.json(`/v1/knowledge/search?q=${encodeURIComponent(q)}`);
  assert.equal(res.res.status, 200, JSON.stringify(res.body));
  return res.body.data.items as { entry_id: string; relevance: number; score: number }[];
}

let visitor = 0;
async function ask(question: string) {
  const res = await api.json(`/v1/bots/${botId}/messages`, { method: 'POST', body: { message: question, user_id: `v${++visitor}` } });
  assert.equal(res.res.status, 200, JSON.stringify(res.body));
  return res.body.data;
}

before(async () => {
  fake = await startFakeEmbeddings({ apiKey: 'emb-key' });
  api = await startTestService({ embeddings: { baseUrl: fake.baseUrl, apiKey: 'emb-key', model: 'fake-embed', queryTimeoutMs: 1_000, maxRetries: 0 } });
  other = clientFor(api.service, (await api.service.createAccount()).apiKey);
  semantic = api.service.deps.knowledge.semantic!;
  for (const [key, entry] of Object.entries(ENTRIES)) ids.set(key, await add(api, entry));
  await semantic.idle();
  const bot = await api.json('/v1/bots', { method: 'POST', body: { name: 'Shop', knowledge: { tags: [] } } });
  botId = bot.body.data.id;
  lexical = await startTestService();
  await add(lexical, ENTRIES.refunds);
});
after(async () => {
  await api.service.close();
  await lexical.service.close();
  await fake.close();
});
beforeEach(() => {
  fake.mode = null;
});

describe('semantic knowledge search', { skip: false }, () => {
  it('is on with PGlite (pgvector from @electric-sql/pglite-pgvector)', (t) => {
    if (api.service.deps.config.databaseUrl) return t.skip('PostgreSQL: see the pgvector test below');
    assert.equal(semantic.status, 'ready');
    assert.equal(semantic.embedded, 2);
    assert.ok(fake.requests.every((r) => r.authorization === 'Bearer emb-key'));
  });

  it('finds the entry a synonym question means, and answers from it', async (t) => {
    if (semantic.status !== 'ready') return t.skip('no pgvector in this database');
    const [top] = await search(api, SYNONYM_QUESTION);
    assert.equal(top?.entry_id, ids.get('refunds'));
    assert.ok(top!.relevance >= 0.5, `relevance ${top!.relevance}`);
    const reply = await ask(SYNONYM_QUESTION);
    assert.equal(reply.message.source, 'knowledge', reply.message.content);
    assert.equal(reply.message.citations[0].entry_id, ids.get('refunds'));
  });

  it('without embeddings the same question finds nothing to answer from', async () => {
    const hits = await search(lexical, SYNONYM_QUESTION);
    assert.ok(hits.every((hit) => hit.relevance < 0.5), JSON.stringify(hits));
  });

  it('still gives the fallback to an off-topic question', async () => {
    const hits = await search(api, OFF_TOPIC);
    assert.ok(hits.every((hit) => hit.relevance < 0.5), JSON.stringify(hits));
    const reply = await ask(OFF_TOPIC);
    assert.equal(reply.fallback, true, reply.message.content);
  });

  it('answers lexically when the endpoint fails or hangs, never a 500', async () => {
    for (const mode of ['server-error', 'hang', 'garbage'] as const) {
      fake.mode = mode;
      const [top] = await search(api, 'parcels warehouse');
      assert.equal(top?.entry_id, ids.get('shipping'), mode);
      const reply = await ask('When do parcels leave the warehouse?');
      assert.equal(reply.message.source, 'knowledge', `${mode}: ${reply.message.content}`);
    }
  });

  it('leaves a new entry searchable lexically while it cannot be embedded, and embeds it once the endpoint is back', async (t) => {
    if (semantic.status !== 'ready') return t.skip('no pgvector in this database');
    fake.mode = 'server-error';
    const id = await add(api, { title: 'Cancellation', content: 'You can terminate your plan at any time.' });
    await semantic.idle();
    fake.mode = null;
    assert.equal((await search(api, 'terminate plan'))[0]?.entry_id, id);
    assert.notEqual((await search(api, 'how do I unsubscribe'))[0]?.entry_id, id, 'not embedded yet');
    const before = semantic.embedded;
    semantic.kick();
    await semantic.idle();
    assert.equal(semantic.embedded, before + 1);
    assert.equal((await search(api, 'how do I unsubscribe'))[0]?.entry_id, id);
  });

  it("never finds another account's entries by meaning", async (t) => {
    if (semantic.status !== 'ready') return t.skip('no pgvector in this database');
    assert.deepEqual(await search(other, SYNONYM_QUESTION), []);
    const own = await add(other, { title: 'Money back', content: 'Ask support to repay you.' });
    await semantic.idle();
    const hits = await search(other, 'reimbursement');
    assert.deepEqual(hits.map((h) => h.entry_id), [own]);
    assert.ok(!(await search(api, 'reimbursement')).some((h) => h.entry_id === own));
  });
});

describe('semantic search without pgvector', () => {
  it('reports itself unavailable on a PostgreSQL without pgvector, and search works', async (t) => {
    if (!api.service.deps.config.databaseUrl) return t.skip('PGlite always has pgvector');
    const available = semantic.status === 'ready';
    if (available) return t.skip('this PostgreSQL has pgvector');
    assert.equal(semantic.status, 'unavailable');
    assert.equal((await search(api, 'parcels warehouse'))[0]?.entry_id, ids.get('shipping'));
  });
});
