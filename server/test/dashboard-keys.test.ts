// API keys through the dashboard: created with a label, scope and expiry (the secret shown once and
// never stored in the browser), listed, revoked — and a revoked or expired key stops working within
// 1 second, also on a second instance sharing the same PostgreSQL + Redis. Read-only keys: GET only.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashKey } from '../src/accounts/service.ts';
import type { Service } from '../src/index.ts';
import { KEY_CACHE_TTL_MS } from '../src/keys/cache.ts';
import { caller } from './support/api.ts';
import { DashboardClient, uniqueEmail } from './support/dashboard.ts';
import { createTestService, sharedServices, TEST_DATABASE_URL, TEST_REDIS_URL, type SharedServices } from './support/test-database.ts';

const CHAT = { body: { messages: [{ role: 'user', content: 'hello' }] } };

/** Polls until `check` holds, for at most `ms` (the bound the issue sets); returns the time it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    assert.ok(performance.now() - started < ms, `not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return performance.now() - started;
}

describe('API keys in the dashboard', () => {
  let service: Service;
  let owner: DashboardClient;
  /** How far the service's key clock runs ahead of real time (an expiry test moves it). */
  let clockAhead = 0;

  before(async () => {
    service = await createTestService({ keyClock: () => Date.now() + clockAhead });
    owner = new DashboardClient(service);
    assert.equal((await owner.signUp(uniqueEmail('owner'))).status, 201);
  });
  after(() => service.close());

  it('creates a key whose secret is shown once, not cached, never in a cookie, and not in the list', async () => {
    const created = await owner.call('POST', '/dashboard/api/keys', { body: { label: 'CI' } });
    assert.equal(created.status, 201);
    const { key, secret } = created.body.data;
    assert.match(secret, /^aicw_sk_/);
    assert.equal(created.headers.get('cache-control'), 'no-store');
    assert.deepEqual(created.setCookies, []);
    assert.equal(key.prefix, secret.slice(0, 12));
    assert.deepEqual(
      { label: key.label, scope: key.scope, status: key.status, expires_at: key.expires_at, last_used_at: key.last_used_at },
      { label: 'CI', scope: 'full', status: 'active', expires_at: null, last_used_at: null },
    );

    const listed = await owner.call('GET', '/dashboard/api/keys');
    assert.ok(!JSON.stringify(listed.body).includes(secret), 'the list never holds a secret');
    assert.ok(listed.body.data.items.some((item: { id: string }) => item.id === key.id));
  });

  it('a key created here calls /v1/chat (200); revoked, it answers 401 within 1 second', async () => {
    const { key, secret } = (await owner.call('POST', '/dashboard/api/keys', { body: { label: 'revoke me' } })).body.data;
    const api = caller(service, secret);
    assert.equal((await api('/v1/chat', CHAT)).status, 200);
    const listed = (await owner.call('GET', '/dashboard/api/keys')).body.data.items.find((item: { id: string }) => item.id === key.id);
    assert.ok(listed.last_used_at, 'last use is recorded');

    const revoked = await owner.call('DELETE', `/dashboard/api/keys/${key.id}`);
    assert.equal(revoked.status, 200);
    assert.equal(revoked.body.data.revoked, true);
    // The revoking instance drops its cached entry before it answers: no wait at all here.
    assert.equal((await api('/v1/chat', CHAT)).status, 401);
    const res = await api('/v1/bots');
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'invalid_api_key');
    assert.ok(!(await owner.call('GET', '/dashboard/api/keys')).body.data.items.some((item: { id: string }) => item.id === key.id));
    assert.equal((await owner.call('DELETE', `/dashboard/api/keys/${key.id}`)).status, 404, 'revoked once');
  });

  it('a read-only key may GET (200) but not POST (403 insufficient_scope)', async () => {
    const { secret } = (await owner.call('POST', '/dashboard/api/keys', { body: { label: 'reports', scope: 'read_only' } })).body.data;
    const api = caller(service, secret);
    assert.equal((await api('/v1/bots')).status, 200);
    assert.equal((await api('/v1/analytics/usage')).status, 200);
    for (const [path, options] of [
      ['/v1/chat', CHAT],
      ['/v1/bots', { body: { name: 'nope' } }],
      ['/v1/knowledge/kb_missing123456', { method: 'PUT', body: { title: 'x' } }],
    ] as const) {
      const res = await api(path, options);
      assert.equal(res.status, 403, path);
      assert.equal(res.body.error.code, 'insufficient_scope');
      assert.match(res.body.error.message, /read-only/);
    }
    const bots = await api('/v1/bots');
    assert.equal(bots.body.data.items.length, 0, 'the refused POST created nothing');
  });

  it('an expiring key works until its expiry and answers 401 from that instant on', async () => {
    const expiresAt = new Date(Date.now() + 60_000);
    const created = await owner.call('POST', '/dashboard/api/keys', { body: { label: 'short', expires_at: expiresAt.toISOString() } });
    assert.equal(created.status, 201);
    assert.equal(created.body.data.key.expires_at, expiresAt.toISOString());
    const api = caller(service, created.body.data.secret);
    assert.equal((await api('/v1/bots')).status, 200, 'live before its expiry');
    try {
      clockAhead = expiresAt.getTime() - Date.now() - 1_000;
      assert.equal((await api('/v1/bots')).status, 200, 'live a second before its expiry (served from the cache)');
      clockAhead = expiresAt.getTime() - Date.now();
      assert.equal((await api('/v1/bots')).status, 401, 'refused at its expiry, though cached');
      const listed = (await owner.call('GET', '/dashboard/api/keys')).body.data.items.find(
        (item: { id: string }) => item.id === created.body.data.key.id,
      );
      assert.equal(listed.status, 'expired');
    } finally {
      clockAhead = 0;
    }
  });

  it('an expired key is refused by the database read too, not only by the cache', async () => {
    const expiresAt = new Date(Date.now() + 60_000);
    const created = await owner.call('POST', '/dashboard/api/keys', { body: { label: 'never cached', expires_at: expiresAt.toISOString() } });
    const api = caller(service, created.body.data.secret);
    try {
      clockAhead = 61_000; // its first use comes after its expiry: no cache entry answers
      assert.equal((await api('/v1/bots')).status, 401);
    } finally {
      clockAhead = 0;
    }
  });

  it('refuses a past or malformed expiry and an unknown scope (400)', async () => {
    for (const body of [
      { label: 'x', expires_at: new Date(Date.now() - 60_000).toISOString() },
      { label: 'x', expires_at: 'tomorrow' },
      { label: 'x', scope: 'admin' },
      { label: '' },
    ]) {
      const res = await owner.call('POST', '/dashboard/api/keys', { body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, 'validation_failed');
    }
  });

  it('answers 404 for a key of another account', async () => {
    const other = await service.createAccount();
    const foreign = await service.deps.db.selectFrom('api_keys').select('id').where('account_id', '=', other.accountId).executeTakeFirstOrThrow();
    const res = await owner.call('DELETE', `/dashboard/api/keys/${foreign.id}`);
    assert.equal(res.status, 404);
    assert.equal((await caller(service, other.apiKey)('/v1/bots')).status, 200);
  });

  it("a user key labelled like the service's own key survives a restart's re-issue", async () => {
    const { secret } = (await owner.call('POST', '/dashboard/api/keys', { body: { label: 'demo-proxy' } })).body.data;
    await service.deps.accounts.issueLabelledKey(service.devAccountId, 'demo-proxy');
    assert.equal((await caller(service, secret)('/v1/bots')).status, 200);
  });

  it('shows the plan: the rate limit and this window\'s use', async () => {
    const { secret } = (await owner.call('POST', '/dashboard/api/keys', { body: { label: 'plan' } })).body.data;
    const api = caller(service, secret);
    const before = (await owner.call('GET', '/dashboard/api/plan')).body.data;
    assert.deepEqual(before.rate_limit, { limit: 120, window_seconds: 60, source: 'default' });
    const last = await api('/v1/bots');
    const plan = (await owner.call('GET', '/dashboard/api/plan')).body.data;
    assert.equal(plan.current_window.remaining, Number(last.headers.get('x-ratelimit-remaining')));
    assert.equal(plan.current_window.used, 120 - plan.current_window.remaining);
    assert.equal(plan.current_window.reset, Number(last.headers.get('x-ratelimit-reset')));
  });
});

describe('key revocation across instances (PostgreSQL + Redis)', () => {
  const skip = TEST_DATABASE_URL ? false : 'needs a shared PostgreSQL: set AI_CHAT_TEST_DATABASE_URL (and AI_CHAT_TEST_REDIS_URL)';
  let shared: SharedServices | undefined;
  const ownerEmail = uniqueEmail('owner');

  before(async () => {
    if (!skip) shared = await sharedServices(2);
  });
  after(() => shared?.close());

  it('a key revoked on one instance answers 401 on the other within 1 second', { skip }, async () => {
    const [a, b] = shared!.instances as [Service, Service];
    const owner = new DashboardClient(a);
    assert.equal((await owner.signUp(ownerEmail)).status, 201);
    for (let round = 0; round < 3; round++) {
      const { key, secret } = (await owner.call('POST', '/dashboard/api/keys', { body: { label: `shared ${round}` } })).body.data;
      const onB = caller(b, secret);
      assert.equal((await onB('/v1/chat', CHAT)).status, 200, 'B knows the key (and caches it)');
      assert.equal((await onB('/v1/bots')).status, 200);
      assert.equal((await owner.call('DELETE', `/dashboard/api/keys/${key.id}`)).status, 200);
      const took = await within(1000, async () => (await onB('/v1/bots')).status === 401);
      assert.ok(took <= 1000);
    }
    // The dashboard of B sees the same sessions and keys.
    const viaB = new DashboardClient(b);
    viaB.cookie = owner.cookie;
    viaB.csrf = owner.csrf;
    assert.equal((await viaB.call('GET', '/dashboard/api/keys')).status, 200);
  });

  it('with Redis, the revocation reaches the other instance by message, not only by the TTL', { skip: skip || (TEST_REDIS_URL ? false : 'needs AI_CHAT_TEST_REDIS_URL') }, async () => {
    const [a, b] = shared!.instances as [Service, Service];
    const owner = new DashboardClient(a);
    assert.equal((await owner.signIn(ownerEmail)).status, 200);
    const { key, secret } = (await owner.call('POST', '/dashboard/api/keys', { body: { label: 'pubsub' } })).body.data;
    const cached = await b.deps.accounts.authenticate(secret);
    assert.ok(cached);
    // Pin B's entry far past the TTL: only the Redis message can remove it now.
    b.deps.accounts.keys.set(hashKey(secret), cached, performance.now() + 3_600_000, null);
    assert.equal((await owner.call('DELETE', `/dashboard/api/keys/${key.id}`)).status, 200);
    await within(1000, async () => b.deps.accounts.keys.get(hashKey(secret)) === undefined);
    assert.equal((await caller(b, secret)('/v1/bots')).status, 401);
  });

  it('the cache TTL alone (no Redis message) bounds a revocation made outside the service', { skip }, async () => {
    const [a, b] = shared!.instances as [Service, Service];
    const { accountId, apiKey } = await a.createAccount();
    const onB = caller(b, apiKey);
    assert.equal((await onB('/v1/bots')).status, 200);
    await shared!.database.execute(`update api_keys set revoked_at = now() where account_id = '${accountId}'`);
    await within(KEY_CACHE_TTL_MS + 500, async () => (await onB('/v1/bots')).status === 401);
  });
});
