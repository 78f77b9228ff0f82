// The analytics reports in a time zone (`tz`): a date `from` / `to` is that zone's midnight, day
// buckets start at its midnights (23 hours on the day daylight saving starts), a zone half an hour
// off UTC is bucketed from the raw rows (the hourly rollups cannot split an hour), and an unknown
// zone is a 400 at `tz` on every report.
// PGlite by default; PostgreSQL + Redis with AI_CHAT_TEST_DATABASE_URL / AI_CHAT_TEST_REDIS_URL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../src/index.ts';
import { clientFor, type TestClient } from './support/core.ts';
import { createTestService } from './support/test-database.ts';

let service: Service;
let api: TestClient;
let accountId: string;

/** A conversation with one question and its answer at `at` (through the rollup triggers). */
async function conversationAt(at: string, name: string): Promise<void> {
  const db = service.deps.db;
  const id = `conv_tz${name}${accountId.slice(-8)}`;
  await db.insertInto('conversations').values({ id, account_id: accountId, user_id: 'u', created_at: new Date(at) }).execute();
  await db
    .insertInto('messages')
    .values([
      { id: `msg_${id}u`, account_id: accountId, conversation_id: id, role: 'user', content: 'hello', created_at: new Date(at) },
      { id: `msg_${id}a`, account_id: accountId, conversation_id: id, role: 'assistant', content: 'Hi!', source: 'intent', intent: 'greeting', confidence: 0.9, latency_ms: 5, created_at: new Date(at) },
    ])
    .execute();
}

async function report(path: string) {
  const { res, body } = await api.json(`/v1/analytics/${path}`);
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.data;
}

const conversationsPerBucket = (usage: { series: { start: string; conversations: number }[] }) => usage.series.map((b) => [b.start, b.conversations]);

before(async () => {
  service = await createTestService();
  const account = await service.createAccount();
  accountId = account.accountId;
  api = clientFor(service, account.apiKey);
  await conversationAt('2026-03-10T23:30:00Z', 'berlin'); // 11 March, 00:30 in Berlin
  await conversationAt('2026-03-29T22:30:00Z', 'dst'); // 30 March, 00:30 summer time in Berlin
  await conversationAt('2026-03-20T18:45:00Z', 'kolkata'); // 21 March, 00:15 in Kolkata (UTC+5:30)
});
after(() => service?.close());

describe('analytics in a time zone', () => {
  it('counts a date in the zone\'s own day, on every report', async () => {
    const berlin = 'from=2026-03-11&to=2026-03-11&tz=Europe/Berlin';
    const utc = 'from=2026-03-11&to=2026-03-11';
    const usage = await report(`usage?granularity=day&${berlin}`);
    assert.equal(usage.from, '2026-03-10T23:00:00.000Z');
    assert.deepEqual(conversationsPerBucket(usage), [['2026-03-10T23:00:00.000Z', 1]]);
    assert.equal((await report(`usage?granularity=day&${utc}`)).totals.conversations, 0, 'in UTC it was the 10th');
    assert.equal((await report(`performance?${berlin}`)).replies, 1);
    assert.deepEqual((await report(`topics?${berlin}`)).intents, [{ intent: 'greeting', count: 1 }]);
    assert.equal((await report(`performance?from=2026-03-10&to=2026-03-10`)).replies, 1, 'the same reply is the 10th in UTC');
    assert.equal((await report(`performance?from=2026-03-10&to=2026-03-10&tz=Europe/Berlin`)).replies, 0);
  });

  it('starts day buckets at the zone\'s midnights, 23 hours apart when daylight saving starts', async () => {
    const usage = await report('usage?granularity=day&from=2026-03-29&to=2026-03-30&tz=Europe/Berlin');
    assert.deepEqual(conversationsPerBucket(usage), [
      ['2026-03-28T23:00:00.000Z', 0],
      ['2026-03-29T22:00:00.000Z', 1],
    ]);
  });

  it('buckets a zone half an hour off UTC from the raw rows, exactly', async () => {
    // the UTC hour 18:00–19:00 of the 20th holds the Kolkata conversation, but it is the 21st there
    const usage = await report('usage?granularity=day&from=2026-03-20&to=2026-03-21&tz=Asia/Kolkata');
    assert.deepEqual(conversationsPerBucket(usage), [
      ['2026-03-19T18:30:00.000Z', 0],
      ['2026-03-20T18:30:00.000Z', 1],
    ]);
    const hours = await report('usage?granularity=hour&from=2026-03-20T18:00:00Z&to=2026-03-20T19:59:59Z&tz=Asia/Kolkata');
    assert.deepEqual(conversationsPerBucket(hours), [
      ['2026-03-20T17:30:00.000Z', 0],
      ['2026-03-20T18:30:00.000Z', 1],
      ['2026-03-20T19:30:00.000Z', 0],
    ]);
  });

  it('refuses an unknown zone at tz with the envelope, on every report', async () => {
    for (const path of ['usage?', 'performance?', 'topics?', 'feedback?']) {
      for (const tz of ['Mars/Olympus_Mons', encodeURIComponent('Europe/Berlin; drop table x'), 'x'.repeat(65)]) {
        const { res, body } = await api.json(`/v1/analytics/${path}tz=${tz}`);
        assert.equal(res.status, 400, `${path} ${tz}`);
        assert.equal(body.success, false);
        assert.equal(body.error.code, 'validation_failed');
        assert.equal(body.error.param, 'tz');
      }
    }
  });
});
