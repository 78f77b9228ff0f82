// Human handoff across two instances of the service on one PostgreSQL and one Redis: an
// operator on one instance, the visitor's events stream on the other; the visitor's message heard by
// the inbox on the other instance; a reconnect to the other instance resumes by Last-Event-ID; and
// an operator's presence chosen or decayed on one instance is what the other decides by.
// Needs AI_CHAT_TEST_DATABASE_URL and AI_CHAT_TEST_REDIS_URL (`source /tmp/testdb.env`).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../src/index.ts';
import { TestClock } from './support/channels.ts';
import { clientFor } from './support/core.ts';
import { DashboardClient } from './support/dashboard.ts';
import { handoffSetup, json, openStream, startConversation, type HandoffSetup } from './support/handoff.ts';
import { sharedServices, TEST_DATABASE_URL, TEST_REDIS_URL, type SharedServices } from './support/test-database.ts';

const skip = TEST_DATABASE_URL && TEST_REDIS_URL ? false : 'needs a shared PostgreSQL and Redis: set AI_CHAT_TEST_DATABASE_URL and AI_CHAT_TEST_REDIS_URL';

describe('handoff on two instances (PostgreSQL + Redis)', () => {
  let shared: SharedServices | undefined;
  let a: Service;
  let b: Service;
  let setup: HandoffSetup;
  // one clock for both, as one deployment shares the time of day
  const clock = new TestClock();
  before(async () => {
    if (skip) return;
    shared = await sharedServices(2, { presence: { awayAfterMinutes: 5, now: clock.now } });
    [a, b] = shared.instances as [Service, Service];
    setup = await handoffSetup(a);
  });
  after(() => shared?.close());

  it('operator on A, visitor stream on B: each message arrives on the other side', { skip }, async () => {
    const apiA = setup.api;
    const apiB = clientFor(b, a.devApiKey!);
    const operatorOnA = setup.operator;
    // the same session works on both instances (it is in the shared database)
    const operatorOnB = Object.assign(new DashboardClient(b), { cookie: operatorOnA.cookie, csrf: operatorOnA.csrf });
    const inboxOnB = await openStream(b.fetch, 'http://127.0.0.1/dashboard/api/inbox/events', { cookie: `aicw_session=${operatorOnA.cookie}` });
    try {
      const user = 'two-instances-visitor';
      const conversationId = await startConversation(apiA, setup.botId, user);
      const asked = await apiB.json(`/v1/conversations/${conversationId}/handoff`, { method: 'POST', body: { user_id: user } });
      assert.equal(asked.res.status, 200, JSON.stringify(asked.body)); // B sees A's operator online (presence is shared)
      const visitorOnB = await openStream(b.fetch, `http://127.0.0.1/v1/conversations/${conversationId}/events?user_id=${user}`, { authorization: `Bearer ${a.devApiKey}` });

      assert.equal((await operatorOnA.call('POST', `/dashboard/api/inbox/${conversationId}/take`)).status, 200);
      assert.equal(json(await visitorOnB.next()).status, 'with_person');
      assert.equal((await operatorOnA.call('POST', `/dashboard/api/inbox/${conversationId}/messages`, { body: { content: 'Hello from A' } })).status, 201);
      const delivered = await visitorOnB.next();
      assert.equal(json(delivered).content, 'Hello from A');

      // the visitor writes on A; the inbox stream on B hears it
      await apiA.json(`/v1/bots/${setup.botId}/messages`, { method: 'POST', body: { message: 'Hi A, from the visitor', user_id: user } });
      let heard;
      do heard = await inboxOnB.next();
      while (!(heard.event === 'message' && json(heard).role === 'user'));
      assert.equal(json(heard).content, 'Hi A, from the visitor');
      const own = await visitorOnB.next();
      visitorOnB.close();

      // while the visitor is away, the operator (now on B) writes twice; the reconnect lands on A
      for (const content of ['first while away', 'second while away']) {
        assert.equal((await operatorOnB.call('POST', `/dashboard/api/inbox/${conversationId}/messages`, { body: { content } })).status, 201);
      }
      const visitorOnA = await openStream(a.fetch, `http://127.0.0.1/v1/conversations/${conversationId}/events?user_id=${user}`, {
        authorization: `Bearer ${a.devApiKey}`,
        'last-event-id': own.id!,
      });
      assert.deepEqual([json(await visitorOnA.next()).content, json(await visitorOnA.next()).content], ['first while away', 'second while away']);
      await assert.rejects(visitorOnA.next(500), /no event/, 'nothing twice');
      visitorOnA.close();
    } finally {
      await inboxOnB.close();
      // The closed inbox's cleanup on B marks the operator offline there; the next test's stream on
      // A must not race that write.
      await b.deps.handoff.closingStreams.closed();
    }
  });

  it('presence chosen on one instance, and its decay, decide the handoff on the other', { skip }, async () => {
    const operatorOnB = Object.assign(new DashboardClient(b), { cookie: setup.operator.cookie, csrf: setup.operator.csrf });
    const apiB = clientFor(b, a.devApiKey!);
    const reasonOnB = async () => (await apiB.json(`/v1/bots/${setup.botId}/handoff`)).body.data.unavailable_reason;
    const dashboardOnA = await openStream(a.fetch, 'http://127.0.0.1/dashboard/api/inbox/events', { cookie: `aicw_session=${setup.operator.cookie}` });
    try {
      assert.equal(await reasonOnB(), null, 'connected on A: online on B');
      assert.equal((await setup.operator.call('PUT', '/dashboard/api/me/presence', { body: { status: 'away' } })).body.data.status, 'away');
      assert.equal(await reasonOnB(), 'nobody_online', 'chosen on A, seen on B');
      assert.equal((await operatorOnB.call('GET', '/dashboard/api/teammates')).body.data.items[0].presence, 'away');
      assert.equal((await operatorOnB.call('PUT', '/dashboard/api/me/presence', { body: { status: 'online' } })).body.data.status, 'online');
      assert.equal(await reasonOnB(), null);
      clock.advance(5 * 60_000);
      assert.equal(await reasonOnB(), 'nobody_online', 'idle: away everywhere');
      assert.equal((await operatorOnB.call('POST', '/dashboard/api/me/presence/activity')).body.data.status, 'online');
      assert.equal((await setup.operator.call('GET', '/dashboard/api/me/presence')).body.data.status, 'online', 'activity on B counts on A');
    } finally {
      await dashboardOnA.close();
      await a.deps.handoff.closingStreams.closed();
    }
    assert.equal((await operatorOnB.call('GET', '/dashboard/api/me/presence')).body.data.status, 'offline', 'the dashboard on A closed');
  });
});
