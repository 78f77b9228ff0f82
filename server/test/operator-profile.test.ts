// The operator's profile (how visitors see them) and their teammates' presence on the inbox stream,
// on the real service (PGlite): the profile takes a bounded, non-blank name and an https avatar
// only, refusing anything else with `validation_failed`; a teammate who opens a dashboard, chooses
// away or closes their last dashboard is told to every inbox stream of the account as a `presence`
// event (never to their own streams), so the Team page follows it without a reload.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../src/index.ts';
import { DashboardClient, uniqueEmail } from './support/dashboard.ts';
import { json, openStream, type LiveStream } from './support/handoff.ts';
import { createTestService } from './support/test-database.ts';

let service: Service;
/** The install's owner (the first sign-up; later ones join by invite). */
let owner: DashboardClient;
before(async () => {
  service = await createTestService();
  owner = new DashboardClient(service);
  assert.equal((await owner.signUp(uniqueEmail('owner'))).status, 201);
});
after(() => service.close());

const inboxStream = (client: DashboardClient): Promise<LiveStream> =>
  openStream(service.fetch, 'http://127.0.0.1/dashboard/api/inbox/events', { cookie: `aicw_session=${client.cookie}` });

/** The next `presence` event about `userId` on `stream` (other events are skipped). */
async function nextPresence(stream: LiveStream, userId: string): Promise<{ user_id: string; status: string }> {
  for (;;) {
    const event = await stream.next(5000);
    if (event.event === 'presence' && json(event).user_id === userId) return json(event);
  }
}

describe('the operator profile', () => {
  it('saves a display name and an https avatar, which the profile then shows', async () => {
    const avatar = 'https://cdn.example.test/anna.png';
    const put = await owner.call('PUT', '/dashboard/api/inbox/me', { body: { display_name: 'Anna', avatar_url: avatar } });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.deepEqual({ name: put.body.data.name, avatar_url: put.body.data.avatar_url }, { name: 'Anna', avatar_url: avatar });
    const me = await owner.call('GET', '/dashboard/api/inbox/me');
    assert.equal(me.body.data.avatar_url, avatar);
  });

  for (const [what, body] of [
    ['an http avatar (mixed content on the visitor page)', { avatar_url: 'http://cdn.example.test/a.png' }],
    ['a data: avatar', { avatar_url: 'data:image/png;base64,iVBORw0KGgo=' }],
    ['a javascript: avatar', { avatar_url: 'javascript:alert(1)' }],
    ['an avatar over 2048 characters', { avatar_url: `https://cdn.example.test/${'a'.repeat(2048)}` }],
    ['a name over 80 characters', { display_name: 'A'.repeat(81) }],
    ['a blank name', { display_name: '   ' }],
  ] as const) {
    it(`refuses ${what} with validation_failed, keeping the profile`, async () => {
      const before = (await owner.call('GET', '/dashboard/api/inbox/me')).body.data;
      const put = await owner.call('PUT', '/dashboard/api/inbox/me', { body });
      assert.equal(put.status, 400, JSON.stringify(put.body));
      assert.equal(put.body.success, false);
      assert.equal(put.body.error.code, 'validation_failed');
      assert.deepEqual((await owner.call('GET', '/dashboard/api/inbox/me')).body.data, before);
    });
  }
});

describe('presence on the inbox stream', () => {
  it("tells an operator's inbox when a teammate comes online, goes away and closes their dashboard", async () => {
    const { token } = (await owner.call('POST', '/dashboard/api/invites', { body: {} })).body.data;
    const teammate = new DashboardClient(service);
    assert.equal((await teammate.signUp(uniqueEmail('mate'), undefined, { invite: token })).status, 201);
    const teammateId = (await teammate.call('GET', '/dashboard/api/inbox/me')).body.data.id;

    const ownerStream = await inboxStream(owner);
    try {
      const teammateStream = await inboxStream(teammate);
      assert.deepEqual(await nextPresence(ownerStream, teammateId), { user_id: teammateId, status: 'online' });
      assert.equal((await teammate.call('PUT', '/dashboard/api/me/presence', { body: { status: 'away' } })).status, 200);
      assert.deepEqual(await nextPresence(ownerStream, teammateId), { user_id: teammateId, status: 'away' });
      await teammateStream.close();
      assert.deepEqual(await nextPresence(ownerStream, teammateId), { user_id: teammateId, status: 'offline' });
      // the owner's own presence is theirs to read (the operator bar), not their stream's
      const ownerId = (await owner.call('GET', '/dashboard/api/inbox/me')).body.data.id;
      assert.ok(!ownerStream.received.some((e) => e.event === 'presence' && json(e).user_id === ownerId));
    } finally {
      await ownerStream.close();
      await service.deps.handoff.closingStreams.closed();
    }
  });
});
