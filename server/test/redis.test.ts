// Two service instances with one Redis (REDIS_URL) share one rate-limit budget per account, as two
// processes behind a load balancer must. Needs a real Redis: set AI_CHAT_TEST_REDIS_URL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createService, type Service } from '../src/index.ts';
import { caller } from './support/api.ts';
import { TEST_REDIS_URL, testDatabase, type TestDatabase } from './support/test-database.ts';

const skip = TEST_REDIS_URL ? false : 'needs a real Redis: set AI_CHAT_TEST_REDIS_URL (e.g. redis://127.0.0.1:6379)';

describe('rate limits in Redis', () => {
  let database: TestDatabase;
  const instances: Service[] = [];

  before(async () => {
    if (skip) return;
    database = await testDatabase();
    for (let i = 0; i < 2; i++) {
      instances.push(await createService({ ...database.options, redisUrl: TEST_REDIS_URL, seed: false, logLevel: 'silent' }));
    }
  });
  after(async () => {
    for (const service of instances) await service.close();
    await database?.cleanup();
  });

  it('shares one budget between two instances of the service', { skip }, async () => {
    const [a, b] = instances as [Service, Service];
    const { accountId, apiKey } = await a.createAccount({ name: 'shared', rateLimit: { points: 3, durationSeconds: 60 } });
    if (database.kind === 'pglite') {
      // Two live PGlite instances cannot share data, so the second one gets the same tenant and key
      // rows (the same account id, hence the same Redis key). On PostgreSQL both use one database.
      const account = await a.deps.db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirstOrThrow();
      const keys = await a.deps.db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).execute();
      await b.deps.db.insertInto('accounts').values(account).execute();
      await b.deps.db.insertInto('api_keys').values(keys).execute();
    }

    const order = [a, b, a, b, a];
    const seen: { status: number; remaining: string | null }[] = [];
    for (const service of order) {
      const res = await caller(service, apiKey)('/v1/bots');
      seen.push({ status: res.status, remaining: res.headers.get('x-ratelimit-remaining') });
    }
    assert.deepEqual(seen, [
      { status: 200, remaining: '2' },
      { status: 200, remaining: '1' },
      { status: 200, remaining: '0' },
      { status: 429, remaining: '0' },
      { status: 429, remaining: '0' },
    ]);
  });
});
