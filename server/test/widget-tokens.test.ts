// The one-snippet install: the service mints visitor tokens for a bot whose website channel lists
// the page's origin, and serves exactly the widget's routes with them, as that visitor, from that
// origin, on the account's visitors' budget. Client addresses come in as the Node adapter's env.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { WidgetTokens } from '../src/widget-tokens/service.ts';
import { clientFor, shopTraining, startTestService, type TestClient } from './support/core.ts';

const SITE = 'https://shop.example';
let api: TestClient;
let clock = Date.now();
let bot: { id: string };
let closedBot: { id: string };

before(async () => {
  api = await startTestService({ widgetTokens: { now: () => clock } });
  bot = await createBot(api, { name: 'Shop', training: shopTraining, channels: [{ type: 'website', allowed_origins: ['https://other.example', SITE] }] });
  closedBot = await createBot(api, { name: 'Closed', training: shopTraining, channels: [{ type: 'website', allowed_origins: [] }] });
});
after(() => api.service.close());

async function createBot(client: TestClient, body: Record<string, unknown>): Promise<{ id: string }> {
  const { res, body: envelope } = await client.json('/v1/bots', { method: 'POST', body });
  assert.equal(res.status, 201, JSON.stringify(envelope));
  return envelope.data;
}

/** A /64 of its own per call, so budgets of earlier runs (Redis) never meet this one's. */
function network(): string {
  return `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
}

interface Browser {
  origin?: string;
  ip?: string;
}

/** A call as a browser page would send it: its Origin, from its address, with a token or none. */
async function send(path: string, init: { method?: string; body?: unknown; token?: string; headers?: Record<string, string> } & Browser = {}) {
  const headers = new Headers(init.headers);
  if (init.origin !== undefined) headers.set('origin', init.origin);
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  if (init.body !== undefined) headers.set('content-type', 'application/json');
  const request = new Request(`http://127.0.0.1${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const res = await api.service.fetch(request, { incoming: { socket: { remoteAddress: init.ip ?? '2001:db8::1' } } });
  return { res, body: await res.json() };
}

async function mint(botId: string, browser: Browser = {}, userId?: string) {
  return send('/v1/widget/tokens', { origin: SITE, ...browser, body: userId ? { bot_id: botId, user_id: userId } : { bot_id: botId } });
}

async function visitor(botId = bot.id, browser: Browser = {}) {
  const { res, body } = await mint(botId, browser);
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.data as { token: string; user_id: string; bot_id: string; expires_at: string; api_base: string };
}

describe('POST /v1/widget/tokens', () => {
  it('mints a 10-minute token for a listed origin, scoped to the bot, the visitor and the origin', async () => {
    const { res, body } = await mint(bot.id);
    assert.equal(res.status, 200, JSON.stringify(body));
    const data = body.data;
    assert.match(data.user_id, /^anon_/);
    assert.equal(data.bot_id, bot.id);
    assert.equal(data.api_base, '/v1');
    assert.equal(Date.parse(data.expires_at), Math.floor(clock / 1000) * 1000 + 600_000);
    const claims = decodeJwt(data.token);
    assert.equal(claims.sub, data.user_id);
    assert.equal(claims.bot, bot.id);
    assert.equal(claims.org, SITE);
    assert.equal(claims.iss, 'ai-chat-service');
    assert.deepEqual(claims.scp, ['chat:write', 'chat:read', 'bot:message']);
    assert.equal(res.headers.get('access-control-allow-origin'), SITE);
  });

  it('signs with the secret kept in the database, which every instance on it shares', async () => {
    const { token } = await visitor();
    const another = await WidgetTokens.open(api.service.deps.db, { now: () => clock });
    assert.equal((await another.verify(token)).botId, bot.id);
  });

  it("reuses the anon_… id the widget holds, and never takes another kind of id", async () => {
    const held = `anon_${crypto.randomUUID()}`;
    assert.equal((await mint(bot.id, {}, held)).body.data.user_id, held);
    assert.notEqual((await mint(bot.id, {}, 'alice')).body.data.user_id, 'alice');
  });

  it('refuses an origin the bot does not list, naming it and where to add it (and the page can read why)', async () => {
    const { res, body } = await mint(bot.id, { origin: 'https://evil.example' });
    assert.equal(res.status, 403);
    assert.equal(body.error.code, 'origin_not_allowed');
    assert.match(body.error.message, /https:\/\/evil\.example/);
    assert.match(body.error.message, /Website channel → allowed origins/);
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://evil.example');
  });

  it('refuses a bot that lists no website origin, and a request without an Origin', async () => {
    const closed = await mint(closedBot.id);
    assert.equal(closed.res.status, 403);
    assert.equal(closed.body.error.code, 'origin_not_allowed');
    assert.match(closed.body.error.message, /lists no website origin/);
    const headless = await send('/v1/widget/tokens', { body: { bot_id: bot.id } });
    assert.equal(headless.res.status, 403);
    assert.equal(headless.body.error.code, 'origin_not_allowed');
  });

  it('answers 404 for an unknown bot and 400 for no bot id, in the envelope', async () => {
    const unknown = await mint('bot_doesnotexist01');
    assert.equal(unknown.res.status, 404);
    assert.equal(unknown.body.error.code, 'resource_not_found');
    const none = await send('/v1/widget/tokens', { origin: SITE, body: {} });
    assert.equal(none.res.status, 400);
    assert.equal(none.body.error.param, 'bot_id');
  });
});

describe('a self-minted token on the service', () => {
  it("chats with its bot as its visitor, reads the visitor's history and the bot's public profile", async () => {
    const alice = await visitor();
    const reply = await send(`/v1/bots/${bot.id}/messages`, { origin: SITE, token: alice.token, body: { message: 'how much does it cost', user_id: 'mallory' } });
    assert.equal(reply.res.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body.data.message.content, 'It is free and open source.');
    assert.equal(reply.res.headers.get('access-control-allow-origin'), SITE);
    const history = await send(`/v1/chat/history?bot_id=${bot.id}&user_id=mallory`, { origin: SITE, token: alice.token });
    assert.equal(history.res.status, 200, JSON.stringify(history.body));
    assert.deepEqual(history.body.data.items.map((m: { content: string }) => m.content), ['how much does it cost', 'It is free and open source.']);
    const profile = await send(`/v1/bots/${bot.id}`, { origin: SITE, token: alice.token });
    assert.equal(profile.res.status, 200);
    assert.deepEqual(Object.keys(profile.body.data).sort(), ['appearance', 'attachments', 'avatar_url', 'id', 'language', 'name', 'quick_replies']);
    // the mallory the browser named has no history of this
    const mallory = await api.json(`/v1/chat/history?bot_id=${bot.id}&user_id=mallory`);
    assert.equal(mallory.body.data.items.length, 0);
  });

  it("gives pages on a listed origin the bot's appearance, and pages elsewhere nothing", async () => {
    const appearance = { color: '#0f766e', position: 'bottom-left', bot_name: 'Ava', welcome_message: 'Hi! Ask me anything.' };
    const styled = await createBot(api, { name: 'Styled', appearance, channels: [{ type: 'website', allowed_origins: [SITE] }] });
    const carol = await visitor(styled.id);
    const profile = await send(`/v1/bots/${styled.id}`, { origin: SITE, token: carol.token });
    assert.equal(profile.res.status, 200, JSON.stringify(profile.body));
    assert.deepEqual(profile.body.data.appearance, appearance);
    assert.equal(profile.res.headers.get('access-control-allow-origin'), SITE);
    // another origin gets no token, and the listed origin's token read from elsewhere is refused
    const unlisted = await mint(styled.id, { origin: 'https://evil.example' });
    assert.equal(unlisted.res.status, 403);
    assert.equal(unlisted.body.error.code, 'origin_not_allowed');
    const elsewhere = await send(`/v1/bots/${styled.id}`, { origin: 'https://evil.example', token: carol.token });
    assert.equal(elsewhere.res.status, 403);
    assert.equal(elsewhere.body.error.code, 'origin_not_allowed');
    assert.ok(!JSON.stringify(elsewhere.body).includes('#0f766e'));
  });

  it("lets a listed origin's page preflight the widget routes, and no other origin", async () => {
    const allowed = async (origin: string, path: string) => {
      const headers = { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' };
      const res = await api.service.fetch(new Request(`http://127.0.0.1${path}`, { method: 'OPTIONS', headers }));
      return res.headers.get('access-control-allow-origin');
    };
    assert.equal(await allowed(SITE, '/v1/conversations/conv_abcdefgh12/events'), SITE);
    assert.equal(await allowed(SITE, '/v1/chat/history'), SITE);
    assert.equal(await allowed('https://evil.example', '/v1/chat/history'), null);
    assert.equal(await allowed(SITE, '/v1/knowledge'), null);
  });

  it('reaches nothing but the widget routes of its own bot', async () => {
    const alice = await visitor();
    const as = { origin: SITE, token: alice.token };
    for (const [method, path] of [
      ['GET', '/v1/bots'],
      ['GET', '/v1/knowledge'],
      ['GET', '/v1/analytics/overview'],
      ['GET', `/v1/bots/${closedBot.id}`],
      ['DELETE', `/v1/bots/${bot.id}`],
      ['GET', '/v1/conversations'],
    ] as const) {
      const { res, body } = await send(path, { ...as, method });
      assert.equal(res.status, 403, `${method} ${path}: ${JSON.stringify(body)}`);
      assert.equal(body.error.code, 'permission_denied');
    }
    const otherBot = await send(`/v1/bots/${closedBot.id}/messages`, { ...as, body: { message: 'hi' } });
    assert.equal(otherBot.res.status, 403);
  });

  it("is refused from any origin but its own, and when its origin is no longer listed", async () => {
    const alice = await visitor();
    const path = `/v1/bots/${bot.id}`;
    const elsewhere = await send(path, { origin: 'https://other.example', token: alice.token });
    assert.equal(elsewhere.res.status, 403);
    assert.equal(elsewhere.body.error.code, 'origin_not_allowed');
    const headless = await send(path, { token: alice.token });
    assert.equal(headless.res.status, 403);
    assert.equal(headless.body.error.code, 'origin_not_allowed');

    const site = await createBot(api, { name: 'Listed', channels: [{ type: 'website', allowed_origins: [SITE] }] });
    const bob = await visitor(site.id);
    const unlisted = await api.json(`/v1/bots/${site.id}`, { method: 'PUT', body: { channels: [{ type: 'website', allowed_origins: ['https://other.example'] }] } });
    assert.equal(unlisted.res.status, 200, JSON.stringify(unlisted.body));
    clock += 11_000; // past the bot's remembered origins
    const removed = await send(`/v1/bots/${site.id}`, { origin: SITE, token: bob.token });
    assert.equal(removed.res.status, 403);
    assert.equal(removed.body.error.code, 'origin_not_allowed');
  });

  it('is invalid when tampered with, and expired after 10 minutes', async () => {
    const alice = await visitor();
    const [head, payload, signature] = alice.token.split('.') as [string, string, string];
    const forged = Buffer.from(JSON.stringify({ ...decodeJwt(alice.token), bot: closedBot.id })).toString('base64url');
    const tampered = await send(`/v1/bots/${closedBot.id}`, { origin: SITE, token: `${head}.${forged}.${signature}` });
    assert.equal(tampered.res.status, 401);
    assert.equal(tampered.body.error.code, 'invalid_token');
    assert.equal((await send(`/v1/bots/${bot.id}`, { origin: SITE, token: `${head}.${payload}.${signature}` })).res.status, 200);
    clock += 606_000; // past `exp` and the 5 s of clock skew tolerated
    const expired = await send(`/v1/bots/${bot.id}`, { origin: SITE, token: alice.token });
    assert.equal(expired.res.status, 401);
    assert.equal(expired.body.error.code, 'token_expired');
  });
});

describe('rate limits of self-minted tokens', () => {
  // A plan of 8: each visitor 2, each address (an IPv6 /64) 4, all visitors 8 per window.
  let tenant: TestClient;
  let siteBot: { id: string };

  before(async () => {
    const { apiKey } = await api.service.createAccount({ rateLimit: { points: 8, durationSeconds: 3600 } });
    tenant = clientFor(api.service, apiKey);
    siteBot = await createBot(tenant, { name: 'Limited', training: shopTraining, channels: [{ type: 'website', allowed_origins: [SITE] }] });
  });

  it('limits each visitor and each address, on the visitors budget, never the API keys one', async () => {
    const before = Number((await tenant.call('/v1/bots')).headers.get('x-ratelimit-remaining'));
    const home = network();
    const read = (who: { token: string }, ip: string) => send(`/v1/bots/${siteBot.id}`, { origin: SITE, token: who.token, ip });
    // minting counts on the address too: alice's mint, then her two reads
    const alice = await visitor(siteBot.id, { ip: `${home}::1` });
    assert.equal((await read(alice, `${home}::1`)).res.status, 200);
    assert.equal((await read(alice, `${home}::1`)).res.status, 200);
    const own = await read(alice, `${home}::1`);
    assert.equal(own.res.status, 429, 'a visitor over its own share');
    assert.equal(own.body.error.code, 'rate_limited');
    assert.ok(Number(own.res.headers.get('retry-after')) > 0);
    // bob, on another address of the same /64, finds the address's share spent by his mint
    const bob = await visitor(siteBot.id, { ip: `${home}::2` });
    const address = await read(bob, `${home}::2`);
    assert.equal(address.res.status, 429, 'the /64 over its share');
    // carol elsewhere still chats
    const away = network();
    const carol = await visitor(siteBot.id, { ip: `${away}::1` });
    assert.equal((await read(carol, `${away}::1`)).res.status, 200);
    // the account's API keys have their whole budget
    const keys = await tenant.call('/v1/bots');
    assert.equal(keys.status, 200);
    assert.equal(Number(keys.headers.get('x-ratelimit-remaining')), before - 1);
  });
});
