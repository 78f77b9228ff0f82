// The inbox's tools on the real service: labels on conversations (add/remove, bounds, the
// `?label=` filters), private notes (stored with the messages, seen by the team only: never by a
// visitor's token, /v1 reads, the visitor's live stream or its resume, nor `message.created`
// webhooks), and the inbox's search (ILIKE with `%` and `_` taken literally).
// PGlite by default; PostgreSQL + Redis with AI_CHAT_TEST_DATABASE_URL / AI_CHAT_TEST_REDIS_URL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Service } from '../src/index.ts';
import { clientFor, shopTraining, type TestClient } from './support/core.ts';
import { DashboardClient, uniqueEmail } from './support/dashboard.ts';
import { json, openStream, startConversation, type LiveStream } from './support/handoff.ts';
import { createTestService } from './support/test-database.ts';

const SITE = 'https://shop.example';
let service: Service;
let api: TestClient;
let operator: DashboardClient;
let botId: string;
let inbox: LiveStream;
let users = 0;
const nextUser = () => `tools-visitor-${++users}`;

before(async () => {
  service = await createTestService({ webhooks: { allowPrivateHosts: true }, dashboard: { signup: 'open' } });
  operator = new DashboardClient(service);
  assert.equal((await operator.signUp(uniqueEmail('operator'))).status, 201);
  api = clientFor(service, service.devApiKey!);
  const bot = await api.json('/v1/bots', { method: 'POST', body: { name: 'Shop', training: shopTraining, channels: [{ type: 'website', allowed_origins: [SITE] }] } });
  assert.equal(bot.res.status, 201, JSON.stringify(bot.body));
  botId = bot.body.data.id;
  assert.equal((await api.json(`/v1/bots/${botId}/handoff`, { method: 'PUT', body: { enabled: true } })).res.status, 200);
  inbox = await openStream(service.fetch, 'http://127.0.0.1/dashboard/api/inbox/events', { cookie: `aicw_session=${operator.cookie}` });
});
after(async () => {
  await inbox?.close();
  await service?.close();
});

/** A visitor's conversation that waits for a person (so it is in the inbox). */
async function waiting(userId: string, message = 'hello'): Promise<string> {
  const id = await startConversation(api, botId, userId, message);
  const asked = await api.json(`/v1/conversations/${id}/handoff`, { method: 'POST', body: { user_id: userId } });
  assert.equal(asked.res.status, 200, JSON.stringify(asked.body));
  return id;
}

/** A call as the widget's page sends it: its origin, its address, a visitor token or none. */
async function asVisitor(path: string, init: { body?: unknown; token?: string } = {}) {
  const headers = new Headers({ origin: SITE });
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  if (init.body !== undefined) headers.set('content-type', 'application/json');
  const request = new Request(`http://127.0.0.1${path}`, { method: init.body === undefined ? 'GET' : 'POST', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const res = await service.fetch(request, { incoming: { socket: { remoteAddress: '2001:db8::7' } } });
  return { res, body: await res.json() };
}

const labels = (id: string, body: unknown) => api.json(`/v1/conversations/${id}/labels`, { method: 'POST', body });
const inboxIds = async (query: string) => {
  const res = await operator.call('GET', `/dashboard/api/inbox${query}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return (res.body.data.items as { id: string }[]).map((item) => item.id);
};

describe('labels', () => {
  it('adds and removes at once, trimmed and once each, in the order added', async () => {
    const id = await startConversation(api, botId, nextUser());
    const first = await labels(id, { add: [' vip ', 'refund', 'vip'] });
    assert.equal(first.res.status, 200, JSON.stringify(first.body));
    assert.deepEqual(first.body.data, { conversation_id: id, labels: ['vip', 'refund'] });
    const second = await labels(id, { add: ['billing'], remove: ['vip', 'not-there'] });
    assert.deepEqual(second.body.data.labels, ['refund', 'billing']);
    assert.deepEqual((await api.json(`/v1/conversations/${id}`)).body.data.labels, ['refund', 'billing']);
  });

  it('keeps at most 20 of at most 40 characters, and answers in the envelope', async () => {
    const id = await startConversation(api, botId, nextUser());
    const twenty = Array.from({ length: 20 }, (_, i) => `l${i}`);
    assert.equal((await labels(id, { add: twenty })).res.status, 200);
    const over = await labels(id, { add: ['one-more'] });
    assert.equal(over.res.status, 400);
    assert.equal(over.body.error.code, 'validation_failed');
    assert.equal((await api.json(`/v1/conversations/${id}`)).body.data.labels.length, 20);
    // replacing one within the same call fits
    assert.equal((await labels(id, { add: ['one-more'], remove: ['l0'] })).res.status, 200);
    for (const body of [{ add: ['x'.repeat(41)] }, { add: ['   '] }, { add: [''] }, {}, { add: 'vip' }, { add: ['a'], other: 1 }]) {
      const bad = await labels(id, body);
      assert.equal(bad.res.status, 400, JSON.stringify(body));
      assert.equal(bad.body.success, false);
    }
    const missing = await labels('conv_missing123456789', { add: ['vip'] });
    assert.equal(missing.res.status, 404);
    assert.equal(missing.body.error.code, 'resource_not_found');
  });

  it('filters GET /v1/conversations and the inbox by one label', async () => {
    const [tagged, other] = [await waiting(nextUser()), await waiting(nextUser())];
    await labels(tagged, { add: ['Needs Review'] });
    await labels(other, { add: ['needs review'] }); // exactly as written: another label
    const listed = await api.json(`/v1/conversations?label=${encodeURIComponent('Needs Review')}`);
    assert.deepEqual(listed.body.data.items.map((c: { id: string }) => c.id), [tagged]);
    assert.deepEqual(await inboxIds(`?label=${encodeURIComponent('Needs Review')}`), [tagged]);
    const all = await operator.call('GET', '/dashboard/api/inbox');
    assert.deepEqual(all.body.data.items.find((c: { id: string }) => c.id === other).labels, ['needs review']);
    assert.equal((await api.json(`/v1/conversations?label=${'x'.repeat(41)}`)).res.status, 400);
  });
});

describe('private notes', () => {
  it('the team reads them in the inbox and its stream; a visitor never sees one anywhere', async () => {
    const subscription = await api.json('/v1/webhooks', { method: 'POST', body: { url: 'http://127.0.0.1:9/hook', events: ['message.created'] } });
    assert.equal(subscription.res.status, 201, JSON.stringify(subscription.body));
    const minted = await asVisitor('/v1/widget/tokens', { body: { bot_id: botId } });
    assert.equal(minted.res.status, 200, JSON.stringify(minted.body));
    const token = minted.body.data.token as string;
    const userId = minted.body.data.user_id as string;
    const sent = await asVisitor(`/v1/bots/${botId}/messages`, { body: { message: 'where is my order' }, token });
    assert.equal(sent.res.status, 200, JSON.stringify(sent.body));
    const id = sent.body.data.conversation_id as string;
    const asked = await asVisitor(`/v1/conversations/${id}/handoff`, { body: {}, token });
    assert.equal(asked.res.status, 200, JSON.stringify(asked.body));
    const live = await openStream(service.fetch, `http://127.0.0.1/v1/conversations/${id}/events?user_id=${userId}`, { authorization: `Bearer ${api.apiKey}` });

    const note = await operator.call('POST', `/dashboard/api/inbox/${id}/notes`, { body: { content: 'Secret: customer is a wombatwhisperer' } });
    assert.equal(note.status, 201, JSON.stringify(note.body));
    assert.equal(note.body.data.role, 'note');
    assert.ok(note.body.data.author.name);
    // the inbox's stream carries it, as a note
    for (;;) {
      const event = await inbox.next();
      if (event.event !== 'note') continue;
      assert.equal(json(event).id, note.body.data.id);
      break;
    }
    const notes = await operator.call('GET', `/dashboard/api/inbox/${id}/notes`);
    assert.deepEqual(notes.body.data.items.map((n: { id: string }) => n.id), [note.body.data.id]);

    // an operator's reply after it: the visitor's next live event is that reply, not the note
    assert.equal((await operator.call('POST', `/dashboard/api/inbox/${id}/take`)).status, 200);
    const reply = await operator.call('POST', `/dashboard/api/inbox/${id}/messages`, { body: { content: 'On its way!' } });
    assert.equal(reply.status, 201);
    for (;;) {
      const event = await live.next();
      assert.notEqual(event.event, 'note');
      assert.doesNotMatch(event.data, /wombatwhisperer/);
      if (event.event === 'message' && json(event).id === reply.body.data.id) break;
    }
    await live.close();
    // resumed from the start, the stored events hold no note either
    const resumed = await openStream(service.fetch, `http://127.0.0.1/v1/conversations/${id}/events?user_id=${userId}`, { authorization: `Bearer ${api.apiKey}`, 'last-event-id': '0' });
    for (;;) {
      const event = await resumed.next();
      assert.doesNotMatch(event.data, /wombatwhisperer/);
      if (event.event === 'message' && json(event).id === reply.body.data.id) break;
    }
    await resumed.close();

    // reads by the visitor's token, and by the API
    const viaToken = await asVisitor(`/v1/chat/history?conversation_id=${id}`, { token });
    assert.equal(viaToken.res.status, 200, JSON.stringify(viaToken.body));
    const history = await api.json(`/v1/chat/history?conversation_id=${id}&limit=100`);
    for (const page of [viaToken.body.data, history.body.data]) {
      assert.ok(page.items.some((m: { id: string }) => m.id === reply.body.data.id));
      assert.ok(page.items.every((m: { role: string }) => m.role !== 'note'));
    }
    const notesByToken = await asVisitor(`/dashboard/api/inbox/${id}/notes`, { token });
    assert.ok(notesByToken.res.status === 401 || notesByToken.res.status === 403, String(notesByToken.res.status));
    assert.doesNotMatch(JSON.stringify(notesByToken.body), /wombatwhisperer/);
    // the newest message of the conversation is the reply, and its text does not find the conversation
    assert.equal((await api.json(`/v1/conversations/${id}`)).body.data.last_message.id, reply.body.data.id);
    await operator.call('POST', `/dashboard/api/inbox/${id}/notes`, { body: { content: 'another wombatwhisperer note' } });
    assert.equal((await api.json(`/v1/conversations/${id}`)).body.data.last_message.id, reply.body.data.id);
    assert.deepEqual((await api.json('/v1/conversations?q=wombatwhisperer')).body.data.items, []);
    // no message.created webhook for a note; the operator's reply had one
    const events = await sql<{ role: string }>`select data->'message'->>'role' as role from webhook_deliveries
      where subscription_id = ${subscription.body.data.id} and type = 'message.created'`.execute(service.deps.db);
    const roles = events.rows.map((row) => row.role);
    assert.ok(roles.includes('operator'), JSON.stringify(roles));
    assert.ok(!roles.includes('note'), JSON.stringify(roles));
  });

  it('is refused empty, for another account\'s conversation, and without a session', async () => {
    const id = await startConversation(api, botId, nextUser());
    const blank = await operator.call('POST', `/dashboard/api/inbox/${id}/notes`, { body: { content: '   ' } });
    assert.equal(blank.status, 400);
    assert.equal(blank.body.error.code, 'validation_failed');
    const tooLong = await operator.call('POST', `/dashboard/api/inbox/${id}/notes`, { body: { content: 'x'.repeat(8001) } });
    assert.equal(tooLong.status, 400);
    const stranger = new DashboardClient(service);
    assert.equal((await stranger.signUp(uniqueEmail('stranger'), undefined, { account_name: 'Other' })).status, 201);
    const theirs = await stranger.call('POST', `/dashboard/api/inbox/${id}/notes`, { body: { content: 'hi' } });
    assert.equal(theirs.status, 404);
    assert.equal((await stranger.call('GET', `/dashboard/api/inbox/${id}/notes`)).status, 404);
    const anonymous = await operator.call('POST', `/dashboard/api/inbox/${id}/notes`, { body: { content: 'hi' }, cookie: null });
    assert.equal(anonymous.status, 401);
  });

  it('count in no usage report: the messages total does not move, read raw or through the rollups', async () => {
    const id = await startConversation(api, botId, nextUser());
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    // whole hours are read from the rollups; a range ending now reads its last hour from the rows
    const ranges = [`from=${new Date(hour - 3_600_000).toISOString()}&to=${new Date(hour + 3_600_000 - 1).toISOString()}`, ''];
    const totals = () => Promise.all(ranges.map(async (range) => (await api.json(`/v1/analytics/usage?granularity=hour&${range}`)).body.data.totals.messages as number));
    const before = await totals();
    const note = await operator.call('POST', `/dashboard/api/inbox/${id}/notes`, { body: { content: 'Not traffic' } });
    assert.equal(note.status, 201, JSON.stringify(note.body));
    assert.deepEqual(await totals(), before);
    // a deleted message has its hour counted again from the rows: the note left is not counted there either
    assert.equal((await operator.call('POST', `/dashboard/api/inbox/${id}/notes`, { body: { content: 'Still not traffic' } })).status, 201);
    await service.deps.db.deleteFrom('messages').where('id', '=', note.body.data.id).execute();
    assert.deepEqual(await totals(), before);
  });
});

describe('inbox search', () => {
  it('finds conversations by a message or note, with % and _ taken literally', async () => {
    const percent = await waiting(nextUser(), 'I want 100% of my money back');
    const thousand = await waiting(nextUser(), 'I paid 1000 euros');
    const underscore = await waiting(nextUser(), 'my order is ab_c');
    const abxc = await waiting(nextUser(), 'my order is abxc');
    await operator.call('POST', `/dashboard/api/inbox/${thousand}/notes`, { body: { content: 'Checked with Finance' } });
    assert.deepEqual(await inboxIds(`?q=${encodeURIComponent('100%')}`), [percent]);
    assert.deepEqual(await inboxIds(`?q=${encodeURIComponent('ab_c')}`), [underscore]);
    assert.deepEqual(await inboxIds('?q=ABXC'), [abxc]);
    assert.deepEqual(await inboxIds('?q=finance'), [thousand]);
    assert.deepEqual(await inboxIds(`?q=${encodeURIComponent('\\')}`), []);
    const tooLong = await operator.call('GET', `/dashboard/api/inbox?q=${'x'.repeat(201)}`);
    assert.equal(tooLong.status, 400);
    assert.equal(tooLong.body.error.code, 'validation_failed');
  });
});
