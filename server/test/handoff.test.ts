// Human handoff on the real service: status transitions and their 409s, the atomic take,
// visitor messages held from the bot, operator replies with name and avatar, live delivery on the
// visitor's and the inbox's SSE streams, resume by Last-Event-ID (nothing lost, nothing duplicated),
// automatic handoff by intent and by fallbacks in a row, opening hours and offline messages.
// PGlite by default; PostgreSQL + Redis with `source /tmp/testdb.env`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../src/index.ts';
import type { TestClient } from './support/core.ts';
import { DashboardClient, uniqueEmail } from './support/dashboard.ts';
import { handoffSetup, json, openStream, startConversation, type LiveStream } from './support/handoff.ts';
import { createTestService } from './support/test-database.ts';

let service: Service;
let api: TestClient;
let operator: DashboardClient;
let botId: string;
let inbox: LiveStream;
let users = 0;
const nextUser = () => `visitor-${++users}`;

const cookieOf = (client: DashboardClient) => ({ cookie: `aicw_session=${client.cookie}` });
const openInbox = (client: DashboardClient, headers: Record<string, string> = {}) =>
  openStream(service.fetch, 'http://127.0.0.1/dashboard/api/inbox/events', { ...cookieOf(client), ...headers });
const visitorEvents = (conversationId: string, userId: string, headers: Record<string, string> = {}) =>
  openStream(service.fetch, `http://127.0.0.1/v1/conversations/${conversationId}/events?user_id=${userId}`, { authorization: `Bearer ${api.apiKey}`, ...headers });

before(async () => {
  service = await createTestService();
  ({ api, operator, botId } = await handoffSetup(service, { intents: ['order.status'] }));
  inbox = await openInbox(operator); // an open inbox: this operator is online
});
after(async () => {
  inbox?.close();
  await service?.close();
});

async function askForPerson(conversationId: string, userId: string) {
  return api.json(`/v1/conversations/${conversationId}/handoff`, { method: 'POST', body: { user_id: userId } });
}

describe('handoff status', () => {
  it('bot → waiting → with_person → bot, and the transitions that are refused', async () => {
    const user = nextUser();
    const conversationId = await startConversation(api, botId, user);
    const state = await api.json(`/v1/conversations/${conversationId}/handoff?user_id=${user}`);
    assert.equal(state.res.status, 200);
    assert.deepEqual({ ...state.body.data }, { conversation_id: conversationId, status: 'bot', operator: null, waiting_since: null, available: true, unavailable_reason: null });

    // another user's conversation answers 404 (ids cannot be probed)
    assert.equal((await askForPerson(conversationId, 'someone-else')).res.status, 404);
    // replying or closing as an operator before anyone asked: 409
    const early = await operator.call('POST', `/dashboard/api/inbox/${conversationId}/take`);
    assert.equal(early.status, 409);
    assert.equal(early.body.error.code, 'invalid_status_transition');

    const asked = await askForPerson(conversationId, user);
    assert.equal(asked.res.status, 200, JSON.stringify(asked.body));
    assert.equal(asked.body.data.status, 'waiting');
    assert.ok(asked.body.data.waiting_since);
    assert.equal((await askForPerson(conversationId, user)).body.data.status, 'waiting', 'asking twice changes nothing');

    const list = await operator.call('GET', '/dashboard/api/inbox');
    const item = list.body.data.items.find((c: { id: string }) => c.id === conversationId);
    assert.equal(item.status, 'waiting');
    assert.equal(typeof item.wait_seconds, 'number');

    const notYet = await operator.call('POST', `/dashboard/api/inbox/${conversationId}/messages`, { body: { content: 'hi' } });
    assert.equal(notYet.status, 409);

    const taken = await operator.call('POST', `/dashboard/api/inbox/${conversationId}/take`);
    assert.equal(taken.status, 200, JSON.stringify(taken.body));
    assert.equal(taken.body.data.status, 'with_person');
    assert.match(taken.body.data.operator.name, /^operator\./);

    const back = await operator.call('POST', `/dashboard/api/inbox/${conversationId}/close`, { body: { to: 'bot' } });
    assert.equal(back.body.data.status, 'bot');
    assert.equal(back.body.data.operator, null);
    const closeAgain = await operator.call('POST', `/dashboard/api/inbox/${conversationId}/close`, { body: { to: 'closed' } });
    assert.equal(closeAgain.status, 409);
    assert.equal(closeAgain.body.error.code, 'invalid_status_transition');
    const badClose = await operator.call('POST', `/dashboard/api/inbox/${conversationId}/close`, { body: { to: 'waiting' } });
    assert.equal(badClose.status, 400);
  });

  it('two operators take the same conversation at once: exactly one wins', async () => {
    const second = new DashboardClient(service);
    const invite = await operator.call('POST', '/dashboard/api/invites', { body: {} });
    assert.equal(invite.status, 201, JSON.stringify(invite.body));
    assert.equal((await second.signUp(uniqueEmail('second'), undefined, { invite: invite.body.data.token })).status, 201);
    for (let round = 0; round < 5; round++) {
      const user = nextUser();
      const conversationId = await startConversation(api, botId, user);
      await askForPerson(conversationId, user);
      const answers = await Promise.all([operator, second].map((who) => who.call('POST', `/dashboard/api/inbox/${conversationId}/take`)));
      assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409], JSON.stringify(answers.map((a) => a.body)));
      const winner = answers.find((a) => a.status === 200)!;
      const loser = answers.find((a) => a.status === 409)!;
      assert.equal(loser.body.error.code, 'invalid_status_transition');
      // the loser cannot reply or close it
      const loserClient = answers[0] === loser ? operator : second;
      assert.equal((await loserClient.call('POST', `/dashboard/api/inbox/${conversationId}/messages`, { body: { content: 'me too' } })).status, 409);
      assert.equal((await loserClient.call('POST', `/dashboard/api/inbox/${conversationId}/close`, { body: { to: 'closed' } })).status, 409);
      assert.equal(winner.body.data.status, 'with_person');
    }
  });
});

describe('messages with a person', () => {
  it('a held message retried with its Idempotency-Key after its answer was lost is stored once', async () => {
    const user = nextUser();
    const conversationId = await startConversation(api, botId, user);
    await askForPerson(conversationId, user);
    const send = (message: string) =>
      api.json(`/v1/bots/${botId}/messages`, { method: 'POST', body: { message, user_id: user }, headers: { 'idempotency-key': 'held-lost' } });
    const first = await send('are you there?');
    assert.equal(first.body.data.handoff.held, true);
    // the crash between "message stored" and "answer recorded": the middleware forgot the key
    await service.deps.db.deleteFrom('idempotency_keys').where('key', '=', 'held-lost').execute();
    const again = await send('are you there?');
    assert.equal(again.res.status, 200, JSON.stringify(again.body));
    assert.equal(again.res.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.data.message.id, first.body.data.message.id, 'the stored message, answered again');
    assert.deepEqual(again.body.data.handoff, first.body.data.handoff);
    await service.deps.db.deleteFrom('idempotency_keys').where('key', '=', 'held-lost').execute();
    const reused = await send('something else');
    assert.equal(reused.res.status, 409);
    assert.equal(reused.body.error.code, 'idempotency_key_reused');
    const history = await api.json(`/v1/chat/history?conversation_id=${conversationId}&limit=50`);
    const contents = history.body.data.items.map((m: { content: string }) => m.content);
    assert.deepEqual(contents.filter((c: string) => c === 'are you there?' || c === 'something else'), ['are you there?']);
  });

  it('held from the bot, delivered live both ways, with the operator name; closed ends the conversation', async () => {
    const user = nextUser();
    const conversationId = await startConversation(api, botId, user);
    await askForPerson(conversationId, user);
    const visitor = await visitorEvents(conversationId, user);
    await operator.call('POST', `/dashboard/api/inbox/${conversationId}/take`);
    const taken = await visitor.next();
    assert.equal(taken.event, 'status');
    assert.equal(json(taken).status, 'with_person');
    assert.ok(taken.id);

    // the visitor writes: stored, not answered by the bot, and the inbox hears it
    const held = await api.json(`/v1/bots/${botId}/messages`, { method: 'POST', body: { message: 'hello, is anyone there?', user_id: user } });
    assert.equal(held.res.status, 200, JSON.stringify(held.body));
    assert.equal(held.body.data.handoff.held, true);
    assert.equal(held.body.data.handoff.status, 'with_person');
    assert.equal(held.body.data.message.role, 'user');
    let heard;
    do heard = await inbox.next();
    while (!(heard.event === 'message' && json(heard).conversation_id === conversationId));
    assert.equal(json(heard).content, 'hello, is anyone there?');

    // the visitor's stream also carries their own message (another tab of theirs sees it)
    const own = await visitor.next();
    assert.equal(own.event, 'message');
    assert.equal(json(own).role, 'user');
    // the visitor types: the inbox hears it (not stored: no id of its own)
    const visitorTyping = await api.json(`/v1/conversations/${conversationId}/handoff/typing`, { method: 'POST', body: { user_id: user } });
    assert.equal(visitorTyping.res.status, 200, JSON.stringify(visitorTyping.body));
    let typed;
    do typed = await inbox.next();
    while (!(typed.event === 'typing' && json(typed).conversation_id === conversationId));
    assert.equal(json(typed).from, 'visitor');
    assert.equal((await visitor.next()).event, 'typing', "the visitor's own stream carries it too");
    await operator.call('POST', `/dashboard/api/inbox/${conversationId}/typing`);
    const typing = await visitor.next();
    assert.equal(json(typing).from, 'operator');
    assert.equal(typing.event, 'typing');
    assert.equal(typing.id, own.id, 'typing is not stored: it has no id of its own');

    const hostile = '<img src=x onerror=alert(1)> Hi, I am Anna';
    const reply = await operator.call('POST', `/dashboard/api/inbox/${conversationId}/messages`, { body: { content: hostile } });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    const delivered = await visitor.next();
    assert.equal(delivered.event, 'message');
    assert.equal(json(delivered).role, 'operator');
    assert.equal(json(delivered).content, hostile);
    assert.match(json(delivered).author.name, /^operator\./);

    // history (a reload) shows the operator message with its author, and no bot reply to the held one
    const history = await api.json(`/v1/chat/history?conversation_id=${conversationId}&limit=50`);
    const roles = history.body.data.items.map((m: { role: string }) => m.role).sort();
    assert.deepEqual(roles, ['assistant', 'operator', 'user', 'user']);
    const operatorMessage = history.body.data.items.find((m: { role: string }) => m.role === 'operator');
    assert.equal(operatorMessage.author.name, json(delivered).author.name);
    assert.equal(history.body.data.items.filter((m: { role: string }) => m.role === 'assistant').length, 1, 'only the greeting was answered by the bot');

    const closed = await operator.call('POST', `/dashboard/api/inbox/${conversationId}/close`, { body: { to: 'closed' } });
    assert.equal(closed.body.data.status, 'closed');
    assert.equal(json(await visitor.next()).status, 'closed');
    visitor.close();
    const lateTyping = await api.json(`/v1/conversations/${conversationId}/handoff/typing`, { method: 'POST', body: { user_id: user } });
    assert.equal(lateTyping.res.status, 409);
    const refused = await api.json('/v1/chat', { method: 'POST', body: { messages: [{ role: 'user', content: 'again' }], conversation_id: conversationId, user_id: user } });
    assert.equal(refused.res.status, 409);
    assert.equal(refused.body.error.code, 'invalid_status_transition');
    // the bot endpoint starts a new conversation for the same visitor
    const fresh = await api.json(`/v1/bots/${botId}/messages`, { method: 'POST', body: { message: 'hello again', user_id: user } });
    assert.notEqual(fresh.body.data.conversation_id, conversationId);
    assert.equal(fresh.body.data.handoff.status, 'bot', 'with the bot again (the state rides along: handoff is on)');
    assert.equal(fresh.body.data.handoff.conversation_id, fresh.body.data.conversation_id);
  });

  it('a reconnect with Last-Event-ID gets exactly what it missed, in order', async () => {
    const user = nextUser();
    const conversationId = await startConversation(api, botId, user);
    await askForPerson(conversationId, user);
    const first = await visitorEvents(conversationId, user);
    await operator.call('POST', `/dashboard/api/inbox/${conversationId}/take`);
    await operator.call('POST', `/dashboard/api/inbox/${conversationId}/messages`, { body: { content: 'one' } });
    assert.equal((await first.next()).event, 'status');
    const one = await first.next();
    assert.equal(json(one).content, 'one');
    first.close();

    // while disconnected
    for (const content of ['two', 'three', 'four']) await operator.call('POST', `/dashboard/api/inbox/${conversationId}/messages`, { body: { content } });

    const again = await visitorEvents(conversationId, user, { 'last-event-id': one.id! });
    const missed = [await again.next(), await again.next(), await again.next()];
    assert.deepEqual(missed.map((e) => json(e).content), ['two', 'three', 'four']);
    await operator.call('POST', `/dashboard/api/inbox/${conversationId}/messages`, { body: { content: 'five' } });
    assert.equal(json(await again.next()).content, 'five');
    await assert.rejects(again.next(300), /no event/, 'nothing is delivered twice');
    const ids = again.received.filter((e) => e.event === 'message').map((e) => Number(e.id));
    assert.deepEqual(ids, [...ids].sort((a, b) => a - b));
    assert.equal(new Set(ids).size, ids.length);
    again.close();

    // a reconnect without Last-Event-ID starts after the current position (the client reads history first)
    const fresh = await visitorEvents(conversationId, user);
    await assert.rejects(fresh.next(300), /no event/);
    fresh.close();

    const bad = await api.json(`/v1/conversations/${conversationId}/events?user_id=${user}`, { headers: { 'last-event-id': 'abc' } });
    assert.equal(bad.res.status, 400);
    assert.equal(bad.body.error.param, 'Last-Event-ID');
  });

  it('max_seconds ends the stream (a client then reconnects, e.g. with a renewed token)', async () => {
    const user = nextUser();
    const conversationId = await startConversation(api, botId, user);
    const res = await api.call(`/v1/conversations/${conversationId}/events?user_id=${user}&max_seconds=1`);
    assert.equal(res.status, 200);
    const text = await res.text(); // ends by itself
    assert.match(text, /event: ready/);
  });
});

describe('automatic handoff and availability', () => {
  it('a trained handoff intent hands off; the reply says so', async () => {
    const user = nextUser();
    const { body } = await api.json(`/v1/bots/${botId}/messages`, { method: 'POST', body: { message: 'track order ORD-123456', user_id: user } });
    assert.equal(body.data.intent, 'order.status');
    assert.equal(body.data.handoff.status, 'waiting');
  });

  it('N fallbacks in a row hand off', async () => {
    const setup = await api.json(`/v1/bots/${botId}/handoff`, { method: 'PUT', body: { enabled: true, after_fallbacks: 2, intents: [] } });
    assert.equal(setup.body.data.after_fallbacks, 2);
    const user = nextUser();
    const one = await api.json(`/v1/bots/${botId}/messages`, { method: 'POST', body: { message: 'qwxz blorp', user_id: user } });
    assert.equal(one.body.data.fallback, true);
    assert.deepEqual({ ...one.body.data.handoff }, { conversation_id: one.body.data.conversation_id, status: 'bot', operator: null, waiting_since: null, available: true, unavailable_reason: null });
    const two = await api.json(`/v1/bots/${botId}/messages`, { method: 'POST', body: { message: 'zzkq flarn', user_id: user } });
    assert.equal(two.body.data.handoff.status, 'waiting');
    const three = await api.json(`/v1/bots/${botId}/messages`, { method: 'POST', body: { message: 'anyone?', user_id: user } });
    assert.equal(three.body.data.handoff.held, true, 'now held for the person');
    // given back to the bot, the count starts again: one more fallback does not hand off at once
    const conversationId = three.body.data.conversation_id;
    assert.equal((await operator.call('POST', `/dashboard/api/inbox/${conversationId}/close`, { body: { to: 'bot' } })).status, 200);
    const four = await api.json(`/v1/bots/${botId}/messages`, { method: 'POST', body: { message: 'vrrp glonk', user_id: user } });
    assert.equal(four.body.data.fallback, true);
    assert.equal(four.body.data.handoff.status, 'bot');
    const five = await api.json(`/v1/bots/${botId}/messages`, { method: 'POST', body: { message: 'plix quorb', user_id: user } });
    assert.equal(five.body.data.handoff.status, 'waiting');
  });

  it('outside the opening hours: unavailable, and an email + message is stored for the inbox', async () => {
    // a range that is never now: one minute on the day that is not today in UTC
    const day = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'][(new Date().getUTCDay() + 3) % 7];
    const hours = { time_zone: 'UTC', weekly: [{ day, from: '00:00', to: '00:01' }] };
    const put = await api.json(`/v1/bots/${botId}/handoff`, { method: 'PUT', body: { enabled: true, hours } });
    assert.equal(put.res.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.data.unavailable_reason, 'outside_hours');
    // the same week open all day in a zone far from UTC: available (the local day and time come from the zone)
    const allWeek = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => ({ day: d, from: '00:00', to: '24:00' }));
    const open = await api.json(`/v1/bots/${botId}/handoff`, { method: 'PUT', body: { enabled: true, hours: { time_zone: 'Pacific/Kiritimati', weekly: allWeek } } });
    assert.equal(open.body.data.available, true, JSON.stringify(open.body));
    await api.json(`/v1/bots/${botId}/handoff`, { method: 'PUT', body: { enabled: true, hours } });
    const user = nextUser();
    const conversationId = await startConversation(api, botId, user);
    const asked = await askForPerson(conversationId, user);
    assert.equal(asked.res.status, 409);
    assert.equal(asked.body.error.code, 'handoff_unavailable');
    const left = await api.json(`/v1/conversations/${conversationId}/handoff/offline-messages`, { method: 'POST', body: { user_id: user, email: 'me@example.test', message: 'Call me back' } });
    assert.equal(left.res.status, 201, JSON.stringify(left.body));
    const offline = await operator.call('GET', '/dashboard/api/inbox/offline-messages');
    assert.ok(offline.body.data.items.some((m: { id: string; email: string }) => m.id === left.body.data.id && m.email === 'me@example.test'));
    const badEmail = await api.json(`/v1/conversations/${conversationId}/handoff/offline-messages`, { method: 'POST', body: { email: 'nope', message: 'x' } });
    assert.equal(badEmail.res.status, 400);
    await api.json(`/v1/bots/${botId}/handoff`, { method: 'PUT', body: { enabled: true, intents: ['order.status'] } });
  });

  it('settings are validated at the edge', async () => {
    const zone = await api.json(`/v1/bots/${botId}/handoff`, { method: 'PUT', body: { enabled: true, hours: { time_zone: 'Mars/Olympus', weekly: [] } } });
    assert.equal(zone.res.status, 400);
    assert.equal(zone.body.error.param, 'hours.time_zone');
    const range = await api.json(`/v1/bots/${botId}/handoff`, { method: 'PUT', body: { enabled: true, hours: { time_zone: 'UTC', weekly: [{ day: 'mon', from: '10:00', to: '09:00' }] } } });
    assert.equal(range.res.status, 400);
    const missing = await api.json('/v1/bots/bot_missing123456/handoff');
    assert.equal(missing.res.status, 404);
  });

  it('nobody online: unavailable until an inbox is open (one of two tabs closing keeps the operator online)', async () => {
    const secondTab = await openInbox(operator);
    await secondTab.close();
    await service.deps.handoff.closingStreams.closed(); // the closed stream's cleanup
    const stillThere = nextUser();
    const stillId = await startConversation(api, botId, stillThere);
    assert.equal((await askForPerson(stillId, stillThere)).res.status, 200, 'the first tab is still open');
    await inbox.close();
    await service.deps.handoff.closingStreams.closed(); // the closed stream's cleanup
    const user = nextUser();
    const conversationId = await startConversation(api, botId, user);
    const asked = await askForPerson(conversationId, user);
    assert.equal(asked.res.status, 409);
    assert.match(asked.body.error.message, /Nobody is online/);
    inbox = await openInbox(operator);
    assert.equal((await askForPerson(conversationId, user)).body.data.status, 'waiting');
  });
});
