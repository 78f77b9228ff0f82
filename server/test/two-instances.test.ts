// Two instances of the service on one PostgreSQL and one Redis, as a deployment behind a load
// balancer runs them: a client's requests land on either, and nothing may depend on
// which one. Rate limits are one budget (also covered sequentially by redis.test.ts), an
// Idempotency-Key is one key, and a training job runs once. Knowledge writes searched across
// instances: knowledge-incremental.test.ts. Needs AI_CHAT_TEST_DATABASE_URL and AI_CHAT_TEST_REDIS_URL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../src/index.ts';
import { caller } from './support/api.ts';
import { parseSseBody } from './support/sse.ts';
import { sharedServices, TEST_DATABASE_URL, TEST_REDIS_URL, type SharedServices } from './support/test-database.ts';

const skip = TEST_DATABASE_URL && TEST_REDIS_URL ? false : 'needs a shared PostgreSQL and Redis: set AI_CHAT_TEST_DATABASE_URL and AI_CHAT_TEST_REDIS_URL';

const EXAMPLES = [
  ...['what does it cost', 'how much is the plan', 'price of the subscription'].map((input) => ({ input, output: 'Plans start at 20 dollars a month.' })),
  ...['hello there', 'hi', 'good morning'].map((input) => ({ input, output: 'Hello! How can I help?' })),
];

describe('two instances on one PostgreSQL + Redis', () => {
  let shared: SharedServices | undefined;
  let a: Service;
  let b: Service;
  before(async () => {
    if (skip) return;
    shared = await sharedServices(2);
    [a, b] = shared.instances as [Service, Service];
  });
  after(() => shared?.close());

  it('a burst split across both instances gets exactly the budget, not a budget per instance', { skip }, async () => {
    const { apiKey } = await a.createAccount({ name: 'burst', rateLimit: { points: 10, durationSeconds: 60 } });
    const [onA, onB] = [caller(a, apiKey), caller(b, apiKey)];
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? onB : onA)('/v1/bots')));
    const statuses = answers.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 200).length, 10, `statuses: ${statuses.join(',')}`);
    assert.equal(statuses.filter((s) => s === 429).length, 20);
    for (const r of answers.filter((r) => r.status === 429)) assert.equal(r.body.error.code, 'rate_limited');
  });

  it('an Idempotency-Key retried on the other instance answers the stored turn (JSON)', { skip }, async () => {
    const { apiKey } = await a.createAccount();
    const init = { body: { messages: [{ role: 'user', content: 'hello there' }], user_id: 'retry-json' }, headers: { 'idempotency-key': 'cross-json' } };
    const first = await caller(a, apiKey)('/v1/chat', init);
    assert.equal(first.status, 200);
    const retry = await caller(b, apiKey)('/v1/chat', init);
    assert.equal(retry.status, 200);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(retry.body.data, first.body.data);
    assert.equal(await storedMessages(a, first.body.data.conversation_id), 2);
  });

  it('an Idempotency-Key retried on the other instance answers the stored turn (stream)', { skip }, async () => {
    const { apiKey } = await a.createAccount();
    const init = {
      body: { messages: [{ role: 'user', content: 'hello there' }], user_id: 'retry-stream', stream: true },
      headers: { 'idempotency-key': 'cross-stream' },
    };
    const first = await caller(a, apiKey)('/v1/chat', init);
    const done = parseSseBody(first.body).find((f) => f.event === 'done')!.data;
    assert.equal(done.success, true);
    const retry = await caller(b, apiKey)('/v1/chat', init);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(retry.body.data, done.data);
    assert.equal(await storedMessages(a, done.data.conversation_id), 2);
  });

  it('one Idempotency-Key sent to both instances at once stores one turn', { skip }, async () => {
    const { apiKey } = await a.createAccount();
    const init = { body: { messages: [{ role: 'user', content: 'hello there' }], user_id: 'racer' }, headers: { 'idempotency-key': 'cross-race' } };
    const answers = await Promise.all([caller(a, apiKey)('/v1/chat', init), caller(b, apiKey)('/v1/chat', init)]);
    for (const r of answers) {
      // The loser either waits out the winner and replays it, or is told the winner is still running.
      if (r.status === 409) assert.equal(r.body.error.code, 'request_in_progress');
      else assert.equal(r.status, 200);
    }
    const stored = answers.filter((r) => r.status === 200);
    assert.ok(stored.length >= 1);
    const conversationId = stored[0]!.body.data.conversation_id;
    for (const r of stored) assert.equal(r.body.data.conversation_id, conversationId);
    assert.equal(await storedMessages(a, conversationId), 2);
    const { rows } = await countTurns(a, 'racer');
    assert.equal(rows, 2, 'one user message and one reply in all');
  });

  it('training started on both instances at once runs one job, once', { skip }, async () => {
    const { apiKey } = await a.createAccount();
    const [onA, onB] = [caller(a, apiKey), caller(b, apiKey)];
    const agent = (await onA('/v1/agents', { body: { name: 'Shared agent', examples: EXAMPLES } })).body.data;
    const starts = await Promise.all([onA(`/v1/agents/${agent.id}/train?wait=true`, { body: {} }), onB(`/v1/agents/${agent.id}/train?wait=true`, { body: {} })]);
    const statuses = starts.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 409], JSON.stringify(starts.map((r) => r.body)));
    const jobs = (await onB(`/v1/agents/${agent.id}/jobs`)).body.data.items;
    assert.equal(jobs.length, 1);
    assert.equal(jobs[0].status, 'succeeded');
    assert.equal((await onB(`/v1/agents/${agent.id}`)).body.data.status, 'ready');
  });

  it('a job another instance failed as interrupted stays failed: its late outcome is not recorded', { skip }, async () => {
    const { accountId, apiKey } = await a.createAccount();
    const agent = (await caller(a, apiKey)('/v1/agents', { body: { name: 'Slow agent', examples: EXAMPLES } })).body.data;
    const { job, done } = await a.deps.trainingJobs.start(accountId, agent.id);
    // What another instance does to a job whose heartbeat went stale (refuseIfActive, recoverInterrupted).
    await b.deps.db
      .updateTable('training_jobs')
      .set({ status: 'failed', finished_at: new Date(), error: JSON.stringify({ code: 'interrupted', message: 'stale' }) })
      .where('id', '=', job.id)
      .execute();
    await done;
    const row = await b.deps.db.selectFrom('training_jobs').select(['status', 'error']).where('id', '=', job.id).executeTakeFirstOrThrow();
    assert.equal(row.status, 'failed');
    assert.deepEqual(row.error, { code: 'interrupted', message: 'stale' });
    const stored = await b.deps.db.selectFrom('agents').select(['model_job_id']).where('id', '=', agent.id).executeTakeFirstOrThrow();
    assert.notEqual(stored.model_job_id, job.id, 'the interrupted job did not install its model');
  });
});

async function storedMessages(service: Service, conversationId: string): Promise<number> {
  const rows = await service.deps.db.selectFrom('messages').select('id').where('conversation_id', '=', conversationId).execute();
  return rows.length;
}

async function countTurns(service: Service, userId: string): Promise<{ rows: number }> {
  const rows = await service.deps.db
    .selectFrom('messages as m')
    .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
    .select('m.id')
    .where('c.user_id', '=', userId)
    .execute();
  return { rows: rows.length };
}
