// The dashboard's passthrough /dashboard/api/v1/*: the very same /v1 routes for the signed-in
// user's account, authenticated by the session cookie instead of an API key. Writes need the
// Origin check and the session's X-CSRF-Token; another tenant's data stays invisible (404); the
// requests count against the account's dashboard budget (the plan's size, beside its keys') and
// appear in its usage report.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../src/index.ts';
import { caller } from './support/api.ts';
import { DashboardClient, uniqueEmail } from './support/dashboard.ts';
import { createTestService } from './support/test-database.ts';

const V1 = '/dashboard/api/v1';

describe('the /v1 passthrough of the dashboard', () => {
  let service: Service;
  let owner: DashboardClient;
  let stranger: DashboardClient;

  before(async () => {
    service = await createTestService({ dashboard: { signup: 'open' } });
    owner = new DashboardClient(service);
    assert.equal((await owner.signUp(uniqueEmail('owner'))).status, 201);
    stranger = new DashboardClient(service);
    assert.equal((await stranger.signUp(uniqueEmail('stranger'), undefined, { account_name: 'Other' })).status, 201);
  });
  after(() => service.close());

  it('runs /v1 routes for the session’s account: create, read, chat, with the envelope and rate-limit headers', async () => {
    const created = await owner.call('POST', `${V1}/bots`, { body: { name: 'Via session' } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.success, true);
    assert.equal(created.headers.get('content-security-policy')?.includes("frame-ancestors 'none'"), true);
    assert.equal(created.headers.get('access-control-allow-origin'), null, 'no CORS here');
    assert.ok(created.headers.get('x-ratelimit-limit'));

    const listed = await owner.call('GET', `${V1}/bots`);
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.data.items.map((bot: { name: string }) => bot.name), ['Via session']);

    const chat = await owner.call('POST', `${V1}/chat`, {
      body: { bot_id: created.body.data.id, messages: [{ role: 'user', content: 'hello' }] },
    });
    assert.equal(chat.status, 200, JSON.stringify(chat.body));

    // The same account through an API key sees the same bot.
    const { secret } = (await owner.call('POST', '/dashboard/api/keys', { body: { label: 'compare' } })).body.data;
    const viaKey = await caller(service, secret)(`/v1/bots/${created.body.data.id}`);
    assert.equal(viaKey.status, 200);
    assert.equal(viaKey.body.data.name, 'Via session');
  });

  it('validates exactly like /v1 (400 with the same code and param)', async () => {
    const body = { name: 'x', colour: 'red' };
    const res = await owner.call('POST', `${V1}/bots`, { body });
    assert.equal(res.status, 400);
    assert.deepEqual([res.body.success, res.body.error.code, res.body.error.param], [false, 'unknown_parameter', 'colour']);
    const { secret } = (await owner.call('POST', '/dashboard/api/keys', { body: { label: 'compare errors' } })).body.data;
    const direct = await caller(service, secret)('/v1/bots', { body });
    const withoutRequestId = (envelope: { error: Record<string, unknown> }) => ({ ...envelope, error: { ...envelope.error, request_id: null } });
    assert.deepEqual(withoutRequestId(res.body), withoutRequestId(direct.body), 'the same envelope as /v1');
    const missing = await owner.call('GET', `${V1}/bots/bot_doesnotexist00`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 'resource_not_found');
  });

  it('takes bodies up to the /v1 limit, not the 16 KiB of the rest of /dashboard/api', async () => {
    const res = await owner.call('POST', `${V1}/knowledge`, { body: { title: 'Long', content: 'word '.repeat(6000) } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
  });

  it('answers 401 without a session cookie, and the cookie is no credential on /v1 itself', async () => {
    const res = await owner.call('GET', `${V1}/bots`, { cookie: null });
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'authentication_required');
    const forged = await owner.call('GET', `${V1}/bots`, { cookie: 'x'.repeat(43) });
    assert.equal(forged.status, 401);
    const direct = await owner.call('GET', '/v1/bots');
    assert.equal(direct.status, 401, 'the session cookie does not authenticate /v1');
  });

  it('refuses writes without the CSRF token or from another origin (403 csrf_failed), and creates nothing', async () => {
    const before = (await owner.call('GET', `${V1}/bots`)).body.data.items.length;
    for (const options of [{ csrf: null }, { csrf: 'wrong-token' }, { origin: 'https://evil.example' }, { origin: null }]) {
      const res = await owner.call('POST', `${V1}/bots`, { body: { name: 'forged' }, ...options });
      assert.equal(res.status, 403, JSON.stringify(options));
      assert.equal(res.body.error.code, 'csrf_failed');
    }
    const del = await owner.call('DELETE', `${V1}/bots/bot_doesnotexist00`, { csrf: null });
    assert.equal(del.status, 403);
    assert.equal((await owner.call('GET', `${V1}/bots`)).body.data.items.length, before);
  });

  it('keeps tenants apart: another account’s bot is 404 to read, change or delete', async () => {
    const bot = (await owner.call('POST', `${V1}/bots`, { body: { name: 'Mine' } })).body.data;
    assert.equal((await stranger.call('GET', `${V1}/bots/${bot.id}`)).status, 404);
    assert.equal((await stranger.call('PUT', `${V1}/bots/${bot.id}`, { body: { name: 'Taken' } })).status, 404);
    assert.equal((await stranger.call('DELETE', `${V1}/bots/${bot.id}`)).status, 404);
    assert.ok(!(await stranger.call('GET', `${V1}/bots`)).body.data.items.some((item: { id: string }) => item.id === bot.id));
    assert.equal((await owner.call('GET', `${V1}/bots/${bot.id}`)).body.data.name, 'Mine');
  });

  it('counts against the account’s dashboard budget, not its keys’, and shows up in its usage report by /v1 route', async () => {
    const used = async () => (await owner.call('GET', '/dashboard/api/plan')).body.data.current_window.used as number;
    const start = await used();
    const first = await owner.call('GET', `${V1}/bots`);
    const second = await owner.call('GET', `${V1}/bots`);
    assert.equal(second.headers.get('x-ratelimit-limit'), '120');
    assert.equal(Number(second.headers.get('x-ratelimit-remaining')), Number(first.headers.get('x-ratelimit-remaining')) - 1);
    assert.equal(await used(), start, 'the plan page shows the API keys’ window');

    const usage = await owner.call('GET', `${V1}/analytics/usage`);
    assert.equal(usage.status, 200);
    const routes = usage.body.data.endpoints.map((e: { method: string; route: string }) => `${e.method} ${e.route}`);
    assert.ok(routes.includes('GET /v1/bots'), routes.join(', '));
    assert.ok(!routes.some((route: string) => route.includes('/dashboard')));
  });

  it('a signed-out session no longer works', async () => {
    const gone = new DashboardClient(service);
    await gone.signUp(uniqueEmail('leaver'), undefined, { account_name: 'Leaver' });
    const cookie = gone.cookie;
    assert.equal((await gone.call('GET', `${V1}/bots`)).status, 200);
    await gone.call('POST', '/dashboard/api/signout');
    assert.equal((await gone.call('GET', `${V1}/bots`, { cookie })).status, 401);
  });
});
