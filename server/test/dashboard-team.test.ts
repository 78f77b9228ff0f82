// Teammates and invites in the dashboard: the first sign-up owns the seeded account, one-time
// expiring invite links, owner and member roles (members cannot manage keys or teammates), removal,
// the last owner, and the open / invite / closed sign-up policies.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createService, type Service } from '../src/index.ts';
import { withDashboardTables } from '../src/db/dashboard-schema.ts';
import { caller } from './support/api.ts';
import { DashboardClient, uniqueEmail } from './support/dashboard.ts';
import { createTestService, testDatabase } from './support/test-database.ts';

async function invite(owner: DashboardClient, body: Record<string, unknown> = {}) {
  const res = await owner.call('POST', '/dashboard/api/invites', { body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data as { invite: { id: string; role: string; expires_at: string }; token: string; url: string };
}

describe('teammates and invites', () => {
  let service: Service;
  let owner: DashboardClient;
  let member: DashboardClient;
  let memberId: string;

  before(async () => {
    service = await createTestService({ seed: true });
    owner = new DashboardClient(service);
  });
  after(() => service.close());

  it('the first sign-up owns the existing account and sees the seeded demo bot', async () => {
    assert.equal((await owner.signUp(uniqueEmail('owner'))).status, 201);
    const { secret } = (await owner.call('POST', '/dashboard/api/keys', { body: { label: 'look' } })).body.data;
    const bots = await caller(service, secret)('/v1/bots');
    assert.deepEqual(bots.body.data.items.map((bot: { name: string }) => bot.name), ['Widget guide']);
  });

  it('an invite link is one-time: the newcomer joins with its role, a second use is refused', async () => {
    const { invite: created, token, url } = await invite(owner);
    assert.equal(created.role, 'member');
    assert.equal(url, `http://127.0.0.1/dashboard/#invite=${token}`, 'the token rides in the fragment');
    const hours = (Date.parse(created.expires_at) - Date.now()) / 3_600_000;
    assert.ok(hours > 71 && hours <= 72, 'expires in 72 hours by default');

    member = new DashboardClient(service);
    const joined = await member.signUp(uniqueEmail('member'), undefined, { invite: token });
    assert.equal(joined.status, 201);
    assert.equal(joined.body.data.account.id, service.devAccountId);
    assert.equal(joined.body.data.user.role, 'member');
    memberId = joined.body.data.user.id;

    const again = await new DashboardClient(service).signUp(uniqueEmail('late'), undefined, { invite: token });
    assert.equal(again.status, 400);
    assert.equal(again.body.error.code, 'invalid_invite');
    assert.deepEqual((await owner.call('GET', '/dashboard/api/invites')).body.data.items, [], 'no longer pending');
  });

  it('refuses expired, revoked and unknown invites with one answer', async () => {
    const expired = await invite(owner, { expires_in_hours: 1 });
    await withDashboardTables(service.deps.db)
      .updateTable('invites')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expired.invite.id)
      .execute();
    const revoked = await invite(owner);
    assert.equal((await owner.call('DELETE', `/dashboard/api/invites/${revoked.invite.id}`)).status, 200);
    const answers = [];
    for (const token of [expired.token, revoked.token, 'aicw_inv_made-up']) {
      const res = await new DashboardClient(service).signUp(uniqueEmail(), undefined, { invite: token });
      answers.push([res.status, res.body.error.code, res.body.error.message]);
    }
    assert.equal(answers[0]![0], 400);
    assert.equal(answers[0]![1], 'invalid_invite');
    assert.deepEqual(answers[1], answers[0]);
    assert.deepEqual(answers[2], answers[0]);
  });

  it('lists teammates for everyone; members cannot manage keys, invites or teammates (403)', async () => {
    const team = await member.call('GET', '/dashboard/api/teammates');
    assert.equal(team.status, 200);
    assert.deepEqual(team.body.data.items.map((user: { role: string }) => user.role), ['owner', 'member']);
    assert.equal((await member.call('GET', '/dashboard/api/keys')).status, 200, 'members see the keys (never secrets)');

    const ownerId = team.body.data.items[0].id;
    const keyId = (await member.call('GET', '/dashboard/api/keys')).body.data.items[0].id;
    for (const [method, path, body] of [
      ['POST', '/dashboard/api/keys', { label: 'mine' }],
      ['DELETE', `/dashboard/api/keys/${keyId}`, undefined],
      ['POST', '/dashboard/api/invites', {}],
      ['GET', '/dashboard/api/invites', undefined],
      ['PATCH', `/dashboard/api/teammates/${ownerId}`, { role: 'member' }],
      ['DELETE', `/dashboard/api/teammates/${ownerId}`, undefined],
    ] as const) {
      const res = await member.call(method, path, { body });
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.error.code, 'permission_denied');
    }
  });

  it('an account keeps at least one owner (409); promoting someone else first lets the owner step down', async () => {
    const me = (await owner.call('GET', '/dashboard/api/me')).body.data.user;
    const demote = await owner.call('PATCH', `/dashboard/api/teammates/${me.id}`, { body: { role: 'member' } });
    assert.equal(demote.status, 409);
    assert.equal(demote.body.error.code, 'conflict');
    assert.equal((await owner.call('DELETE', `/dashboard/api/teammates/${me.id}`)).status, 409);

    const promoted = await owner.call('PATCH', `/dashboard/api/teammates/${memberId}`, { body: { role: 'owner' } });
    assert.equal(promoted.status, 200);
    assert.equal(promoted.body.data.role, 'owner');
    assert.equal((await member.call('GET', '/dashboard/api/invites')).status, 200, 'the new role applies at once');
    assert.equal((await member.call('PATCH', `/dashboard/api/teammates/${memberId}`, { body: { role: 'member' } })).status, 200);
  });

  it('removing a teammate ends their sessions at once', async () => {
    const res = await owner.call('DELETE', `/dashboard/api/teammates/${memberId}`);
    assert.equal(res.status, 200);
    assert.equal((await member.call('GET', '/dashboard/api/me')).status, 401);
    assert.equal((await owner.call('DELETE', `/dashboard/api/teammates/${memberId}`)).status, 404);
    assert.equal((await owner.call('DELETE', '/dashboard/api/teammates/usr_unknown12345')).status, 404);
  });
});

describe('sign-up policies', () => {
  const services: Service[] = [];
  const start = async (signup: 'open' | 'closed') => {
    const service = await createTestService({ dashboard: { signup } });
    services.push(service);
    const owner = new DashboardClient(service);
    assert.equal((await owner.signUp(uniqueEmail('first'))).status, 201, 'the first sign-up always may');
    return { service, owner };
  };
  after(async () => {
    for (const service of services) await service.close();
  });

  it('open: a newcomer gets a new, empty account of their own', async () => {
    const { service } = await start('open');
    const newcomer = new DashboardClient(service);
    const res = await newcomer.signUp(uniqueEmail('newcomer'), undefined, { account_name: 'Acme' });
    assert.equal(res.status, 201);
    assert.notEqual(res.body.data.account.id, service.devAccountId);
    assert.equal(res.body.data.account.name, 'Acme');
    assert.equal(res.body.data.user.role, 'owner');
    assert.equal((await newcomer.call('GET', '/dashboard/api/teammates')).body.data.items.length, 1);
  });

  it('closed: no sign-up, and no invites either', async () => {
    const { service, owner } = await start('closed');
    const res = await new DashboardClient(service).signUp(uniqueEmail());
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'signup_not_allowed');
    const invite = await owner.call('POST', '/dashboard/api/invites', { body: {} });
    assert.equal(invite.status, 403);
    assert.equal(invite.body.error.code, 'signup_not_allowed');
  });
});

describe('simultaneous sign-ups', () => {
  it('two first sign-ups at once: exactly one owns the install', async () => {
    const service = await createTestService();
    try {
      const results = await Promise.all([1, 2].map(() => new DashboardClient(service).signUp(uniqueEmail('racer'))));
      assert.deepEqual(results.map((r) => r.status).sort(), [201, 403]);
      const team = await withDashboardTables(service.deps.db).selectFrom('users').select(['account_id', 'role']).execute();
      assert.deepEqual(team, [{ account_id: service.devAccountId, role: 'owner' }]);
    } finally {
      await service.close();
    }
  });

  it('one invite used twice at once: one newcomer joins, the other gets invalid_invite', async () => {
    const service = await createTestService();
    try {
      const owner = new DashboardClient(service);
      assert.equal((await owner.signUp(uniqueEmail('owner'))).status, 201);
      const { token } = await invite(owner);
      const results = await Promise.all([1, 2].map(() => new DashboardClient(service).signUp(uniqueEmail('guest'), undefined, { invite: token })));
      assert.deepEqual(results.map((r) => r.status).sort(), [201, 400]);
      assert.equal((await owner.call('GET', '/dashboard/api/teammates')).body.data.items.length, 2);
    } finally {
      await service.close();
    }
  });
});

describe('a configured development key revoked in the dashboard', () => {
  it('stays revoked after a restart, and the service still starts', async () => {
    const database = await testDatabase({ persistent: true });
    const apiKey = `aicw_sk_configured_${Date.now()}`;
    const options = { ...database.options, apiKey, seed: false, logLevel: 'silent' as const };
    try {
      let service = await createService(options);
      const owner = new DashboardClient(service);
      assert.equal((await owner.signUp(uniqueEmail('owner'))).status, 201);
      const devKey = (await owner.call('GET', '/dashboard/api/keys')).body.data.items.find(
        (key: { prefix: string }) => key.prefix === apiKey.slice(0, 12),
      );
      assert.equal((await owner.call('DELETE', `/dashboard/api/keys/${devKey.id}`)).status, 200);
      const accountId = service.devAccountId;
      await service.close();

      service = await createService(options);
      try {
        assert.equal(service.devAccountId, accountId);
        assert.equal((await caller(service, apiKey)('/v1/bots')).status, 401);
      } finally {
        await service.close();
      }
    } finally {
      await database.cleanup();
    }
  });
});
