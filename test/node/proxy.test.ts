/// <reference types="node" />
// The token proxy against the REAL reference service: minting, verification, the allowlist, the
// Origin check and the refusals. Forwarding (chat, history, SSE…) is in proxy-forward.test.ts,
// rate limits in proxy-limits.test.ts, host frameworks in proxy-hosts.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createProxy, ProxyError } from '../../src/proxy/index.js';
import { TokenService } from '../../src/proxy/tokens.js';
import {
  call,
  claimsOf,
  hostProxy,
  json,
  mint,
  SECRET,
  SHOP,
  startService,
  type HostedProxy,
  type RunningService,
} from './proxy-harness.js';

const BOT = 'bot_tokens_only'; // these tests never reach the bot; the token only names it

let service: RunningService;
let apiKey: string;
let host: HostedProxy;

before(async () => {
  service = await startService();
  apiKey = (await service.service.createAccount({ name: 'proxy tokens' })).apiKey;
  host = await hostProxy({ apiKey, upstream: service.url, botId: BOT, allowAnonymous: true });
});
after(async () => {
  await host?.close();
  await service?.close();
});

const encoder = new TextEncoder();
const tokensWith = (audience = 'ai-chat-widget', issuer = 'ai-chat-widget-proxy', secret = SECRET) =>
  new TokenService([encoder.encode(secret)], issuer, audience);
const grant = { userId: 'alice', botId: BOT, agentId: null, scopes: ['chat:write', 'chat:read', 'bot:message'] as const };

describe('proxy: token endpoint', () => {
  it('mints a token for the user authorize() names, bound to the bot and origin', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { res, body, token } = await mint(host.url, { user: 'alice', origin: SHOP });
    assert.equal(res.status, 200);
    assert.equal(body.success, true);
    assert.equal(body.data.user_id, 'alice');
    assert.equal(body.data.bot_id, BOT);
    assert.equal(body.data.api_base, '/v1');
    assert.match(body.meta!.request_id, /^req_/);
    assert.equal(res.headers.get('x-request-id'), body.meta!.request_id);
    assert.equal(res.headers.get('access-control-allow-origin'), SHOP);
    assert.equal(res.headers.get('cache-control'), 'no-store');

    const claims = claimsOf(token);
    assert.equal(claims.sub, 'alice');
    assert.equal(claims.bot, BOT);
    assert.equal(claims.org, SHOP);
    assert.equal(claims.iss, 'ai-chat-widget-proxy');
    assert.equal(claims.aud, 'ai-chat-widget');
    assert.deepEqual(claims.scp, ['chat:write', 'chat:read', 'bot:message']);
    assert.equal(typeof claims.jti, 'string');
    assert.ok((claims.iat as number) >= before);
    assert.equal((claims.exp as number) - (claims.iat as number), 600);
    assert.equal(Date.parse(body.data.expires_at) / 1000, claims.exp);
    // the real key never leaves the server
    assert.ok(!JSON.stringify(body).includes(apiKey));
    assert.ok(!token.includes(apiKey));
  });

  it('mints an anonymous token (anon_…) and keeps a well-formed anonymous id the widget sends', async () => {
    const fresh = await mint(host.url);
    assert.equal(fresh.res.status, 200);
    assert.match(fresh.body.data.user_id, /^anon_[0-9a-f-]{36}$/);

    const kept = 'anon_0b6f4c1e-7d2a-4a51-9f0e-3c2d1b0a9f8e';
    const again = await mint(host.url, { body: { user_id: kept } });
    assert.equal(again.body.data.user_id, kept);
    assert.equal(claimsOf(again.token).sub, kept);
  });

  it('never lets an anonymous visitor claim a real user id', async () => {
    const { body } = await mint(host.url, { body: { user_id: 'alice' } });
    assert.notEqual(body.data.user_id, 'alice');
    assert.match(body.data.user_id, /^anon_/);
    // and a signed-in user cannot become someone else through the body either
    const signedIn = await mint(host.url, { user: 'bob', body: { user_id: 'alice' } });
    assert.equal(signedIn.body.data.user_id, 'bob');
  });

  it('answers 401 authentication_required when authorize() refuses and anonymous use is off', async () => {
    const strict = await hostProxy({ apiKey, upstream: service.url, botId: BOT });
    try {
      const { res, body } = await mint(strict.url);
      assert.equal(res.status, 401);
      assert.equal(body.error!.code, 'authentication_required');
      assert.equal((await mint(strict.url, { user: 'alice' })).res.status, 200);
    } finally {
      await strict.close();
    }
  });

  it('refuses a bot the widget asks for unless it is allowed', async () => {
    const denied = await mint(host.url, { user: 'alice', body: { bot_id: 'bot_someone_elses' } });
    assert.equal(denied.res.status, 403);
    assert.equal(denied.body.error!.code, 'permission_denied');
    assert.equal(denied.body.error!.param, 'bot_id');
    assert.equal((await mint(host.url, { user: 'alice', body: { bot_id: BOT } })).res.status, 200);

    const multi = await hostProxy({ apiKey, upstream: service.url, botId: BOT, allowedBotIds: ['bot_second'] });
    try {
      const second = await mint(multi.url, { user: 'alice', body: { bot_id: 'bot_second' } });
      assert.equal(second.body.data.bot_id, 'bot_second');
      assert.equal(claimsOf(second.token).bot, 'bot_second');
    } finally {
      await multi.close();
    }
  });

  it('answers 500 internal_error (no details) when authorize() throws, and reports it to onError', async () => {
    const seen: unknown[] = [];
    const broken = await hostProxy({
      apiKey,
      upstream: service.url,
      botId: BOT,
      authorize: async () => {
        throw new Error('session store down at db.internal:5432');
      },
      onError: (error) => seen.push(error),
    });
    try {
      const { res, body } = await mint(broken.url, { user: 'alice' });
      assert.equal(res.status, 500);
      assert.equal(body.error!.code, 'internal_error');
      assert.ok(!JSON.stringify(body).includes('db.internal'));
      assert.equal(seen.length, 1);
      assert.match(String((seen[0] as Error).message), /session store down/);
    } finally {
      await broken.close();
    }
  });

  it('lets authorize() refuse with its own ProxyError', async () => {
    const refusing = await hostProxy({
      apiKey,
      upstream: service.url,
      botId: BOT,
      authorize: async () => {
        throw new ProxyError('permission_denied', 'Your plan does not include chat.');
      },
    });
    try {
      const { res, body } = await mint(refusing.url, { user: 'alice' });
      assert.equal(res.status, 403);
      assert.equal(body.error!.message, 'Your plan does not include chat.');
    } finally {
      await refusing.close();
    }
  });

  it('answers 405 for other methods on the token path and 404 route_not_found elsewhere', async () => {
    const get = await fetch(`${host.url}/token`);
    assert.equal(get.status, 405);
    assert.equal((await json(get)).error!.code, 'method_not_allowed');
    assert.match(get.headers.get('allow') ?? '', /POST/);
    const nowhere = await fetch(`${host.url}/admin`);
    assert.equal(nowhere.status, 404);
    assert.equal((await json(nowhere)).error!.code, 'route_not_found');
  });

  it('refuses a token request from a foreign origin (403 origin_not_allowed), allows its own host', async () => {
    const evil = await mint(host.url, { user: 'alice', origin: 'https://evil.example' });
    assert.equal(evil.res.status, 403);
    assert.equal(evil.body.error!.code, 'origin_not_allowed');
    assert.equal(evil.res.headers.get('access-control-allow-origin'), null);
    const own = await mint(host.url, { user: 'alice', origin: host.url });
    assert.equal(own.res.status, 200);
  });

  it('compares scheme, host and port with its own origin (X-Forwarded-Proto only when trusted)', async () => {
    const { host: hostAndPort, port } = new URL(host.url);
    for (const foreign of [`https://${hostAndPort}`, `http://127.0.0.1:${Number(port) + 1}`, `http://localhost:${port}`]) {
      const refused = await mint(host.url, { user: 'alice', origin: foreign });
      assert.equal(refused.res.status, 403, foreign);
      assert.equal(refused.body.error!.code, 'origin_not_allowed');
    }
    // TLS ending in front of the app: the request arrives as http://, the page is https://
    const behindTls = { 'x-forwarded-proto': 'https', origin: `https://${hostAndPort}`, 'content-type': 'application/json' };
    const untrusted = await fetch(`${host.url}/token`, { method: 'POST', headers: { ...behindTls, cookie: 'session=alice' }, body: '{}' });
    assert.equal(untrusted.status, 403, 'X-Forwarded-Proto is ignored unless trustProxyHeaders');
    const trusting = await hostProxy({ apiKey, upstream: service.url, botId: BOT, trustProxyHeaders: true });
    try {
      const ok = await fetch(`${trusting.url}/token`, {
        method: 'POST',
        headers: { ...behindTls, origin: `https://${new URL(trusting.url).host}`, cookie: 'session=alice' },
        body: '{}',
      });
      assert.equal(ok.status, 200);
      const plainPage = await mint(trusting.url, { user: 'alice', origin: trusting.url });
      assert.equal(plainPage.res.status, 200, 'without the header, the request URL decides');
    } finally {
      await trusting.close();
    }
  });

  it('answers CORS preflights for allowed origins only', async () => {
    const ok = await fetch(`${host.url}/v1/chat`, {
      method: 'OPTIONS',
      headers: { origin: SHOP, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    });
    assert.equal(ok.status, 204);
    assert.equal(ok.headers.get('access-control-allow-origin'), SHOP);
    assert.match(ok.headers.get('access-control-allow-headers') ?? '', /Authorization/);
    const evil = await fetch(`${host.url}/token`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(evil.status, 403);
    assert.equal(evil.headers.get('access-control-allow-origin'), null);
  });

  it('rejects a bad configuration at start-up', () => {
    assert.throws(() => createProxy({ apiKey, upstream: service.url, secret: 'short', allowAnonymous: true }), /32 bytes/);
    assert.throws(() => createProxy({ apiKey, upstream: service.url, secret: SECRET }), /authorize/);
    assert.throws(
      () => createProxy({ apiKey, upstream: service.url, secret: SECRET, allowAnonymous: true, tokenTtlSeconds: 3600 }),
      RangeError,
    );
    assert.throws(() => createProxy({ apiKey: '', upstream: service.url, secret: SECRET, allowAnonymous: true }), /apiKey/);
    assert.throws(() => createProxy({ apiKey, upstream: 'ftp://x', secret: SECRET, allowAnonymous: true }), /upstream/);
  });
});

describe('proxy: token verification', () => {
  const chat = { messages: [{ role: 'user', content: 'hello' }] };

  async function expectRefusal(token: string | null, code: string, status = 401, path = '/v1/chat') {
    const res = await call(host.url, token, path, { body: chat });
    const body = await json(res);
    assert.equal(res.status, status, JSON.stringify(body));
    assert.equal(body.error!.code, code);
    assert.equal(body.success, false);
    assert.match(body.error!.request_id ?? '', /^req_/);
    return res;
  }

  it('requires a token (401 authentication_required) and a Bearer header', async () => {
    const res = await expectRefusal(null, 'authentication_required');
    assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
    const basic = await fetch(`${host.url}/v1/chat`, { method: 'POST', headers: { authorization: 'Basic abc' } });
    assert.equal(basic.status, 401);
    assert.equal((await json(basic)).error!.code, 'invalid_token');
  });

  it('refuses a forged signature', async () => {
    const { token } = await mint(host.url, { user: 'alice' });
    const [header, payload, signature] = token.split('.');
    const flipped = signature!.startsWith('A') ? `B${signature!.slice(1)}` : `A${signature!.slice(1)}`;
    await expectRefusal(`${header}.${payload}.${flipped}`, 'invalid_token');
    // a payload edited to another user, with the original signature
    const edited = Buffer.from(JSON.stringify({ ...claimsOf(token), sub: 'mallory' })).toString('base64url');
    await expectRefusal(`${header}.${edited}.${signature}`, 'invalid_token');
  });

  it('refuses a token signed with another secret, and an unsigned one', async () => {
    const other = await tokensWith(undefined, undefined, 'another-secret-that-is-long-enough-0123456789').mint({
      ...grant,
      scopes: [...grant.scopes],
      origin: null,
      ttlSeconds: 60,
    });
    await expectRefusal(other.token, 'invalid_token');
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(
      JSON.stringify({ sub: 'alice', exp: 9999999999 }),
    ).toString('base64url')}.`;
    await expectRefusal(none, 'invalid_token');
    await expectRefusal('not-a-jwt', 'invalid_token');
  });

  it('answers token_expired for an expired token', async () => {
    const expired = await tokensWith().mint({ ...grant, scopes: [...grant.scopes], origin: null, ttlSeconds: -60 });
    const res = await expectRefusal(expired.token, 'token_expired');
    assert.match(res.headers.get('www-authenticate') ?? '', /invalid_token/);
  });

  it('remembers a verified token, but an expired one is refused even after it was accepted', async (t) => {
    const tokens = tokensWith();
    const minted = await tokens.mint({ ...grant, scopes: [...grant.scopes], origin: null, ttlSeconds: 10 });
    assert.equal((await tokens.verify(minted.token)).userId, 'alice');
    assert.equal((await tokens.verify(minted.token)).tokenId, minted.tokenId);
    // 10 s of validity + 5 s of clock tolerance have passed
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() + 16_000 });
    await assert.rejects(tokens.verify(minted.token), (e: unknown) => e instanceof ProxyError && e.code === 'token_expired');
  });

  it('refuses a token that lives longer than the configured lifetime, or is issued in the future', async (t) => {
    // Right secret, issuer and audience: only the times are wrong.
    const years = await tokensWith().mint({ ...grant, scopes: [...grant.scopes], origin: null, ttlSeconds: 5 * 365 * 86_400 });
    await expectRefusal(years.token, 'invalid_token');
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() + 3_600_000 });
    const future = await tokensWith().mint({ ...grant, scopes: [...grant.scopes], origin: null, ttlSeconds: 60 });
    t.mock.timers.reset();
    await expectRefusal(future.token, 'invalid_token');
    // The cap is the proxy's configured tokenTtlSeconds (600 here), not the 900 s ceiling.
    const fifteenMinutes = await tokensWith().mint({ ...grant, scopes: [...grant.scopes], origin: null, ttlSeconds: 900 });
    await expectRefusal(fifteenMinutes.token, 'invalid_token');
    const tenMinutes = await tokensWith().mint({ ...grant, scopes: [...grant.scopes], origin: null, ttlSeconds: 600 });
    const res = await call(host.url, tenMinutes.token, '/v1/knowledge', { body: {} });
    assert.equal(res.status, 403, 'a token of the configured lifetime passes verification (refused by the allowlist only)');
  });

  it('refuses a token for another audience or issuer', async () => {
    const wrongAudience = await tokensWith('someone-else').mint({ ...grant, scopes: [...grant.scopes], origin: null, ttlSeconds: 60 });
    await expectRefusal(wrongAudience.token, 'invalid_token');
    const wrongIssuer = await tokensWith(undefined, 'evil-proxy').mint({ ...grant, scopes: [...grant.scopes], origin: null, ttlSeconds: 60 });
    await expectRefusal(wrongIssuer.token, 'invalid_token');
  });

  it('accepts tokens signed with an older secret during rotation', async () => {
    const older = await hostProxy({ apiKey, upstream: service.url, botId: BOT, allowAnonymous: true });
    const rotated = await hostProxy({
      apiKey,
      upstream: service.url,
      botId: BOT,
      allowAnonymous: true,
      secret: undefined,
      secrets: ['the-new-secret-that-is-long-enough-0123456789', SECRET],
    });
    try {
      const { token } = await mint(older.url, { user: 'alice' });
      // passes verification: refused by the allowlist (403), not by the token check (401)
      const res = await call(rotated.url, token, '/v1/knowledge', { body: {} });
      assert.equal(res.status, 403);
      const fresh = await mint(rotated.url, { user: 'alice' });
      const refusedByOld = await call(older.url, fresh.token, '/v1/knowledge', { body: {} });
      assert.equal(refusedByOld.status, 401);
    } finally {
      await older.close();
      await rotated.close();
    }
  });

  it('refuses a token minted for one origin when used from another allowed or foreign one', async () => {
    const twoOrigins = await hostProxy({
      apiKey,
      upstream: service.url,
      botId: BOT,
      allowedOrigins: [SHOP, 'https://blog.example'],
    });
    try {
      const { token } = await mint(twoOrigins.url, { user: 'alice', origin: SHOP });
      const res = await call(twoOrigins.url, token, '/v1/chat', { body: chat, origin: 'https://blog.example' });
      assert.equal(res.status, 403);
      assert.equal((await json(res)).error!.code, 'origin_not_allowed');
      const foreign = await call(twoOrigins.url, token, '/v1/chat', { body: chat, origin: 'https://evil.example' });
      assert.equal(foreign.status, 403);
      assert.equal((await json(foreign)).error!.code, 'origin_not_allowed');
    } finally {
      await twoOrigins.close();
    }
  });
});

describe('proxy: allowlist', () => {
  let token: string;
  before(async () => {
    token = (await mint(host.url, { user: 'alice' })).token;
  });

  for (const [method, path] of [
    ['POST', '/v1/knowledge'],
    ['GET', '/v1/knowledge'],
    ['GET', '/v1/analytics/usage'],
    ['POST', '/v1/bots'],
    ['GET', '/v1/bots'],
    ['GET', '/v1/bots/bot_other'], // its own bot answers its public profile: proxy-bot-profile.test.ts
    ['PUT', `/v1/bots/${BOT}`],
    ['DELETE', `/v1/bots/${BOT}`],
    ['POST', '/v1/agents'],
    ['GET', '/v1/chat'],
    ['DELETE', '/v1/chat/history'],
    ['POST', `/v1/bots/${BOT}/messages/extra`],
    ['POST', `/v1/chat/../knowledge`],
    ['POST', `/v1/bots/${BOT}%2Fmessages`],
  ] as const) {
    it(`answers 403 permission_denied for ${method} ${path}`, async () => {
      const res = await call(host.url, token, path, { method, body: method === 'GET' ? undefined : {} });
      assert.equal(res.status, 403);
      const body = await json(res);
      assert.equal(body.error!.code, 'permission_denied');
    });
  }

  it('refuses messages to a bot other than the token’s', async () => {
    const res = await call(host.url, token, '/v1/bots/bot_other/messages', { body: { message: 'hi', user_id: 'alice' } });
    assert.equal(res.status, 403);
    assert.equal((await json(res)).error!.code, 'permission_denied');
    const chat = await call(host.url, token, '/v1/chat', {
      body: { messages: [{ role: 'user', content: 'hi' }], bot_id: 'bot_other' },
    });
    assert.equal(chat.status, 403);
    assert.equal((await json(chat)).error!.param, 'bot_id');
    const agent = await call(host.url, token, '/v1/chat', {
      body: { messages: [{ role: 'user', content: 'hi' }], agent_id: 'agt_any' },
    });
    assert.equal(agent.status, 403);
    const history = await call(host.url, token, '/v1/chat/history?bot_id=bot_other');
    assert.equal(history.status, 403);
  });

  it('refuses bodies over 32 KB (413), non-JSON (415) and broken JSON (400)', async () => {
    const big = await call(host.url, token, '/v1/chat', {
      body: { messages: [{ role: 'user', content: 'x'.repeat(33 * 1024) }] },
    });
    assert.equal(big.status, 413);
    assert.equal((await json(big)).error!.code, 'payload_too_large');
    const form = await call(host.url, token, '/v1/chat', {
      body: 'messages=hello',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(form.status, 415);
    assert.equal((await json(form)).error!.code, 'unsupported_media_type');
    const broken = await call(host.url, token, '/v1/chat', { body: '{"messages": [' });
    assert.equal(broken.status, 400);
    assert.equal((await json(broken)).error!.code, 'invalid_json');
    const array = await call(host.url, token, '/v1/chat', { body: '[1,2]' });
    assert.equal(array.status, 400);
  });

  it('honours narrower scopes from authorize()', async () => {
    const readOnly = await hostProxy({
      apiKey,
      upstream: service.url,
      botId: BOT,
      authorize: async () => ({ userId: 'reader', scopes: ['chat:read'] }),
    });
    try {
      const { token: t, body } = await mint(readOnly.url);
      assert.deepEqual(claimsOf(t).scp, ['chat:read']);
      assert.equal(body.data.user_id, 'reader');
      const res = await call(readOnly.url, t, '/v1/chat', { body: { messages: [{ role: 'user', content: 'hi' }] } });
      assert.equal(res.status, 403);
      assert.match((await json(res)).error!.message, /chat:write/);
    } finally {
      await readOnly.close();
    }
  });
});
