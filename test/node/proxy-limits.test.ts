/// <reference types="node" />
// The proxy's own rate limits (per token subject, per client IP) in front of the REAL service.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, hostProxy, json, mint, startService, type RunningService } from './proxy-harness.js';

const BOT = 'bot_limits_only'; // the token only names it; history calls need no bot

let service: RunningService;
let apiKey: string;

before(async () => {
  service = await startService();
  apiKey = (await service.service.createAccount({ name: 'proxy limits' })).apiKey;
});
after(() => service?.close());

describe('proxy: rate limits', () => {
  it('limits each token subject (429 rate_limited, X-RateLimit-*, Retry-After), across renewed tokens', async () => {
    const limited = await hostProxy({
      apiKey,
      upstream: service.url,
      botId: BOT,
      rateLimit: { perToken: { points: 2, windowSeconds: 60 }, perIp: false },
    });
    try {
      const first = (await mint(limited.url, { user: 'alice' })).token;
      // off-allowlist calls are refused before counting, so use an allowed one that fails upstream-side
      const statuses: number[] = [];
      let last: Response | null = null;
      for (let i = 0; i < 3; i++) {
        last = await call(limited.url, first, '/v1/chat/history?conversation_id=conv_missing');
        statuses.push(last.status);
        if (i < 2) await last.arrayBuffer();
      }
      assert.equal(statuses[2], 429, `statuses ${statuses.join(',')}`);
      assert.notEqual(statuses[0], 429);
      const body = await json(last!);
      assert.equal(body.error!.code, 'rate_limited');
      assert.equal(last!.headers.get('x-ratelimit-limit'), '2');
      assert.equal(last!.headers.get('x-ratelimit-remaining'), '0');
      assert.match(last!.headers.get('x-ratelimit-reset') ?? '', /^\d{10}$/);
      const retry = Number(last!.headers.get('retry-after'));
      assert.ok(retry >= 1 && retry <= 60, `retry-after ${retry}`);

      const renewed = (await mint(limited.url, { user: 'alice' })).token;
      assert.equal((await call(limited.url, renewed, '/v1/chat/history')).status, 429);
      const other = (await mint(limited.url, { user: 'bob' })).token;
      assert.notEqual((await call(limited.url, other, '/v1/chat/history')).status, 429);
    } finally {
      await limited.close();
    }
  });

  it('limits each client IP, token minting included', async () => {
    const limited = await hostProxy({
      apiKey,
      upstream: service.url,
      botId: BOT,
      allowAnonymous: true,
      rateLimit: { perIp: { points: 2, windowSeconds: 60 } },
    });
    try {
      assert.equal((await mint(limited.url)).res.status, 200);
      assert.equal((await mint(limited.url)).res.status, 200);
      const third = await mint(limited.url);
      assert.equal(third.res.status, 429);
      assert.equal(third.body.error!.code, 'rate_limited');
      assert.ok(third.res.headers.get('retry-after'));
    } finally {
      await limited.close();
    }
  });

  it('trusts X-Forwarded-For only when told to', async () => {
    const options = { apiKey, upstream: service.url, botId: BOT, allowAnonymous: true, rateLimit: { perIp: { points: 1, windowSeconds: 60 } } };
    const trusting = await hostProxy({ ...options, trustProxyHeaders: true });
    const plain = await hostProxy(options);
    try {
      const viaForwarded = async (base: string, ip: string) =>
        (await fetch(`${base}/token`, { method: 'POST', headers: { 'x-forwarded-for': `${ip}, 10.0.0.1` } })).status;
      assert.equal(await viaForwarded(trusting.url, '203.0.113.1'), 200);
      assert.equal(await viaForwarded(trusting.url, '203.0.113.2'), 200); // another client
      assert.equal(await viaForwarded(trusting.url, '203.0.113.1'), 429);
      assert.equal(await viaForwarded(plain.url, '203.0.113.1'), 200);
      assert.equal(await viaForwarded(plain.url, '203.0.113.2'), 429); // same socket, header ignored
    } finally {
      await trusting.close();
      await plain.close();
    }
  });
});
