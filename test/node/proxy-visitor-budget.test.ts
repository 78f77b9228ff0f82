/// <reference types="node" />
// The proxy names the visitor it calls for (`AI-Chat-Visitor`, the token's user), so the service
// counts widget traffic in its visitors' budget, each visitor in a share of it, apart from the
// account's API keys: busy visitors cannot starve the account's own integrations. Against the REAL
// reference service, with the proxy's own limits off so only the service's budgets apply.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, hostProxy, mint, startService, type HostedProxy, type RunningService } from './proxy-harness.js';

const PLAN = { points: 8, durationSeconds: 60 };
const SHARE = 2; // the service gives each visitor a quarter of the plan

let service: RunningService;
let apiKey: string;
let botId: string;
let host: HostedProxy;

before(async () => {
  service = await startService({ rateLimit: PLAN });
  apiKey = (await service.service.createAccount({ name: 'visitor budget' })).apiKey;
  const bot = await fetch(`${service.url}/v1/bots`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Visitor budget bot' }),
  });
  assert.equal(bot.status, 201, await bot.clone().text());
  botId = ((await bot.json()) as { data: { id: string } }).data.id;
  host = await hostProxy({ apiKey, upstream: service.url, botId, rateLimit: { perToken: false, perIp: false } });
});
after(async () => {
  await host?.close();
  await service?.close();
});

const limitOf = (res: Response) => ({
  limit: Number(res.headers.get('x-ratelimit-limit')),
  remaining: Number(res.headers.get('x-ratelimit-remaining')),
});

describe('proxy: visitors have their own budget at the service', () => {
  it('a visitor over its share is refused; other visitors and the API key still answer', async () => {
    const alice = (await mint(host.url, { user: 'alice' })).token;
    const bob = (await mint(host.url, { user: 'bob' })).token;
    const profile = `/v1/bots/${botId}`;
    const first = await call(host.url, alice, profile);
    assert.equal(first.status, 200);
    assert.deepEqual(limitOf(first), { limit: SHARE, remaining: SHARE - 1 });
    assert.equal((await call(host.url, alice, profile)).status, 200);
    const refused = await call(host.url, alice, profile);
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);

    assert.equal((await call(host.url, bob, profile)).status, 200);
    const byKey = await fetch(`${service.url}/v1/bots`, { headers: { authorization: `Bearer ${apiKey}` } });
    assert.equal(byKey.status, 200);
    assert.deepEqual(limitOf(byKey), { limit: PLAN.points, remaining: PLAN.points - 2 }, 'only createBot and this call spent the keys’ budget');
  });
});
