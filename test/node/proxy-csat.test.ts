/// <reference types="node" />
// A satisfaction rating through the token proxy: a visitor reads and gives the rating of their own
// conversation only, as the token's user (a `user_id` they send is replaced) and for the token's
// bot; another visitor's token answers 404, and a second rating 409. Against the REAL service.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, createBot, hostProxy, mint, SHOP, startService, type HostedProxy, type RunningService } from './proxy-harness.js';

let service: RunningService;
let botId: string;
let host: HostedProxy;

before(async () => {
  service = await startService();
  const { apiKey } = await service.service.createAccount({ name: 'csat via proxy' });
  botId = await createBot(service.url, apiKey);
  host = await hostProxy({ apiKey, upstream: service.url, botId });
});
after(async () => {
  await host?.close();
  await service?.close();
});

async function json(res: Response): Promise<{ status: number; body: any }> {
  return { status: res.status, body: await res.json() };
}

describe('CSAT through the proxy', () => {
  it("rates the token user's own conversation once, as that user; another visitor gets 404", async () => {
    const alice = (await mint(host.url, { user: 'alice', origin: SHOP })).token;
    const bob = (await mint(host.url, { user: 'bob', origin: SHOP })).token;
    const turn = await json(await call(host.url, alice, `/v1/bots/${botId}/messages`, { method: 'POST', body: { message: 'hello' }, origin: SHOP }));
    assert.equal(turn.status, 200, JSON.stringify(turn.body));
    const path = `/v1/conversations/${turn.body.data.conversation_id}/csat`;

    const state = await json(await call(host.url, alice, path, { origin: SHOP }));
    assert.equal(state.status, 200, JSON.stringify(state.body));
    assert.deepEqual(state.body.data, { conversation_id: turn.body.data.conversation_id, survey: false, moment: 'after_bot', csat: null });
    assert.equal((await json(await call(host.url, bob, path, { origin: SHOP }))).status, 404);
    assert.equal((await json(await call(host.url, bob, path, { method: 'POST', body: { rating: 1 }, origin: SHOP }))).status, 404);

    const given = await json(await call(host.url, alice, path, { method: 'POST', body: { rating: 5, comment: 'Nice', user_id: 'mallory' }, origin: SHOP }));
    assert.equal(given.status, 201, JSON.stringify(given.body));
    assert.equal(given.body.data.user_id, 'alice', "the token's user, whatever was sent");
    assert.equal(given.body.data.bot_id, botId);
    const again = await json(await call(host.url, alice, path, { method: 'POST', body: { rating: 1 }, origin: SHOP }));
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'csat_already_given');
    // a path that is not a conversation id is refused by the proxy itself
    assert.equal((await call(host.url, alice, '/v1/conversations/..%2Fbots/csat', { origin: SHOP })).status, 403);
  });
});
