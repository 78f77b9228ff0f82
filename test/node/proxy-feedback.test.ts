/// <reference types="node" />
// Feedback through a proxy on another origin than the shop's page: the preflight
// allows DELETE, a token rates as its own user and bot whatever the body says, and takes it back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, createBot, hostProxy, json, mint, SHOP, startService, type HostedProxy, type RunningService } from './proxy-harness.js';

let service: RunningService;
let host: HostedProxy;
let botId: string;

before(async () => {
  service = await startService();
  const { apiKey } = await service.service.createAccount({ name: 'proxy feedback' });
  botId = await createBot(service.url, apiKey);
  host = await hostProxy({ apiKey, upstream: service.url, botId });
});
after(async () => {
  await host?.close();
  await service?.close();
});

describe('proxy: feedback', () => {
  it('lets a token rate its own answer from an allowed origin, and take it back with DELETE', async () => {
    const preflight = await fetch(`${host.url}/v1/messages/msg_abcdefgh12/feedback`, {
      method: 'OPTIONS',
      headers: { origin: SHOP, 'access-control-request-method': 'DELETE', 'access-control-request-headers': 'authorization' },
    });
    assert.equal(preflight.status, 204);
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /\bDELETE\b/);

    const { token } = await mint(host.url, { user: 'alice', origin: SHOP });
    const reply = await json(await call(host.url, token, `/v1/bots/${botId}/messages`, { origin: SHOP, body: { message: 'hello' } }));
    const answer = reply.data.message.id as string;
    const path = `/v1/messages/${answer}/feedback`;
    const given = await json(await call(host.url, token, path, { origin: SHOP, body: { rating: 'down', reason: 'other', user_id: 'bob' } }));
    assert.equal(given.success, true, JSON.stringify(given));
    assert.deepEqual([given.data.user_id, given.data.bot_id, given.data.reason], ['alice', botId, 'other']);

    const { token: bobToken } = await mint(host.url, { user: 'bob', origin: SHOP });
    const bob = await call(host.url, bobToken, path, { origin: SHOP, method: 'DELETE' });
    assert.equal(bob.status, 404, 'bob cannot take back what alice gave');
    const removed = await call(host.url, token, path, { origin: SHOP, method: 'DELETE' });
    assert.equal(removed.status, 200);
    assert.equal(removed.headers.get('access-control-allow-origin'), SHOP);
    assert.equal((await json(removed)).data.deleted, true);
  });

  it('refuses another bot, and a path segment that is not a message id', async () => {
    const { token } = await mint(host.url, { user: 'alice', origin: SHOP });
    const otherBot = await call(host.url, token, '/v1/messages/msg_abcdefgh12/feedback', { origin: SHOP, body: { rating: 'up', bot_id: 'bot_other1234' } });
    assert.equal(otherBot.status, 403);
    assert.equal((await json(otherBot)).error?.code, 'permission_denied');
    const deleteOther = await call(host.url, token, '/v1/messages/msg_abcdefgh12/feedback?bot_id=bot_other1234', { origin: SHOP, method: 'DELETE' });
    assert.equal(deleteOther.status, 403);
    const odd = await call(host.url, token, '/v1/messages/conv_abcdefgh12/feedback', { origin: SHOP, body: { rating: 'up' } });
    assert.equal(odd.status, 403);
    const get = await call(host.url, token, '/v1/messages/msg_abcdefgh12/feedback', { origin: SHOP });
    assert.equal(get.status, 403, 'only POST and DELETE');
  });
});
