// Assignment of conversations to operators on the real service: by hand (assign, transfer,
// unassign; a non-member refused, an offline teammate allowed), and automatically when the account
// turns it on ("balanced": fewest open under capacity, ties to who waited longest since their last
// one; the queue drains when one frees up or comes online), every change heard by every inbox and
// the visitor's stream. PGlite; then two instances on one PostgreSQL and Redis, where conversations
// asking at once on both never exceed a capacity nor get two operators (needs
// AI_CHAT_TEST_DATABASE_URL and AI_CHAT_TEST_REDIS_URL).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Service } from '../src/index.ts';
import { clientFor, type TestClient } from './support/core.ts';
import { DashboardClient, uniqueEmail } from './support/dashboard.ts';
import { handoffSetup, json, openStream, startConversation, type LiveStream } from './support/handoff.ts';
import { createTestService, sharedServices, TEST_DATABASE_URL, TEST_REDIS_URL, type SharedServices } from './support/test-database.ts';

interface Operator {
  client: DashboardClient;
  id: string;
  name: string;
}

let visitors = 0;

/** The signed-in owner of `setup`, and teammates who join by invite. */
async function operatorOf(client: DashboardClient): Promise<Operator> {
  const me = (await client.call('GET', '/dashboard/api/inbox/me')).body.data;
  return { client, id: me.id, name: me.name };
}

async function teammate(service: Service, owner: DashboardClient, name: string): Promise<Operator> {
  const { token } = (await owner.call('POST', '/dashboard/api/invites', { body: {} })).body.data;
  const client = new DashboardClient(service);
  assert.equal((await client.signUp(uniqueEmail(name), undefined, { invite: token })).status, 201);
  assert.equal((await client.call('PUT', '/dashboard/api/inbox/me', { body: { display_name: name } })).status, 200);
  return operatorOf(client);
}

/** An open dashboard: the operator shows online while it is open. */
const dashboard = (service: Service, operator: Operator): Promise<LiveStream> =>
  openStream(service.fetch, 'http://127.0.0.1/dashboard/api/inbox/events', { cookie: `aicw_session=${operator.client.cookie}` });

/** A visitor who starts a conversation and asks for a person: the conversation's id and the answer. */
interface Asked {
  id: string;
  user: string;
  status: string;
  operator: string | null;
}

async function ask(api: TestClient, botId: string): Promise<Asked> {
  const user = `assign-visitor-${process.pid}-${++visitors}`;
  const id = await startConversation(api, botId, user);
  const asked = await api.json(`/v1/conversations/${id}/handoff`, { method: 'POST', body: { user_id: user } });
  assert.equal(asked.res.status, 200, JSON.stringify(asked.body));
  return stateOf(api, { id, user });
}

/** The conversation's status and operator now, as its visitor reads them. */
async function stateOf(api: TestClient, conversation: { id: string; user: string }): Promise<Asked> {
  const state = (await api.json(`/v1/conversations/${conversation.id}/handoff?user_id=${conversation.user}`)).body.data;
  return { ...conversation, status: state.status, operator: state.operator?.id ?? null };
}

const assign = (api: TestClient, id: string, operatorId: string) => api.json(`/v1/conversations/${id}/assignment`, { method: 'PUT', body: { operator_id: operatorId } });
const settings = (api: TestClient, body: Record<string, unknown>) => api.json('/v1/assignment', { method: 'PUT', body });
const close = (operator: Operator, id: string) => operator.client.call('POST', `/dashboard/api/inbox/${id}/close`, { body: { to: 'closed' } });

describe('assignment (PGlite)', () => {
  let service: Service;
  let api: TestClient;
  let botId: string;
  let ann: Operator;
  let bob: Operator;
  let cat: Operator;
  const streams: LiveStream[] = [];

  before(async () => {
    service = await createTestService();
    const setup = await handoffSetup(service);
    ({ api, botId } = setup);
    ann = await operatorOf(setup.operator);
    bob = await teammate(service, setup.operator, 'Bob');
    cat = await teammate(service, setup.operator, 'Cat');
    streams.push(await dashboard(service, ann)); // ann online from the start; the others when a test opens theirs
  });
  after(async () => {
    for (const stream of streams) await stream.close();
    await service?.close();
  });

  it('is off by default: every operator at capacity 5, nothing assigned by itself', async () => {
    const read = (await api.json('/v1/assignment')).body.data;
    assert.equal(read.auto, false);
    assert.deepEqual(
      read.operators.map((o: { name: string; capacity: number; open: number; presence: string }) => [o.name, o.capacity, o.open, o.presence]),
      [[ann.name, 5, 0, 'online'], ['Bob', 5, 0, 'offline'], ['Cat', 5, 0, 'offline']],
    );
    const waiting = await ask(api, botId);
    assert.deepEqual([waiting.status, waiting.operator], ['waiting', null]);
    assert.equal((await close(ann, waiting.id)).status, 200);
  });

  it('by hand: assign to an offline teammate, transfer, unassign; every inbox and the visitor hear it', async () => {
    const conversation = await ask(api, botId);
    const visitor = await openStream(service.fetch, `http://127.0.0.1/v1/conversations/${conversation.id}/events?user_id=${conversation.user}`, { authorization: `Bearer ${service.devApiKey}` });
    const inbox = streams[0]!;
    const heard = async (stream: LiveStream) => {
      for (;;) {
        const event = await stream.next();
        if (event.event === 'status' && json(event).conversation_id === conversation.id) return [json(event).status, json(event).operator?.name ?? null];
      }
    };
    try {
      assert.deepEqual(await heard(inbox), ['waiting', null], 'the ask');
      // a non-member, or a user of another account, is refused and changes nothing
      const stranger = await assign(api, conversation.id, 'usr_nobody');
      assert.equal(stranger.res.status, 404);
      assert.deepEqual([stranger.body.error.code, stranger.body.error.param], ['resource_not_found', 'operator_id']);
      const { apiKey } = await service.createAccount({ name: 'Other' });
      const otherApi = clientFor(service, apiKey);
      const otherBot = (await otherApi.json('/v1/bots', { method: 'POST', body: { name: 'Other' } })).body.data.id;
      const theirs = await startConversation(otherApi, otherBot, 'other-visitor');
      const crossing = await assign(otherApi, theirs, ann.id);
      assert.deepEqual([crossing.res.status, crossing.body.error.param], [404, 'operator_id'], 'a teammate of another account');
      assert.equal((await assign(otherApi, conversation.id, ann.id)).res.status, 404, "another account's conversation");
      assert.equal((await stateOf(api, conversation)).status, 'waiting');

      const toBob = await assign(api, conversation.id, bob.id); // Bob is offline: allowed by hand
      assert.equal(toBob.res.status, 200, JSON.stringify(toBob.body));
      assert.deepEqual([toBob.body.data.status, toBob.body.data.operator.name], ['with_person', 'Bob']);
      assert.deepEqual(await heard(visitor), ['with_person', 'Bob']);
      assert.deepEqual(await heard(inbox), ['with_person', 'Bob']);
      assert.equal((await assign(api, conversation.id, bob.id)).res.status, 200, 'already his: no change');

      const toCat = await assign(api, conversation.id, cat.id);
      assert.equal(toCat.body.data.operator.name, 'Cat');
      assert.deepEqual(await heard(visitor), ['with_person', 'Cat'], 'the widget names the new operator');
      assert.deepEqual(await heard(inbox), ['with_person', 'Cat']);
      // Bob no longer holds it: his reply is refused; Cat's goes through
      assert.equal((await bob.client.call('POST', `/dashboard/api/inbox/${conversation.id}/messages`, { body: { content: 'hi' } })).status, 409);
      assert.equal((await cat.client.call('POST', `/dashboard/api/inbox/${conversation.id}/messages`, { body: { content: 'Cat here' } })).status, 201);

      const back = await api.json(`/v1/conversations/${conversation.id}/assignment`, { method: 'DELETE' });
      assert.deepEqual([back.res.status, back.body.data.status, back.body.data.operator], [200, 'waiting', null]);
      let event;
      do event = await visitor.next();
      while (event.event !== 'status');
      assert.deepEqual([json(event).status, json(event).operator], ['waiting', null]);
      assert.equal((await api.json(`/v1/conversations/${conversation.id}/assignment`, { method: 'DELETE' })).res.status, 200, 'waiting already: no change');

      assert.equal((await close(ann, conversation.id)).status, 200);
      const closed = await api.json(`/v1/conversations/${conversation.id}/assignment`, { method: 'PUT', body: { operator_id: ann.id } });
      assert.deepEqual([closed.res.status, closed.body.error.code], [409, 'invalid_status_transition']);
      const bad = await api.json(`/v1/conversations/${conversation.id}/assignment`, { method: 'PUT', body: { operator_id: '' } });
      assert.deepEqual([bad.res.status, bad.body.error.code], [400, 'validation_failed']);
    } finally {
      await visitor.close();
    }
  });

  it('automatically: balanced among online operators, under capacity; the queue drains when one frees up or comes online', async () => {
    streams.push(await dashboard(service, bob), await dashboard(service, cat));
    // Ann holds one; Cat was given one before Bob was, and both ended: Cat has waited longer since
    const held = await ask(api, botId);
    assert.equal((await assign(api, held.id, ann.id)).res.status, 200);
    for (const operator of [cat, bob]) {
      const done = await ask(api, botId);
      assert.equal((await assign(api, done.id, operator.id)).res.status, 200);
      assert.equal((await close(operator, done.id)).status, 200);
    }
    const on = await settings(api, { auto: true });
    assert.equal(on.res.status, 200, JSON.stringify(on.body));
    assert.equal(on.body.data.auto, true);

    const first = await ask(api, botId);
    assert.equal(first.operator, cat.id, 'fewest open (0), and waited longest since her last');
    const second = await ask(api, botId);
    assert.equal(second.operator, bob.id, 'Bob is the only one left with 0');
    const third = await ask(api, botId);
    assert.equal(third.operator, ann.id, 'all hold 1: Ann waited longest since her last');

    // capacity 1 each: all full, the next one waits in the queue
    const full = await settings(api, { capacities: [ann, bob, cat].map((o) => ({ operator_id: o.id, capacity: 1 })) });
    assert.deepEqual(full.body.data.operators.map((o: { capacity: number; open: number }) => [o.capacity, o.open]), [[1, 2], [1, 1], [1, 1]]);
    const queued = await ask(api, botId);
    assert.deepEqual([queued.status, queued.operator], ['waiting', null]);

    // Bob frees up: the queue drains to him
    assert.equal((await close(bob, second.id)).status, 200);
    assert.deepEqual(await stateOf(api, queued), { id: queued.id, user: queued.user, status: 'with_person', operator: bob.id });

    // nobody under capacity again; Cat steps away and ends hers: only her coming back online frees her place
    const later = await ask(api, botId);
    assert.equal(later.operator, null);
    assert.equal((await cat.client.call('PUT', '/dashboard/api/me/presence', { body: { status: 'away' } })).status, 200);
    assert.equal((await close(cat, first.id)).status, 200);
    assert.equal((await stateOf(api, later)).operator, null, 'Cat is away: not assigned');
    assert.equal((await cat.client.call('PUT', '/dashboard/api/me/presence', { body: { status: 'online' } })).status, 200);
    assert.equal((await stateOf(api, later)).operator, cat.id, 'online again: the queue drains to her');

    // unassigning gives it out again by the rule, never straight back: raise Cat's capacity so only she has room
    assert.equal((await settings(api, { capacities: [{ operator_id: cat.id, capacity: 3 }, { operator_id: bob.id, capacity: 2 }] })).res.status, 200);
    const back = await api.json(`/v1/conversations/${queued.id}/assignment`, { method: 'DELETE' });
    assert.equal(back.body.data.operator?.id, cat.id, 'not straight back to Bob, though he now holds the fewest');

    // off again: nothing more is given out
    assert.equal((await settings(api, { auto: false })).body.data.auto, false);
    const manual = await ask(api, botId);
    assert.equal(manual.operator, null);
    assert.equal((await close(ann, manual.id)).status, 200);
  });

  it('conversations asking at once never exceed a capacity nor get two operators', async () => {
    await burst(service, [api], botId);
  });
});

describe('assignment on two instances (PostgreSQL + Redis)', () => {
  const skip = TEST_DATABASE_URL && TEST_REDIS_URL ? false : 'needs a shared PostgreSQL and Redis: set AI_CHAT_TEST_DATABASE_URL and AI_CHAT_TEST_REDIS_URL';
  let shared: SharedServices | undefined;
  let a: Service;
  let b: Service;
  let apis: TestClient[];
  let botId: string;
  const streams: LiveStream[] = [];
  before(async () => {
    if (skip) return;
    shared = await sharedServices(2);
    [a, b] = shared.instances as [Service, Service];
    const setup = await handoffSetup(a);
    botId = setup.botId;
    apis = [setup.api, clientFor(b, a.devApiKey!)];
    const ann = await operatorOf(setup.operator);
    const bob = await teammate(a, setup.operator, 'Bob');
    const cat = await teammate(b, setup.operator, 'Cat');
    streams.push(await dashboard(a, ann), await dashboard(b, bob), await dashboard(b, cat));
  });
  after(async () => {
    for (const stream of streams) await stream.close();
    await shared?.close();
  });

  it('an assignment made on one instance is heard by the inbox on the other', { skip }, async () => {
    assert.equal((await settings(apis[0]!, { auto: true })).res.status, 200);
    const inboxOnB = streams[1]!;
    const conversation = await ask(apis[0]!, botId);
    assert.notEqual(conversation.operator, null);
    let event;
    do event = await inboxOnB.next();
    while (!(event.event === 'status' && json(event).conversation_id === conversation.id && json(event).status === 'with_person'));
    assert.equal(json(event).operator.id, conversation.operator);
    assert.equal((await apis[1]!.json(`/v1/conversations/${conversation.id}/assignment`, { method: 'DELETE' })).res.status, 200);
    await settings(apis[0]!, { auto: false });
  });

  it('conversations asking at once on both never exceed a capacity nor get two operators', { skip }, async () => {
    await burst(a, apis, botId);
  });
});

/**
 * Twelve more conversations than places ask at once (spread over `apis`, one per instance): the operators have
 * exactly one place each: exactly one more each, the rest waiting, and no conversation given twice.
 */
async function burst(service: Service, apis: TestClient[], botId: string): Promise<void> {
  const api = apis[0]!;
  const operators: { id: string; open: number; presence: string }[] = (await api.json('/v1/assignment')).body.data.operators;
  const online = operators.filter((o) => o.presence === 'online');
  assert.ok(online.length >= 2, 'two operators online at least');
  const set = await settings(api, { auto: true, capacities: operators.map((o) => ({ operator_id: o.id, capacity: Math.min(100, o.presence === 'online' ? o.open + 1 : 0) })) });
  assert.equal(set.res.status, 200, JSON.stringify(set.body));
  const asked = await Promise.all(Array.from({ length: online.length + 12 }, (_, i) => ask(apis[i % apis.length]!, botId)));
  const now = await Promise.all(asked.map((conversation) => stateOf(api, conversation)));
  const given = now.filter((state) => state.status === 'with_person');
  assert.equal(given.length, online.length, `every place filled, none twice: ${JSON.stringify({ operators, now })}`);
  assert.equal(now.filter((state) => state.status === 'waiting').length, 12);
  assert.deepEqual(given.map((state) => state.operator).sort(), online.map((o) => o.id).sort(), 'one each');
  const after: { id: string; open: number }[] = (await api.json('/v1/assignment')).body.data.operators;
  for (const operator of online) assert.equal(after.find((o) => o.id === operator.id)!.open, operator.open + 1, 'capacity never exceeded');
  const events = await sql<{ conversation_id: string; n: string }>`
    select conversation_id, count(*) as n from handoff_events
    where type = 'status' and data->>'status' = 'with_person' and conversation_id in (${sql.join(asked.map((c) => c.id))})
    group by conversation_id`.execute(service.deps.db);
  assert.deepEqual(events.rows.map((row) => Number(row.n)), given.map(() => 1), 'one assignment event per conversation given');
  await settings(api, { auto: false });
}
