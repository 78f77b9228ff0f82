// Human handoff through the token proxy, end to end as `npm start` mounts it: the demo
// proxy on the real service on a loopback port. A widget token reaches its own conversation's handoff
// state, asks for a person, leaves an offline message and reads the live events stream; another
// visitor's token gets 404 for that conversation; the bot's handoff settings are projected to what the
// widget needs; the stream ends with the token's lifetime and a renewed token resumes it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunningServer } from '../src/index.ts';
import { clientFor } from './support/core.ts';
import { DashboardClient, uniqueEmail } from './support/dashboard.ts';
import { DEMO_PROXY_PATH, startDemoServer } from './support/demo-server.ts';
import { json, openStream, type LiveStream } from './support/handoff.ts';

let server: RunningServer;
let operator: DashboardClient;
let inbox: LiveStream;

interface Visitor {
  token: string;
  botId: string;
  userId: string;
}

async function mint(userId?: string): Promise<Visitor> {
  const res = await fetch(`${server.url}${DEMO_PROXY_PATH}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify(userId ? { user_id: userId } : {}),
  });
  const body = (await res.json()) as any;
  assert.equal(res.status, 200, JSON.stringify(body));
  return { token: body.data.token, botId: body.data.bot_id, userId: body.data.user_id };
}

async function viaProxy(who: Visitor, path: string, init: { method?: string; body?: unknown } = {}) {
  const res = await fetch(`${server.url}${DEMO_PROXY_PATH}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/json', origin: server.url },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { res, body: (await res.json()) as any };
}

const eventsViaProxy = (who: Visitor, conversationId: string, query = '') =>
  openStream(fetch, `${server.url}${DEMO_PROXY_PATH}/v1/conversations/${conversationId}/events${query}`, { authorization: `Bearer ${who.token}`, origin: server.url });

before(async () => {
  server = await startDemoServer();
  operator = new DashboardClient(server.service);
  assert.equal((await operator.signUp(uniqueEmail('proxy-operator'))).status, 201);
  inbox = await openStream(server.service.fetch, 'http://127.0.0.1/dashboard/api/inbox/events', { cookie: `aicw_session=${operator.cookie}` });
});
after(async () => {
  inbox?.close();
  await server?.close();
});

describe('handoff through the demo token proxy', () => {
  it("a visitor asks for a person and gets the operator's reply live; another visitor reaches none of it", async () => {
    const alice = await mint();
    const first = await viaProxy(alice, `/v1/bots/${alice.botId}/messages`, { body: { message: 'hello' } });
    assert.equal(first.res.status, 200, JSON.stringify(first.body));
    const conversationId = first.body.data.conversation_id;

    // the seeded demo bot hands off (its reply says so too); turned off, the widget reads that
    assert.equal(first.body.data.handoff.status, 'bot');
    const api = clientFor(server.service, server.service.devApiKey!);
    await api.json(`/v1/bots/${alice.botId}/handoff`, { method: 'PUT', body: { enabled: false } });
    const off = await viaProxy(alice, `/v1/bots/${alice.botId}/handoff`);
    assert.deepEqual(off.body.data, { bot_id: alice.botId, enabled: false, available: false, unavailable_reason: 'disabled' });
    const put = await api.json(`/v1/bots/${alice.botId}/handoff`, { method: 'PUT', body: { enabled: true, intents: ['secret-intent'], hours: null } });
    assert.equal(put.res.status, 200, JSON.stringify(put.body));
    const profile = await viaProxy(alice, `/v1/bots/${alice.botId}/handoff`);
    assert.deepEqual(profile.body.data, { bot_id: alice.botId, enabled: true, available: true, unavailable_reason: null }, 'no intents or hours leak to the widget');

    const asked = await viaProxy(alice, `/v1/conversations/${conversationId}/handoff`, { body: { user_id: 'someone-else' } });
    assert.equal(asked.res.status, 200, JSON.stringify(asked.body));
    assert.equal(asked.body.data.status, 'waiting');

    // another visitor: 404 everywhere for Alice's conversation
    const mallory = await mint();
    assert.equal((await viaProxy(mallory, `/v1/conversations/${conversationId}/handoff`)).res.status, 404);
    assert.equal((await viaProxy(mallory, `/v1/conversations/${conversationId}/handoff`, { body: {} })).res.status, 404);
    assert.equal((await viaProxy(mallory, `/v1/conversations/${conversationId}/handoff/offline-messages`, { body: { email: 'm@x.example', message: 'hi' } })).res.status, 404);
    const peek = await fetch(`${server.url}${DEMO_PROXY_PATH}/v1/conversations/${conversationId}/events`, { headers: { authorization: `Bearer ${mallory.token}`, origin: server.url } });
    assert.equal(peek.status, 404);
    assert.equal(((await peek.json()) as any).error.code, 'resource_not_found');
    assert.equal((await viaProxy(mallory, '/v1/conversations/not-an-id/handoff')).res.status, 403);
    assert.equal((await viaProxy(mallory, `/v1/conversations/${conversationId}/events`, { body: {} })).res.status, 403, 'no POST to the stream');

    const stream = await eventsViaProxy(alice, conversationId);
    assert.equal((await operator.call('POST', `/dashboard/api/inbox/${conversationId}/take`)).status, 200);
    assert.equal(json(await stream.next()).status, 'with_person');
    assert.equal((await operator.call('POST', `/dashboard/api/inbox/${conversationId}/messages`, { body: { content: 'Hi Alice, Anna here' } })).status, 201);
    const reply = await stream.next();
    assert.equal(json(reply).role, 'operator');
    assert.equal(json(reply).content, 'Hi Alice, Anna here');

    // Alice types through the proxy: the inbox hears it; Mallory cannot type into her conversation
    assert.equal((await viaProxy(alice, `/v1/conversations/${conversationId}/handoff/typing`, { body: {} })).res.status, 200);
    assert.equal((await viaProxy(mallory, `/v1/conversations/${conversationId}/handoff/typing`, { body: {} })).res.status, 404);
    const typing = await stream.next();
    assert.equal(typing.event, 'typing');
    assert.equal(json(typing).from, 'visitor');

    // Alice writes through the proxy: held from the bot
    const held = await viaProxy(alice, `/v1/bots/${alice.botId}/messages`, { body: { message: 'thanks!' } });
    assert.equal(held.body.data.handoff.held, true);
    assert.equal(json(await stream.next()).content, 'thanks!');
    stream.close();

    const left = await viaProxy(alice, `/v1/conversations/${conversationId}/handoff/offline-messages`, { body: { email: 'alice@example.test', message: 'Write me later' } });
    assert.equal(left.res.status, 201, JSON.stringify(left.body));
    assert.equal(left.body.data.user_id, alice.userId);
  });

  it('the stream ends with max_seconds (capped at the token lifetime) and a renewed token resumes it', async () => {
    const bob = await mint();
    const first = await viaProxy(bob, `/v1/bots/${bob.botId}/messages`, { body: { message: 'hello' } });
    const conversationId = first.body.data.conversation_id;
    await viaProxy(bob, `/v1/conversations/${conversationId}/handoff`, { body: {} });
    const short = await eventsViaProxy(bob, conversationId, '?max_seconds=1');
    // openStream returns once `ready` came (or the stream ended first: then it is missing)
    const ready = short.received.find((e) => e.event === 'ready');
    assert.equal(ready?.event, 'ready');
    await assert.rejects(short.next(5000), /stream ended/);

    // while away: taken and answered
    await operator.call('POST', `/dashboard/api/inbox/${conversationId}/take`);
    await operator.call('POST', `/dashboard/api/inbox/${conversationId}/messages`, { body: { content: 'while you were away' } });

    const renewed = await mint(bob.userId); // the widget renews its token for the same visitor
    assert.notEqual(renewed.token, bob.token);
    const resumed = await eventsViaProxy(renewed, conversationId, `?last_event_id=${ready!.id}`);
    assert.equal(json(await resumed.next()).status, 'with_person');
    assert.equal(json(await resumed.next()).content, 'while you were away');
    resumed.close();
  });
});
