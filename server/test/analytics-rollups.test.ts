// The analytics rollups of migration 008: after any mix of stored traffic and deletes,
// every report read through the rollups equals the same report computed from the raw rows alone,
// for ranges down to the millisecond. Property test (fast-check) over random traffic.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import { AnalyticsReports } from '../src/analytics/reports.ts';
import { rebuildRollups } from '../src/analytics/rollups.ts';
import { deleteConversationOwner } from '../src/conversations/purge.ts';
import type { Service } from '../src/index.ts';
import { memoryService } from './support/api.ts';

let service: Service;
before(async () => {
  service = await memoryService();
});
after(() => service.close());

const HOUR = 3_600_000;
const SPAN = 3 * 24 * HOUR;
const QUESTIONS = ['Do you sell hats', 'do you sell HATS  ', 'Where is my order', 'where is my order', 'Refund?'];

const turn = fc.record({
  question: fc.constantFrom(...QUESTIONS),
  fallback: fc.boolean(),
  intent: fc.constantFrom('hours', 'greeting', 'refund', null),
  latency: fc.option(fc.integer({ min: 0, max: 40 }), { nil: null }),
  confidence: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
  gapMs: fc.integer({ min: 0, max: 2 * HOUR }),
  // a teammate's private note after the reply: counted nowhere, by the rollups or the raw reads
  note: fc.boolean(),
});
const conversation = fc.record({
  owner: fc.constantFrom(0, 1, null),
  startMs: fc.integer({ min: 0, max: SPAN }),
  turns: fc.array(turn, { minLength: 1, maxLength: 4 }),
});
const traffic = fc.record({
  conversations: fc.array(conversation, { minLength: 1, maxLength: 12 }),
  deleteConversations: fc.array(fc.nat(), { maxLength: 3 }),
  deleteBot: fc.boolean(),
  ranges: fc.array(fc.record({ fromMs: fc.integer({ min: -HOUR, max: SPAN + HOUR }), lengthMs: fc.integer({ min: 0, max: SPAN }) }), {
    minLength: 1,
    maxLength: 3,
  }),
  granularity: fc.constantFrom('hour' as const, 'day' as const),
});

type Traffic = typeof traffic extends fc.Arbitrary<infer T> ? T : never;

/** Stores `t` in a fresh account through the triggers (inserts, then the deletes); returns what the checks need. */
async function storeTraffic(t: Traffic): Promise<{ accountId: string; botIds: string[]; base: number }> {
  const db = service.deps.db;
  const { accountId } = await service.createAccount();
  const base = Date.now() - SPAN - HOUR;
  const botIds = [0, 1].map((i) => `bot_rollup${i}${accountId.slice(-10)}`);
  await db
    .insertInto('bots')
    .values(botIds.map((id) => ({ id, account_id: accountId, name: id, language: 'en', status: 'ready', training: JSON.stringify({}) })) as never)
    .execute();
  const conversationIds: string[] = [];
  for (const [i, c] of t.conversations.entries()) {
    const id = `conv_rollup${i}${accountId.slice(-10)}`;
    conversationIds.push(id);
    const created = new Date(base + c.startMs);
    await db
      .insertInto('conversations')
      .values({ id, account_id: accountId, bot_id: c.owner === null ? null : botIds[c.owner]!, user_id: 'u', created_at: created })
      .execute();
    let at = base + c.startMs;
    const rows = c.turns.flatMap((m, k) => {
      at += m.gapMs;
      const asked = new Date(at);
      const answered = new Date(at + (k % 2)); // sometimes the same millisecond
      return [
        { id: `msg_${id}_${k}u`, account_id: accountId, conversation_id: id, role: 'user', content: m.question, created_at: asked },
        {
          id: `msg_${id}_${k}a`, account_id: accountId, conversation_id: id, role: 'assistant', content: 'reply',
          source: m.fallback ? 'fallback' : 'intent', intent: m.fallback ? null : m.intent, confidence: m.confidence,
          latency_ms: m.latency, created_at: answered,
        },
        ...(m.note ? [{ id: `msg_${id}_${k}n`, account_id: accountId, conversation_id: id, role: 'note', content: 'between us', created_at: answered }] : []),
      ];
    });
    // Alternately one statement per conversation and one per message: both trigger paths.
    if (i % 2) await db.insertInto('messages').values(rows).execute();
    else for (const row of rows) await db.insertInto('messages').values(row).execute();
  }
  for (const pick of t.deleteConversations) {
    const id = conversationIds[pick % conversationIds.length]!;
    await service.deps.conversations.delete(accountId, id).catch(() => undefined); // may be gone already
  }
  if (t.deleteBot) await deleteConversationOwner(db, accountId, { bot: botIds[0]! });
  return { accountId, botIds, base };
}

/** Every rollup row of the account, comparable across two ways of building them. */
async function rollupRows(accountId: string): Promise<Record<string, Record<string, unknown>[]>> {
  const tables = ['request_rollups', 'usage_rollups', 'reply_rollups', 'intent_rollups', 'unanswered_rollups', 'reply_conversation_rollups'];
  const snapshot: Record<string, Record<string, unknown>[]> = {};
  // Concurrent sessions count into their own shards (migration 015): compare the totals per row key.
  await sql`select analytics_fold_shards(${accountId})`.execute(service.deps.db);
  for (const table of tables) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)} as t where account_id = ${accountId} order by t::text`.execute(service.deps.db);
    snapshot[table] = rows
      // Under the triggers, an hour whose messages and conversations were all deleted stays as a
      // row of zeros; the backfill writes no row. Every report counts the two the same.
      .filter((row) => table !== 'usage_rollups' || Number(row.messages) !== 0 || Number(row.conversations) !== 0)
      // Floats added in another order (per statement vs per day) may differ in their last bits.
      .map((row) => ('confidence_sum' in row ? { ...row, confidence_sum: Number(Number(row.confidence_sum).toPrecision(12)) } : row));
  }
  return snapshot;
}

describe('analytics rollups', () => {
  it('answer every report exactly as the raw rows do, after writes and deletes', { timeout: 600_000 }, async () => {
    const raw = new AnalyticsReports(service.deps.db, service.deps.usage, false);
    await fc.assert(
      fc.asyncProperty(traffic, async (t) => {
        const { accountId, botIds, base } = await storeTraffic(t);
        for (const range of t.ranges) {
          const from = new Date(base + range.fromMs).toISOString();
          const to = new Date(base + range.fromMs + range.lengthMs).toISOString();
          const query = { from, to };
          assert.deepEqual(await service.deps.analytics.usageReport(accountId, { ...query, granularity: t.granularity }), await raw.usageReport(accountId, { ...query, granularity: t.granularity }));
          for (const filter of [{}, { bot_id: botIds[1]! }]) {
            assert.deepEqual(await service.deps.analytics.performanceReport(accountId, { ...query, ...filter }), await raw.performanceReport(accountId, { ...query, ...filter }));
            assert.deepEqual(
              await service.deps.analytics.topicsReport(accountId, { ...query, ...filter, limit: 50 }),
              await raw.topicsReport(accountId, { ...query, ...filter, limit: 50 }),
            );
          }
        }
      }),
      // No shrinking: each run stores a fresh account, so a shrink of many steps would take minutes.
      { numRuns: 25, endOnFailure: true },
    );
  });

  it('a backfill (rebuildRollups) equals the rollups the triggers kept, after writes and deletes', { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(traffic, async (t) => {
        const { accountId } = await storeTraffic(t);
        await service.deps.db.insertInto('api_requests').values({ account_id: accountId, method: 'GET', route: '/v1/bots', status: 200, latency_ms: 3 }).execute();
        const kept = await rollupRows(accountId);
        await rebuildRollups(service.deps.db, accountId);
        assert.deepEqual(await rollupRows(accountId), kept);
      }),
      { numRuns: 15, endOnFailure: true },
    );
  });

  it('a rebuilt rollup equals the incrementally kept one', async () => {
    // The delete path rebuilds hours and days from the stored rows; the insert path adds to them.
    // Both must agree: rebuild every period of an account written only by inserts and compare.
    const { apiKey, accountId } = await service.createAccount();
    const call = (path: string, body: unknown) =>
      service.app.request(path, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const bot = await (await call('/v1/bots', { name: 'Shop', training: { intents: [{ name: 'hi', examples: ['hello', 'hi there'], responses: ['Hello!'] }] } })).json();
    for (const text of ['hello', 'do you sell hats', 'hi there', 'Do you sell HATS']) {
      assert.equal((await call('/v1/chat', { bot_id: bot.data.id, messages: [{ role: 'user', content: text }] })).status, 200);
    }
    const snapshot = async () => {
      await sql`select analytics_fold_shards(${accountId})`.execute(service.deps.db); // totals per row key, as above
      return Promise.all(
        ['reply_rollups', 'intent_rollups', 'unanswered_rollups', 'reply_conversation_rollups', 'usage_rollups'].map(
          async (table) =>
            (await sql<Record<string, unknown>>`select * from ${sql.table(table)} as t where account_id = ${accountId} order by t::text`.execute(service.deps.db))
              .rows,
        ),
      );
    };
    const kept = await snapshot();
    await sql`select analytics_rebuild(${accountId}, g, analytics_start(g, now())) from unnest(array['hour', 'day']) g`.execute(service.deps.db);
    assert.deepEqual(await snapshot(), kept);
    assert.ok((kept[0] as unknown[]).length > 0, 'the rollups hold the replies');
  });
});
