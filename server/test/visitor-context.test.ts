// Visitor context on the real service: what a turn tells about its visitor (`visitor` of /v1/chat and
// the bot endpoint) is kept on the conversation, a later turn's replacing it (the first page kept);
// bad context is a 400; through the token proxy the host's verified name and email win over the
// browser's; the inbox reads it with the visitor's other conversations, for its own account only.
// PGlite by default; PostgreSQL + Redis with AI_CHAT_TEST_DATABASE_URL / AI_CHAT_TEST_REDIS_URL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createProxy } from '../../src/proxy/index.ts';
import type { ProxyIdentity } from '../../src/proxy/options.ts';
import type { Service } from '../src/index.ts';
import { EARLIER_LIMIT } from '../src/conversations/visitor.ts';
import { clientFor, shopTraining, type TestClient } from './support/core.ts';
import { DashboardClient, uniqueEmail } from './support/dashboard.ts';
import { openStream } from './support/handoff.ts';
import { createTestService } from './support/test-database.ts';

const SECRET = 'visitor-context-test-secret-of-32-bytes!';
let service: Service;
let api: TestClient;
let operator: DashboardClient;
let botId: string;
let users = 0;
const nextUser = () => `visitor-${++users}`;

before(async () => {
  service = await createTestService({ dashboard: { signup: 'open' } });
  operator = new DashboardClient(service);
  assert.equal((await operator.signUp(uniqueEmail('operator'))).status, 201);
  api = clientFor(service, service.devApiKey!);
  const bot = await api.json('/v1/bots', { method: 'POST', body: { name: 'Shop', training: shopTraining } });
  assert.equal(bot.res.status, 201, JSON.stringify(bot.body));
  botId = bot.body.data.id;
});
after(async () => {
  await service?.close();
});

async function botTurn(userId: string, visitor?: unknown, client = api) {
  const { res, body } = await client.json(`/v1/bots/${botId}/messages`, { method: 'POST', body: { message: 'hello', user_id: userId, visitor } });
  return { status: res.status, body };
}

async function chatTurn(userId: string, visitor?: unknown) {
  const { res, body } = await api.json('/v1/chat', { method: 'POST', body: { messages: [{ role: 'user', content: 'hello' }], user_id: userId, visitor } });
  return { status: res.status, body };
}

async function visitorOf(conversationId: string, client = operator) {
  return client.call('GET', `/dashboard/api/inbox/${conversationId}/visitor`);
}

describe('visitor context of a turn', () => {
  it('is kept on the conversation, and the latest turn replaces it with the first page kept', async () => {
    const user = nextUser();
    const context = {
      page_url: 'https://shop.example/pricing',
      referrer: 'https://search.example/',
      locale: 'de-CH',
      time_zone: 'Europe/Zurich',
      name: 'Anna Muster',
      email: 'anna@example.com',
      attributes: { plan: 'pro', seats: 5, trial: false },
    };
    const first = await botTurn(user, context);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const id = first.body.data.conversation_id;
    const stored = await visitorOf(id);
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
    const { updated_at, ...told } = stored.body.data.visitor;
    assert.ok(!Number.isNaN(Date.parse(updated_at)));
    assert.deepEqual(told, { ...context, first_page_url: 'https://shop.example/pricing' });
    assert.equal(stored.body.data.user_id, user);

    // the next turn comes from another page, without the traits: nothing of the first stays but its page
    assert.equal((await botTurn(user, { page_url: 'https://shop.example/checkout', locale: 'de-CH' })).status, 200);
    const later = (await visitorOf(id)).body.data.visitor;
    assert.equal(later.page_url, 'https://shop.example/checkout');
    assert.equal(later.first_page_url, 'https://shop.example/pricing');
    assert.equal(later.name, undefined);
    assert.equal(later.referrer, undefined);

    // a turn that tells nothing changes nothing
    assert.equal((await botTurn(user)).status, 200);
    assert.equal((await visitorOf(id)).body.data.visitor.page_url, 'https://shop.example/checkout');
  });

  it('is kept from a turn a person holds (the bot does not answer it)', async () => {
    assert.equal((await api.json(`/v1/bots/${botId}/handoff`, { method: 'PUT', body: { enabled: true } })).res.status, 200);
    // the operator's open inbox makes a person available
    const inbox = await openStream(service.fetch, 'http://127.0.0.1/dashboard/api/inbox/events', { cookie: `aicw_session=${operator.cookie}` });
    try {
      const user = nextUser();
      const id = (await botTurn(user, { page_url: 'https://shop.example/' })).body.data.conversation_id;
      const asked = await api.json(`/v1/conversations/${id}/handoff`, { method: 'POST', body: { user_id: user } });
      assert.equal(asked.body.data?.status, 'waiting', JSON.stringify(asked.body));
      const held = await botTurn(user, { page_url: 'https://shop.example/contact', name: 'Waiting Person' });
      assert.equal(held.body.data.handoff?.held, true, JSON.stringify(held.body));
      const visitor = (await visitorOf(id)).body.data.visitor;
      assert.equal(visitor.page_url, 'https://shop.example/contact');
      assert.equal(visitor.first_page_url, 'https://shop.example/');
      assert.equal(visitor.name, 'Waiting Person');
    } finally {
      await inbox.close();
      await api.json(`/v1/bots/${botId}/handoff`, { method: 'PUT', body: { enabled: false } });
    }
  });

  it('is kept from the chat endpoint too, and is null where no turn told any (or only `{}`, `{attributes: {}}`)', async () => {
    const told = await chatTurn(nextUser(), { page_url: 'https://shop.example/help', time_zone: 'America/Argentina/Buenos_Aires' });
    assert.equal(told.status, 200, JSON.stringify(told.body));
    const visitor = (await visitorOf(told.body.data.conversation_id)).body.data.visitor;
    assert.equal(visitor.page_url, 'https://shop.example/help');
    assert.equal(visitor.time_zone, 'America/Argentina/Buenos_Aires');

    for (const visitor of [undefined, {}, { attributes: {} }]) {
      const silent = await chatTurn(nextUser(), visitor);
      assert.equal((await visitorOf(silent.body.data.conversation_id)).body.data.visitor, null);
    }
  });

  it('refuses context out of bounds with a 400 envelope, on both endpoints, and stores no turn', async () => {
    const bad: [string, unknown][] = [
      ['visitor.page_url', { page_url: 'javascript:alert(1)' }],
      ['visitor.page_url', { page_url: `https://shop.example/${'a'.repeat(2000)}` }],
      ['visitor.referrer', { referrer: 'ftp://files.example/' }],
      ['visitor.name', { name: 'x'.repeat(101) }],
      ['visitor.name', { name: 'line\nbreak' }],
      ['visitor.email', { email: 'not an address' }],
      ['visitor.email', { email: `${'a'.repeat(250)}@example.com` }],
      ['visitor.locale', { locale: 'en_US; drop' }],
      ['visitor.time_zone', { time_zone: '../../etc/passwd x' }],
      ['visitor.attributes', { attributes: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, 'v'])) }],
      ['visitor.attributes.plan', { attributes: { plan: 'p'.repeat(201) } }],
      ['visitor.attributes.nested', { attributes: { nested: { deep: true } } }],
      ['visitor.attributes', { attributes: { 'bad key': 'v' } }],
      ['visitor.verified', { verified: 'yes' }],
      ['visitor', 'https://shop.example/'],
    ];
    const user = nextUser();
    for (const [param, visitor] of bad) {
      for (const turn of [botTurn, chatTurn]) {
        const res = await turn(user, visitor);
        assert.equal(res.status, 400, `${JSON.stringify(visitor)}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.success, false);
        assert.equal(res.body.error.code, 'validation_failed', JSON.stringify(res.body));
        assert.ok(res.body.error.param.startsWith(param), `${res.body.error.param} for ${JSON.stringify(visitor)}`);
      }
    }
    const unknown = await botTurn(user, { ip: '203.0.113.9' });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.code, 'unknown_parameter');
    assert.equal(unknown.body.error.param, 'visitor.ip');
    const history = await api.json(`/v1/chat/history?user_id=${user}`);
    assert.deepEqual(history.body.data.items, []);
  });

  it('is documented in the OpenAPI document on both turn requests', async () => {
    const doc = (await api.json('/v1/openapi.json')).body;
    const text = JSON.stringify(doc);
    assert.ok(text.includes('"visitor"'));
    const chat = doc.paths['/v1/chat'].post.requestBody.content['application/json'].schema;
    const bot = doc.paths['/v1/bots/{bot_id}/messages'].post.requestBody.content['application/json'].schema;
    for (const schema of [chat, bot]) {
      const resolved = schema.$ref ? doc.components.schemas[schema.$ref.split('/').at(-1)] : schema;
      assert.deepEqual(Object.keys(resolved.properties.visitor.properties).sort(), ['attributes', 'email', 'locale', 'name', 'page_url', 'referrer', 'time_zone', 'verified']);
      assert.equal(resolved.properties.visitor.additionalProperties, false);
    }
  });
});

describe('visitor context through the token proxy', () => {
  function proxyFor(identity: ProxyIdentity) {
    return createProxy({
      apiKey: service.devApiKey!,
      upstream: 'http://localhost',
      fetch: (input, init) => service.fetch(new Request(input, init)),
      secret: SECRET,
      botId,
      basePath: '/proxy',
      authorize: () => identity,
    });
  }

  async function viaProxy(proxy: ReturnType<typeof createProxy>, path: string, body: unknown) {
    const minted = await proxy.fetch(new Request('http://127.0.0.1/proxy/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }));
    const token = (await minted.json()).data.token;
    const res = await proxy.fetch(
      new Request(`http://127.0.0.1/proxy${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    );
    return { status: res.status, body: await res.json() };
  }

  const forged = { page_url: 'https://shop.example/account', name: 'Mallory', email: 'mallory@evil.example', verified: true };

  it("replaces the browser's name and email with the host's verified ones, on both endpoints", async () => {
    const proxy = proxyFor({ userId: nextUser(), name: 'Alice Verified', email: 'alice@corp.example' });
    for (const [path, body] of [
      [`/v1/bots/${botId}/messages`, { message: 'hello', user_id: 'ignored', visitor: forged }],
      ['/v1/chat', { messages: [{ role: 'user', content: 'hello' }], visitor: forged }],
    ] as const) {
      const res = await viaProxy(proxy, path, body);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const { updated_at: _, ...visitor } = (await visitorOf(res.body.data.conversation_id)).body.data.visitor;
      assert.deepEqual(visitor, {
        page_url: 'https://shop.example/account',
        first_page_url: 'https://shop.example/account',
        name: 'Alice Verified',
        email: 'alice@corp.example',
        verified: true,
      });
    }
    // no visitor sent at all: the verified identity is still what the inbox sees
    const bare = await viaProxy(proxy, '/v1/chat', { messages: [{ role: 'user', content: 'hello' }] });
    const visitor = (await visitorOf(bare.body.data.conversation_id)).body.data.visitor;
    assert.equal(visitor.name, 'Alice Verified');
    assert.equal(visitor.verified, true);
  });

  it("never lets a browser say its own name is verified", async () => {
    const proxy = proxyFor({ userId: nextUser() });
    const res = await viaProxy(proxy, `/v1/bots/${botId}/messages`, { message: 'hello', visitor: forged });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const visitor = (await visitorOf(res.body.data.conversation_id)).body.data.visitor;
    assert.equal(visitor.name, 'Mallory');
    assert.equal(visitor.verified, undefined);
  });

  it('refuses to mint for an authorize() whose name or email is out of bounds', async () => {
    for (const identity of [{ userId: 'u', name: 'x'.repeat(101) }, { userId: 'u', email: 'nope' }]) {
      const res = await proxyFor(identity).fetch(new Request('http://127.0.0.1/proxy/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }));
      assert.equal(res.status, 500);
      assert.equal((await res.json()).success, false);
    }
  });
});

describe("the inbox's visitor", () => {
  it("lists the visitor's other conversations in the account, newest first, and nobody else's", async () => {
    const user = nextUser();
    const older = (await chatTurn(user, { name: 'Bo' })).body.data.conversation_id;
    const newer = (await chatTurn(user)).body.data.conversation_id;
    const current = (await botTurn(user, { name: 'Bo' })).body.data.conversation_id;
    await chatTurn(nextUser()); // another visitor of the account
    const other = await service.createAccount({ name: 'Other' });
    const otherApi = clientFor(service, other.apiKey);
    const elsewhere = await otherApi.json('/v1/chat', { method: 'POST', body: { messages: [{ role: 'user', content: 'hello' }], user_id: user } });
    assert.equal(elsewhere.res.status, 200); // the same user id in another account

    const res = await visitorOf(current);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.data.earlier.map((c: { id: string }) => c.id),
      [newer, older],
    );
    const [first] = res.body.data.earlier;
    assert.deepEqual(Object.keys(first).sort(), ['bot_id', 'created_at', 'id', 'status', 'updated_at']);
    assert.equal(first.status, 'bot');
  });

  it(`lists at most ${EARLIER_LIMIT}`, async () => {
    const user = nextUser();
    for (let i = 0; i <= EARLIER_LIMIT; i++) await chatTurn(user);
    const current = (await chatTurn(user)).body.data.conversation_id;
    assert.equal((await visitorOf(current)).body.data.earlier.length, EARLIER_LIMIT);
  });

  it("answers 404 for another account's conversation, 404 for a malformed id, and 401 without a session", async () => {
    const id = (await botTurn(nextUser(), { name: 'Private Person', email: 'private@example.com' })).body.data.conversation_id;
    const stranger = new DashboardClient(service);
    assert.equal((await stranger.signUp(uniqueEmail('stranger'), undefined, { account_name: 'Other team' })).status, 201);
    const theirs = await visitorOf(id, stranger);
    assert.equal(theirs.status, 404);
    assert.equal(theirs.body.error.code, 'resource_not_found');
    assert.ok(!JSON.stringify(theirs.body).includes('Private Person'));
    assert.equal((await operator.call('GET', '/dashboard/api/inbox/conv_nope/visitor')).status, 404);
    const anonymous = await operator.call('GET', `/dashboard/api/inbox/${id}/visitor`, { cookie: null });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body.error.code, 'authentication_required');
  });
});
