/// <reference types="node" />
// A widget token reads its own bot's public profile and nothing more: the
// widget shows the bot's quick replies through the token, while the bot's training data, channels
// and description (the account's own work) and every other bot stay behind 403 permission_denied.
// Against the REAL reference service.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, createBot, hostProxy, json, mint, startService, type HostedProxy, type RunningService } from './proxy-harness.js';

let service: RunningService;
let apiKey: string;
let botId: string;
let host: HostedProxy;

before(async () => {
  service = await startService();
  apiKey = (await service.service.createAccount({ name: 'bot profile' })).apiKey;
  botId = await createBot(service.url, apiKey);
  const put = await fetch(`${service.url}/v1/bots/${botId}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      quick_replies: ['Pricing', 'Opening hours'],
      description: 'internal notes',
      avatar_url: 'https://cdn.example.com/bot.png',
    }),
  });
  assert.equal(put.status, 200);
  host = await hostProxy({
    apiKey,
    upstream: service.url,
    botId,
    allowAnonymous: true,
    // alice may only chat: no bot:message scope
    authorize: async (request) =>
      /session=alice/.test(request.headers.get('cookie') ?? '') ? { userId: 'alice', scopes: ['chat:write', 'chat:read'] } : null,
  });
});
after(async () => {
  await host?.close();
  await service?.close();
});

describe('proxy: the bot a token may read', () => {
  it('answers its own bot as the public profile: id, name, language, quick replies, avatar, attachment limits, appearance', async () => {
    const { token } = await mint(host.url);
    const res = await call(host.url, token, `/v1/bots/${botId}`, { method: 'GET' });
    assert.equal(res.status, 200);
    const body = await json(res);
    assert.deepEqual(Object.keys(body.data).sort(), ['appearance', 'attachments', 'avatar_url', 'id', 'language', 'name', 'quick_replies']);
    assert.equal(body.data.avatar_url, 'https://cdn.example.com/bot.png');
    assert.equal(body.data.id, botId);
    assert.deepEqual(body.data.quick_replies, ['Pricing', 'Opening hours']);
    assert.ok(!JSON.stringify(body).includes('internal notes'), 'no description');
    assert.ok(!JSON.stringify(body).includes('hi there'), 'no training examples');
    assert.match(body.meta!.request_id, /^req_/);
  });

  it('refuses other bots, the bot list, and a token without the bot:message scope', async () => {
    const { token } = await mint(host.url);
    for (const path of ['/v1/bots/bot_someone_else', '/v1/bots', `/v1/bots/${botId}/training`]) {
      const res = await call(host.url, token, path, { method: 'GET' });
      assert.equal(res.status, 403, path);
      assert.equal((await json(res)).error!.code, 'permission_denied');
    }
    const chatOnly = await mint(host.url, { user: 'alice' });
    const res = await call(host.url, chatOnly.token, `/v1/bots/${botId}`, { method: 'GET' });
    assert.equal(res.status, 403);
  });
});
