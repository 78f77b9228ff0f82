// Operator presence on the real service, on a clock the test moves: online while a dashboard is
// connected, away after the idle minutes, online again on activity, offline when the last dashboard
// closes or its session ends elsewhere, the operator's own choice kept across that; the handoff's
// "anyone online" follows it, the team list shows it; and the inbox counts behind the badge.
// PGlite by default; PostgreSQL + Redis with `source /tmp/testdb.env`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../src/index.ts';
import { TestClock } from './support/channels.ts';
import type { TestClient } from './support/core.ts';
import { DashboardClient } from './support/dashboard.ts';
import { handoffSetup, openStream, startConversation, type LiveStream } from './support/handoff.ts';
import { createTestService } from './support/test-database.ts';

const MINUTE = 60_000;
/** The streams' heartbeat here: a stream whose session ended elsewhere ends at its next beat. */
const HEARTBEAT_MS = 250;
const clock = new TestClock();
let service: Service;
let api: TestClient;
let operator: DashboardClient;
let botId: string;
let users = 0;
const nextUser = () => `presence-visitor-${++users}`;

const openDashboard = (client: DashboardClient): Promise<LiveStream> =>
  openStream(service.fetch, 'http://127.0.0.1/dashboard/api/inbox/events', { cookie: `aicw_session=${client.cookie}` });
const presence = async () => (await operator.call('GET', '/dashboard/api/me/presence')).body.data;
const choose = (status: string) => operator.call('PUT', '/dashboard/api/me/presence', { body: { status } });
const handoffReason = async () => (await api.json(`/v1/bots/${botId}/handoff`)).body.data.unavailable_reason;
const teamPresence = async () => (await operator.call('GET', '/dashboard/api/teammates')).body.data.items.map((u: { presence: string }) => u.presence);

before(async () => {
  service = await createTestService({ presence: { awayAfterMinutes: 5, now: clock.now }, streamHeartbeatMs: HEARTBEAT_MS });
  ({ api, operator, botId } = await handoffSetup(service));
});
after(() => service?.close());

describe('operator presence', () => {
  it('online while connected, away after the idle minutes, online again on activity, offline when the last dashboard closes', async () => {
    assert.deepEqual(await presence(), { status: 'offline', chosen: 'online', active_at: null, away_after_seconds: 300 });
    assert.equal(await handoffReason(), 'nobody_online');

    const dashboard = await openDashboard(operator);
    assert.equal((await presence()).status, 'online', 'a connected dashboard is online by default');
    assert.deepEqual(await teamPresence(), ['online']);
    assert.equal(await handoffReason(), null);

    clock.advance(5 * MINUTE - 1);
    assert.equal((await presence()).status, 'online');
    clock.advance(1);
    assert.equal((await presence()).status, 'away', 'five minutes without activity');
    assert.equal((await presence()).chosen, 'online');
    assert.deepEqual(await teamPresence(), ['away']);
    assert.equal(await handoffReason(), 'nobody_online');
    const user = nextUser();
    const conversationId = await startConversation(api, botId, user);
    const refused = await api.json(`/v1/conversations/${conversationId}/handoff`, { method: 'POST', body: { user_id: user } });
    assert.equal(refused.res.status, 409);
    assert.equal(refused.body.error.code, 'handoff_unavailable');

    const active = await operator.call('POST', '/dashboard/api/me/presence/activity');
    assert.equal(active.status, 200, JSON.stringify(active.body));
    assert.equal(active.body.data.status, 'online');
    assert.equal(active.body.data.active_at, new Date(clock.ms).toISOString());
    assert.equal(await handoffReason(), null);

    await dashboard.close();
    await service.deps.handoff.closingStreams.closed();
    assert.equal((await presence()).status, 'offline', 'no dashboard open');
    assert.equal(await handoffReason(), 'nobody_online');
  });

  it('the chosen status holds while connected, survives the dashboard closing, and decides the handoff', async () => {
    const first = await openDashboard(operator);
    const away = await choose('away');
    assert.equal(away.status, 200, JSON.stringify(away.body));
    assert.deepEqual({ status: away.body.data.status, chosen: away.body.data.chosen }, { status: 'away', chosen: 'away' });
    assert.equal(await handoffReason(), 'nobody_online');
    assert.equal((await operator.call('POST', '/dashboard/api/me/presence/activity')).body.data.status, 'away', 'activity does not undo a choice');

    await first.close();
    await service.deps.handoff.closingStreams.closed();
    assert.deepEqual({ status: (await presence()).status, chosen: (await presence()).chosen }, { status: 'offline', chosen: 'away' });
    const second = await openDashboard(operator);
    try {
      assert.equal((await presence()).status, 'away', 'the choice outlived the closed dashboard');
      assert.equal((await choose('offline')).body.data.status, 'offline');
      assert.deepEqual(await teamPresence(), ['offline']);
      assert.equal(await handoffReason(), 'nobody_online');
      assert.equal((await choose('online')).body.data.status, 'online');
      assert.equal(await handoffReason(), null);
    } finally {
      await second.close();
      await service.deps.handoff.closingStreams.closed();
    }
  });

  it('a dashboard whose session ended elsewhere ends at its next heartbeat, and with it the presence', async () => {
    const email = (await operator.call('GET', '/dashboard/api/me')).body.data.user.email;
    const elsewhere = new DashboardClient(service);
    assert.equal((await elsewhere.signIn(email)).status, 200);
    const dashboard = await openDashboard(elsewhere);
    assert.equal((await presence()).status, 'online');
    assert.equal((await elsewhere.call('POST', '/dashboard/api/signout')).status, 200);
    // the stream ends by itself (the service checks the session every heartbeat)
    await assert.rejects(dashboard.next(HEARTBEAT_MS + 10_000), /stream ended/);
    await service.deps.handoff.closingStreams.closed();
    assert.equal((await presence()).status, 'offline');
  });

  it('bad input and strangers get the envelope', async () => {
    const bad = await choose('busy');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.success, false);
    assert.equal(bad.body.error.code, 'validation_failed');
    const extra = await operator.call('PUT', '/dashboard/api/me/presence', { body: { status: 'online', until: 'never' } });
    assert.equal(extra.status, 400);
    const stranger = await operator.call('GET', '/dashboard/api/me/presence', { cookie: null });
    assert.equal(stranger.status, 401);
    assert.equal(stranger.body.error.code, 'authentication_required');
    const noCsrf = await operator.call('PUT', '/dashboard/api/me/presence', { body: { status: 'online' }, csrf: null });
    assert.equal(noCsrf.status, 403);
  });
});

describe('inbox counts', () => {
  it('waiting for anyone, and held by the signed-in operator', async () => {
    const dashboard = await openDashboard(operator);
    try {
      const counts = async () => (await operator.call('GET', '/dashboard/api/inbox/counts')).body.data;
      const before = await counts();
      const user = nextUser();
      const conversationId = await startConversation(api, botId, user);
      assert.equal((await api.json(`/v1/conversations/${conversationId}/handoff`, { method: 'POST', body: { user_id: user } })).res.status, 200);
      assert.deepEqual(await counts(), { waiting: before.waiting + 1, mine: before.mine });
      assert.equal((await operator.call('POST', `/dashboard/api/inbox/${conversationId}/take`)).status, 200);
      assert.deepEqual(await counts(), { waiting: before.waiting, mine: before.mine + 1 });
    } finally {
      await dashboard.close();
      await service.deps.handoff.closingStreams.closed();
    }
  });
});
