// An account's plan is no longer one budget shared by its keys, its dashboard and its widget
// visitors: a handful of visitors (calls the token proxy makes with `AI-Chat-Caller: widget`) could
// starve the dashboard and every key. Each now has a budget of the plan's size, and each visitor a
// quarter of the visitors' budget; `X-RateLimit-*` tells the budget that applied.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../../../server/src/index.ts';
import { caller, type Caller } from '../../../server/test/support/api.ts';
import { DashboardClient, uniqueEmail } from '../../../server/test/support/dashboard.ts';
import { createTestService, sharedServices, TEST_DATABASE_URL, TEST_REDIS_URL, type SharedServices } from '../../../server/test/support/test-database.ts';

const PLAN = { points: 8, durationSeconds: 60 };
const SHARE = 2; // a quarter of the plan per visitor

describe('separate budgets for API keys, the dashboard and widget visitors', () => {
  let service: Service;
  let api: Caller;
  let dashboard: DashboardClient;
  let visitors = 0;
  const nextVisitor = () => `anon_visitor-${process.pid}-${++visitors}-000000000000`;
  const asVisitor = (visitor: string | null, path = '/v1/bots') =>
    api(path, { headers: { 'AI-Chat-Caller': 'widget', ...(visitor !== null && { 'AI-Chat-Visitor': visitor }) } });
  const limitOf = (res: { headers: Headers }) => ({
    limit: Number(res.headers.get('x-ratelimit-limit')),
    remaining: Number(res.headers.get('x-ratelimit-remaining')),
  });

  // A fresh service (and account) per test: every test starts from full budgets.
  const setUp = async () => {
    await service?.close();
    service = await createTestService({ rateLimit: PLAN, seed: false });
    api = caller(service, service.devApiKey!);
    dashboard = new DashboardClient(service);
    // the sign-up is not under /v1: it spends none of these budgets
    assert.equal((await dashboard.signUp(uniqueEmail('owner'))).status, 201);
  };
  before(setUp);
  after(() => service?.close());

  it('visitors spending all of theirs leave the API key and the dashboard untouched', async () => {
    for (let v = 0; v < PLAN.points / SHARE; v++) {
      const visitor = nextVisitor();
      for (let i = 0; i < SHARE; i++) assert.equal((await asVisitor(visitor)).status, 200);
    }
    const refused = await asVisitor(nextVisitor());
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, 'rate_limited');
    assert.deepEqual(limitOf(refused), { limit: PLAN.points, remaining: 0 }, 'the visitors’ budget refused it');
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);

    const byKey = await api('/v1/bots');
    assert.equal(byKey.status, 200);
    assert.deepEqual(limitOf(byKey), { limit: PLAN.points, remaining: PLAN.points - 1 });
    const byDashboard = await dashboard.call('GET', '/dashboard/api/v1/bots');
    assert.equal(byDashboard.status, 200);
    assert.deepEqual(limitOf(byDashboard), { limit: PLAN.points, remaining: PLAN.points - 1 });
  });

  it('one visitor over its share is refused while the other visitors still get theirs', async () => {
    await setUp();
    const busy = nextVisitor();
    const first = await asVisitor(busy);
    assert.deepEqual(limitOf(first), { limit: SHARE, remaining: SHARE - 1 }, 'the tightest budget: its own share');
    for (let i = 1; i < SHARE; i++) assert.equal((await asVisitor(busy)).status, 200);
    const over = await asVisitor(busy);
    assert.equal(over.status, 429);
    assert.deepEqual(limitOf(over), { limit: SHARE, remaining: 0 });

    const other = await asVisitor(nextVisitor());
    assert.equal(other.status, 200);
    // the busy visitor's refused call spent nothing of the visitors' budget: SHARE + this one
    assert.equal(limitOf(other).remaining, SHARE - 1);
    assert.equal((await asVisitor(null)).status, 200, 'a widget call without a visitor id counts in the visitors’ budget');
  });

  it('an API key spending all of its budget leaves the visitors and the dashboard untouched, and the reverse', async () => {
    await setUp();
    for (let i = 0; i < PLAN.points; i++) assert.equal((await api('/v1/bots')).status, 200);
    const refused = await api('/v1/bots');
    assert.equal(refused.status, 429);
    assert.deepEqual(limitOf(refused), { limit: PLAN.points, remaining: 0 });
    assert.equal((await asVisitor(nextVisitor())).status, 200);
    assert.equal((await dashboard.call('GET', '/dashboard/api/v1/bots')).status, 200);

    // the dashboard's own budget, spent: the visitors still answer
    for (let i = 1; i < PLAN.points; i++) assert.equal((await dashboard.call('GET', '/dashboard/api/v1/bots')).status, 200);
    assert.equal((await dashboard.call('GET', '/dashboard/api/v1/bots')).status, 429);
    assert.equal((await asVisitor(nextVisitor())).status, 200);
  });

  it('counts keyless callers per address, an IPv6 client per /64', async () => {
    await setUp();
    const keyless = (ip: string) =>
      service.fetch(new Request('http://127.0.0.1/v1/openapi.json'), { incoming: { socket: { remoteAddress: ip } } });
    const statuses: number[] = [];
    for (let i = 1; i <= PLAN.points + 1; i++) statuses.push((await keyless(`2001:db8:5:6::${i.toString(16)}`)).status);
    assert.deepEqual(statuses, [...Array(PLAN.points).fill(200), 429], 'another address of the same /64 is the same client');
    assert.equal((await keyless('2001:db8:5:7::1')).status, 200, 'the next /64 is another client');
  });

  it('refuses a malformed visitor id with 400 validation_failed', async () => {
    for (const visitor of ['', 'a b', 'x'.repeat(129), 'é']) {
      const res = await api('/v1/bots', { headers: { 'AI-Chat-Caller': 'widget', 'AI-Chat-Visitor': visitor } });
      assert.equal(res.status, 400, JSON.stringify(visitor));
      assert.equal(res.body.error.code, 'validation_failed');
      assert.equal(res.body.error.param, 'AI-Chat-Visitor');
    }
  });
});

describe('separate budgets across instances (PostgreSQL + Redis)', () => {
  const skip = TEST_DATABASE_URL && TEST_REDIS_URL ? false : 'needs AI_CHAT_TEST_DATABASE_URL and AI_CHAT_TEST_REDIS_URL';
  let shared: SharedServices | undefined;
  before(async () => {
    if (skip) return;
    shared = await sharedServices(2, { rateLimit: PLAN });
  });
  after(() => shared?.close());

  it('a visitor’s share and the visitors’ budget are counted over every instance; the keys’ stays whole', { skip }, async () => {
    const [a, b] = shared!.instances as [Service, Service];
    const { apiKey } = await a.createAccount({ name: 'shared budgets' });
    const [onA, onB] = [caller(a, apiKey), caller(b, apiKey)];
    const widget = (visitor: string) => ({ headers: { 'AI-Chat-Caller': 'widget', 'AI-Chat-Visitor': visitor } });
    assert.equal((await onA('/v1/bots', widget('anon_shared-1'))).status, 200);
    assert.equal((await onB('/v1/bots', widget('anon_shared-1'))).status, 200);
    assert.equal((await onA('/v1/bots', widget('anon_shared-1'))).status, 429, 'its share, spent on two instances');
    for (const visitor of ['anon_shared-2', 'anon_shared-2', 'anon_shared-3', 'anon_shared-3', 'anon_shared-4', 'anon_shared-4']) {
      assert.equal((await (visitor.endsWith('3') ? onB : onA)('/v1/bots', widget(visitor))).status, 200);
    }
    assert.equal((await onB('/v1/bots', widget('anon_shared-5'))).status, 429, 'the visitors’ budget, spent on two instances');
    const byKey = await onB('/v1/bots');
    assert.equal(byKey.status, 200);
    assert.equal(byKey.headers.get('x-ratelimit-remaining'), String(PLAN.points - 1));
  });
});
