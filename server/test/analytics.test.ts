// Analytics from recorded traffic over a real PGlite: usage totals match the requests made, every
// bucket is present, validation; performance percentiles, fallback and resolution rates.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Service } from '../src/index.ts';
import { caller, memoryService, type Caller } from './support/api.ts';

let service: Service;

before(async () => {
  service = await memoryService();
});
after(() => service.close());

async function account(): Promise<{ id: string; call: Caller }> {
  const { accountId, apiKey } = await service.createAccount();
  return { id: accountId, call: caller(service, apiKey) };
}

describe('usage recorder', () => {
  // The timeout fails a recorder that never writes a lone record (settled() would wait forever).
  it('writes batched records: all of a burst larger than one batch, and a lone one without flush()', { timeout: 30_000 }, async () => {
    const { id } = await account();
    const count = async () =>
      Number((await service.deps.db.selectFrom('api_requests').select((eb) => eb.fn.countAll().as('n')).where('account_id', '=', id).executeTakeFirstOrThrow()).n);
    const record = { accountId: id, method: 'GET', route: '/v1/recorder-test', status: 200, latencyMs: 1.4 };
    for (let i = 0; i < 2_500; i++) service.deps.usage.record(record);
    await service.deps.usage.flush();
    assert.equal(await count(), 2_500);
    service.deps.usage.record(record);
    // no flush(): the batch of this turn is written on its own (settled() writes nothing itself)
    await service.deps.usage.settled();
    assert.equal(await count(), 2_501);
  });
});

describe('usage report', () => {
  it('counts exactly this account\'s requests, errors and routes', async () => {
    const { call } = await account();
    const other = await account();
    await other.call('/v1/knowledge'); // another tenant's traffic must not show up

    assert.equal((await call('/v1/knowledge', { body: { title: 'A', content: 'alpha' } })).status, 201);
    assert.equal((await call('/v1/knowledge')).status, 200);
    assert.equal((await call('/v1/knowledge')).status, 200);
    assert.equal((await call('/v1/knowledge/kb_missing12345')).status, 404);
    assert.equal((await call('/v1/knowledge', { body: {} })).status, 400);

    const res = await call('/v1/analytics/usage?granularity=hour');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const report = res.body.data;
    assert.equal(report.granularity, 'hour');
    const deleted = { bots: 0, agents: 0, knowledge_entries: 0, conversations: 0, messages: 0 };
    assert.deepEqual(report.totals, { requests: 5, errors: 2, messages: 0, conversations: 0, deleted });
    const endpoints = Object.fromEntries(
      report.endpoints.map((e: { method: string; route: string; status: number; count: number }) => [`${e.method} ${e.route} ${e.status}`, e.count]),
    );
    assert.deepEqual(endpoints, {
      'GET /v1/knowledge 200': 2,
      'POST /v1/knowledge 201': 1,
      'POST /v1/knowledge 400': 1,
      'GET /v1/knowledge/:entry_id 404': 1,
    });
    // 7 days of hours by default: 169 or 170 buckets depending on alignment, all present, in order.
    assert.ok(report.series.length >= 168 && report.series.length <= 170, String(report.series.length));
    assert.equal(report.series.reduce((n: number, b: { requests: number }) => n + b.requests, 0), 5);
    const starts = report.series.map((b: { start: string }) => Date.parse(b.start));
    assert.ok(starts.every((s: number, i: number) => i === 0 || s - starts[i - 1] === 3_600_000));

    // The report call itself is recorded, and shows up in the next report.
    const again = (await call('/v1/analytics/usage')).body.data;
    assert.equal(again.totals.requests, 6);
    assert.equal(again.granularity, 'day');
    assert.equal(again.series.length, 8);
  });

  it('counts a row written in the same millisecond as `to` (the database keeps microseconds)', async () => {
    const { id, call } = await account();
    // 500 µs after the millisecond `to` names: after `to` itself, but inside the range it means
    await service.deps.db
      .insertInto('api_requests')
      .values({ account_id: id, method: 'GET', route: '/v1/precision-test', status: 200, latency_ms: 1, created_at: sql<Date>`'2026-01-01T00:00:00.000500Z'::timestamptz` })
      .execute();
    const { body } = await call('/v1/analytics/usage?from=2026-01-01T00:00:00Z&to=2026-01-01T00:00:00.000Z&granularity=hour');
    assert.equal(body.data.totals.requests, 1, JSON.stringify(body));
  });

  it('counts messages and conversations of real bot traffic', async () => {
    const { call } = await account();
    const bot = await call('/v1/bots', {
      body: {
        name: 'Greeter',
        training: { intents: [{ name: 'hello', examples: ['hello', 'hi there', 'good morning'], responses: ['Hi!'] }] },
      },
    });
    assert.equal(bot.status, 201, JSON.stringify(bot.body));
    for (const [message, user] of [['hello', 'u1'], ['hi there', 'u1'], ['hello', 'u2']]) {
      assert.equal((await call(`/v1/bots/${bot.body.data.id}/messages`, { body: { message, user_id: user } })).status, 200);
    }
    const report = (await call('/v1/analytics/usage')).body.data;
    assert.equal(report.totals.messages, 6, 'three user messages and three replies');
    assert.equal(report.totals.conversations, 2);
  });

  it('covers an explicit range with empty buckets and validates the query', async () => {
    const { call } = await account();
    const res = await call('/v1/analytics/usage?from=2026-01-01&to=2026-01-03&granularity=day');
    assert.equal(res.status, 200);
    assert.equal(res.body.data.from, '2026-01-01T00:00:00.000Z');
    assert.equal(res.body.data.to, '2026-01-03T23:59:59.999Z');
    assert.deepEqual(
      res.body.data.series.map((b: { start: string; requests: number }) => [b.start, b.requests]),
      [['2026-01-01T00:00:00.000Z', 0], ['2026-01-02T00:00:00.000Z', 0], ['2026-01-03T00:00:00.000Z', 0]],
    );
    const bad: [string, string, string][] = [
      ['from=2026-01-05&to=2026-01-01', 'validation_failed', 'from'],
      ['from=yesterday', 'validation_failed', 'from'],
      ['to=2026-02-31', 'validation_failed', 'to'],
      ['from=2026-01-01T10:00', 'validation_failed', 'from'],
      ['granularity=week', 'validation_failed', 'granularity'],
      ['from=2020-01-01&to=2026-01-01&granularity=hour', 'validation_failed', 'from'],
      ['bucket=1', 'unknown_parameter', 'bucket'],
    ];
    for (const [qs, code, param] of bad) {
      const r = await call(`/v1/analytics/usage?${qs}`);
      assert.equal(r.status, 400, qs);
      assert.equal(r.body.error.code, code, qs);
      assert.equal(r.body.error.param, param, qs);
    }
    assert.equal((await call('/v1/analytics/usage', { method: 'POST', body: {} })).status, 405);
  });
});

describe('performance report', () => {
  it('computes percentiles, fallback, confidence and resolution from stored replies', async () => {
    const { id, call } = await account();
    const agent = (await call('/v1/agents', { body: { name: 'Measured' } })).body.data;
    const store = service.deps.conversations;
    const reply = (latencyMs: number, source: 'intent' | 'fallback', confidence: number) => ({
      role: 'assistant' as const, content: 'r', source, intent: null, confidence, citations: [], suggestions: [], latencyMs,
    });
    const user = { role: 'user' as const, content: 'q' };
    // Conversation 1 ends resolved, conversation 2 ends in a fallback.
    const c1 = await store.create(id, { agentId: agent.id });
    await store.append(id, c1.id, [user, reply(100, 'fallback', 0.2), user, reply(200, 'intent', 0.9)]);
    const c2 = await store.create(id, { agentId: agent.id });
    await store.append(id, c2.id, [user, reply(300, 'intent', 0.8), user, reply(400, 'fallback', 0.1)]);
    // Traffic of no agent: excluded when filtering by agent.
    const c3 = await store.create(id, {});
    await store.append(id, c3.id, [user, reply(5000, 'intent', 1)]);

    const res = await call(`/v1/analytics/performance?agent_id=${agent.id}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const report = res.body.data;
    assert.equal(report.agent_id, agent.id);
    assert.equal(report.bot_id, null);
    assert.equal(report.replies, 4);
    assert.equal(report.conversations, 2);
    assert.deepEqual(report.latency_ms, { p50: 250, p95: 385, p99: 397 });
    assert.equal(report.fallback_rate, 0.5);
    assert.equal(report.mean_confidence, 0.5);
    assert.equal(report.resolution_rate, 0.5);

    const all = (await call('/v1/analytics/performance')).body.data;
    assert.equal(all.replies, 5);
    assert.equal(all.resolution_rate, round(2 / 3));
  });

  it('answers nulls without replies, 404 for unknown ids, 400 for bad ranges', async () => {
    const { call } = await account();
    const empty = (await call('/v1/analytics/performance')).body.data;
    assert.equal(empty.replies, 0);
    assert.deepEqual(empty.latency_ms, { p50: null, p95: null, p99: null });
    assert.equal(empty.fallback_rate, null);
    assert.equal(empty.resolution_rate, null);
    const other = await account();
    const foreign = (await other.call('/v1/agents', { body: { name: 'Theirs' } })).body.data;
    const unknown = await call(`/v1/analytics/performance?agent_id=${foreign.id}`);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.param, 'agent_id');
    assert.equal((await call('/v1/analytics/performance?bot_id=bot_unknown12345')).body.error.param, 'bot_id');
    assert.equal((await call('/v1/analytics/performance?agent_id=nope')).body.error.code, 'validation_failed');
    assert.equal((await call('/v1/analytics/performance?from=2026-02-01&to=2026-01-01')).body.error.param, 'from');
  });
});

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
