// Tenant isolation over a real PGlite: two accounts with the same shapes of data (bots, a trained
// agent, knowledge, conversations of the SAME user_id, analytics traffic, a Telegram channel, a
// webhook subscription with a delivery). Account B using A's ids
// gets 404 on every operation of the OpenAPI document, sees only its own data in lists, search,
// history and reports, and cannot change A's resources. Then the token proxy: a token of one bot or
// one user cannot reach another's.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createProxy } from '../../src/proxy/index.ts';
import type { Service } from '../src/index.ts';
import { shopTraining } from './support/core.ts';
import { caller, memoryService, type Caller } from './support/api.ts';
import { channelOptions, TestClock } from './support/channels.ts';
import { FAKE_TELEGRAM_TOKEN, startFakeTelegram, type FakeTelegram } from './support/fake-telegram.ts';
import { startFakeWhatsApp, type FakeWhatsApp } from './support/fake-whatsapp.ts';
import { operationsOf, type Operation, type Schema } from './support/fuzz-kit.ts';

const HUGE_PLAN = { points: 1_000_000, durationSeconds: 60 };
const SHARED_USER = 'shared-user';
/** A dashboard user (an operator) of each account, for assignment. */
const OPERATORS = { a: 'usr_isolationalpha0001', b: 'usr_isolationbeta00001' };

interface Tenant {
  accountId: string;
  apiKey: string;
  call: Caller;
  /** A word only this tenant's data contains. */
  marker: string;
  ids: Record<
    'bot_id' | 'agent_id' | 'job_id' | 'entry_id' | 'conversation_id' | 'agent_conversation_id' | 'import_id' | 'message_id' | 'attachment_id' | 'webhook_id' | 'delivery_id' | 'canned_reply_id' | 'test_id',
    string
  >;
}

let service: Service;
let telegram: FakeTelegram;
let whatsapp: FakeWhatsApp;
let doc: Schema;
let a: Tenant;
let b: Tenant;

async function ok(call: Caller, path: string, body?: unknown, method?: string) {
  const res = await call(path, { body, method });
  assert.ok(res.status >= 200 && res.status < 300, `${method ?? (body ? 'POST' : 'GET')} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

async function tenant(name: string, marker: string): Promise<Tenant> {
  const { accountId, apiKey } = await service.createAccount({ name, rateLimit: HUGE_PLAN });
  const call = caller(service, apiKey);
  const bot = await ok(call, '/v1/bots', { name: `${name} bot`, training: shopTraining, attachments: { enabled: true } });
  const agent = await ok(call, '/v1/agents', {
    name: `${name} agent`,
    examples: [{ input: 'what is the secret word', output: `The secret word is ${marker}.` }, { input: 'hello', output: `Hello from ${marker}` }],
  });
  const job = await ok(call, `/v1/agents/${agent.id}/train?wait=true`, {});
  assert.equal(job.status, 'succeeded', JSON.stringify(job));
  const entry = await ok(call, '/v1/knowledge', { title: `Refund policy ${marker}`, content: `Refunds are handled by the ${marker} desk within 5 days.` });
  await ok(call, '/v1/knowledge', { title: 'Shipping', content: `Parcels ship from the ${marker} warehouse.` });
  const attachment = (await call(`/v1/attachments?bot_id=${bot.id}&user_id=${SHARED_USER}&filename=secret.txt`, { body: `The ${marker} file.`, headers: { 'content-type': 'text/plain' } })).body.data;
  const botReply = await ok(call, `/v1/bots/${bot.id}/messages`, { message: `hello I am ${marker}`, user_id: SHARED_USER, attachments: [attachment.id] });
  const chat = await ok(call, '/v1/chat', { messages: [{ role: 'user', content: `hello ${marker}` }], agent_id: agent.id, user_id: SHARED_USER });
  const files = [{ name: 'faq.md', data: Buffer.from(`# FAQ\n\nAsk the ${marker} desk.`).toString('base64') }];
  const imported = await ok(call, '/v1/knowledge/imports?wait=true', { kind: 'files', files });
  await ok(call, '/v1/analytics/usage');
  await ok(call, `/v1/bots/${bot.id}/channels/telegram`, { bot_token: FAKE_TELEGRAM_TOKEN }, 'PUT');
  const test = await ok(call, `/v1/bots/${bot.id}/channels/telegram/test`, { chat: '42', text: `A test from ${marker}` });
  await service.deps.channels.drain(); // sent before any snapshot: the channel's health stays put
  // Loopback is allowed for this service's webhooks: the test event goes to a closed local port.
  const webhook = await ok(call, '/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['message.created'], description: marker });
  const delivery = await ok(call, `/v1/webhooks/${webhook.id}/test`, {});
  const canned = await ok(call, '/v1/canned-replies', { shortcut: 'secret', text: `Ask the ${marker} desk.` });
  return {
    accountId,
    apiKey,
    call,
    marker,
    ids: {
      bot_id: bot.id, agent_id: agent.id, job_id: job.id, entry_id: entry.id, conversation_id: botReply.conversation_id,
      agent_conversation_id: chat.conversation_id, import_id: imported.id, message_id: botReply.message.id,
      attachment_id: attachment.id, webhook_id: webhook.id, delivery_id: delivery.id, canned_reply_id: canned.id, test_id: test.id,
    },
  };
}

/** A valid body for each operation that takes one (a new route must add its own here). */
const VALID_BODIES: Record<string, unknown> = {
  'POST /v1/chat': { messages: [{ role: 'user', content: 'hello' }] },
  'POST /v1/bots': { name: 'b' },
  'PUT /v1/bots/{bot_id}': { name: 'hijacked', training: { intents: [] } },
  'POST /v1/bots/{bot_id}/messages': { message: 'hello', user_id: SHARED_USER },
  'POST /v1/bots/{bot_id}/classify': { text: 'hello' },
  'POST /v1/agents': { name: 'a' },
  'PUT /v1/agents/{agent_id}': { name: 'hijacked', examples: [] },
  'POST /v1/agents/{agent_id}/train': {},
  'POST /v1/knowledge': { title: 't', content: 'c' },
  'PUT /v1/knowledge/{entry_id}': { title: 'hijacked', content: 'hijacked' },
  'POST /v1/knowledge/imports/{import_id}/sync': { files: [{ name: 'faq.md', data: Buffer.from('# Hijacked').toString('base64') }] },
  'POST /v1/messages/{message_id}/feedback': { rating: 'down', user_id: SHARED_USER },
  'PUT /v1/bots/{bot_id}/handoff': { enabled: true },
  'POST /v1/conversations/{conversation_id}/handoff': { user_id: SHARED_USER },
  'POST /v1/conversations/{conversation_id}/handoff/typing': { user_id: SHARED_USER },
  'POST /v1/conversations/{conversation_id}/handoff/offline-messages': { email: 'x@example.com', message: 'hijacked', user_id: SHARED_USER },
  'POST /v1/conversations/{conversation_id}/csat': { rating: 1, comment: 'hijacked', user_id: SHARED_USER },
  'PUT /v1/bots/{bot_id}/csat': { after_bot: true },
  'POST /v1/attachments': 'a plain text file',
  'PUT /v1/bots/{bot_id}/channels/telegram': { bot_token: FAKE_TELEGRAM_TOKEN },
  'PUT /v1/bots/{bot_id}/channels/whatsapp': { phone_number_id: '1', access_token: 'hijacked', app_secret: 'hijacked', verify_token: 'hijacked' },
  'PUT /v1/bots/{bot_id}/channels/slack': { bot_token: 'xoxb-hijacked-0000', signing_secret: 'hijackedhijacked' },
  'POST /v1/bots/{bot_id}/channels/telegram/test': { chat: '42' },
  'POST /v1/bots/{bot_id}/channels/whatsapp/test': { chat: '42' },
  'POST /v1/bots/{bot_id}/channels/slack/test': { chat: 'C0HIJACKED' },
  'PATCH /v1/webhooks/{webhook_id}': { enabled: false, url: 'http://127.0.0.1:9/hijacked' },
  'PATCH /v1/canned-replies/{canned_reply_id}': { text: 'hijacked' },
  'POST /v1/conversations/{conversation_id}/labels': { add: ['hijacked'] },
  'PUT /v1/conversations/{conversation_id}/assignment': { operator_id: OPERATORS.b },
};

function bodyFor(op: Operation): unknown {
  if (!op.body) return undefined;
  assert.ok(op.label in VALID_BODIES, `isolation.test.ts needs a valid body for the new operation ${op.label}`);
  return VALID_BODIES[op.label];
}

/** Everything A can read about its resources, to compare before and after B's attempts. */
async function snapshotOf(t: Tenant) {
  const { ids, call } = t;
  return {
    bot: (await call(`/v1/bots/${ids.bot_id}`)).body.data,
    agent: (await call(`/v1/agents/${ids.agent_id}`)).body.data,
    jobs: (await call(`/v1/agents/${ids.agent_id}/jobs`)).body.data,
    entry: (await call(`/v1/knowledge/${ids.entry_id}`)).body.data,
    history: (await call(`/v1/chat/history?user_id=${SHARED_USER}&limit=100`)).body.data,
    knowledge: (await call('/v1/knowledge?limit=100')).body.data,
    imported: (await call(`/v1/knowledge/imports/${ids.import_id}`)).body.data,
    attachment: (await call(`/v1/attachments/${ids.attachment_id}`)).body,
    channel: (await call(`/v1/bots/${ids.bot_id}/channels/telegram`)).body.data,
    webhook: (await call(`/v1/webhooks/${ids.webhook_id}`)).body.data,
    cannedReplies: (await call('/v1/canned-replies')).body.data,
    assignment: (await call('/v1/assignment')).body.data,
  };
}

before(async () => {
  [telegram, whatsapp] = await Promise.all([startFakeTelegram(), startFakeWhatsApp()]);
  service = await memoryService({ rateLimit: HUGE_PLAN, channels: channelOptions({ telegram, whatsapp }, new TestClock()), webhooks: { allowPrivateHosts: true } });
  doc = await (await service.fetch(new Request('http://127.0.0.1/v1/openapi.json'))).json();
  a = await tenant('Alpha', 'zebracorn');
  b = await tenant('Beta', 'quokkaland');
  for (const [tenant, id] of [[a, OPERATORS.a], [b, OPERATORS.b]] as const) {
    await sql`insert into users (id, account_id, email, password_hash, role) values (${id}, ${tenant.accountId}, ${`${id}@example.test`}, 'x', 'member')`.execute(service.deps.db);
  }
});
after(async () => {
  await service?.close();
  await Promise.all([telegram?.close(), whatsapp?.close()]);
});

describe('tenant isolation: account B with account A\'s ids', () => {
  it('gets 404 on every operation with a path id, and A\'s data is unchanged afterwards', async () => {
    const before = await snapshotOf(a);
    // Public operations (a platform's webhook) answer by their own proof, not by account: their refusals are tested with them.
    const ops = operationsOf(doc).filter((op) => op.pathParams.length && !op.isPublic);
    assert.ok(ops.length >= 8);
    for (const op of ops) {
      const path = op.template.replace(/\{(\w+)\}/g, (_, name: string) => a.ids[name as keyof Tenant['ids']] ?? assert.fail(`no id for ${name}`));
      const res = await b.call(path, { method: op.method, body: bodyFor(op) });
      assert.equal(res.status, 404, `${op.label}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'resource_not_found');
      assert.doesNotMatch(JSON.stringify(res.body), new RegExp(a.marker));
    }
    // B's own agent with A's job id
    const mixed = await b.call(`/v1/agents/${b.ids.agent_id}/jobs/${a.ids.job_id}`);
    assert.equal(mixed.status, 404);
    assert.deepEqual(await snapshotOf(a), before);
  });

  it('gets 404 for A\'s ids in every *_id query parameter', async () => {
    for (const op of operationsOf(doc)) {
      for (const { name } of op.query.filter((q) => q.name.endsWith('_id') && q.name !== 'user_id' && q.name !== 'last_event_id')) {
        const id = a.ids[name as keyof Tenant['ids']] ?? assert.fail(`no id for ${name}`);
        // B's own resource in the path (if any), A's id in the query
        const path = op.template.replace(/\{(\w+)\}/g, (_, param: string) => b.ids[param as keyof Tenant['ids']] ?? assert.fail(`no id for ${param}`));
        const userId = op.template.endsWith('/history') || op.pathParams.length ? `&user_id=${SHARED_USER}` : '';
        const res = await b.call(`${path}?${name}=${id}${userId}`, { method: op.method, body: bodyFor(op) });
        assert.equal(res.status, 404, `${op.label}?${name}: ${JSON.stringify(res.body)}`);
        // a list names the foreign id; B's own resource looked up in A's scope is what is not found
        assert.ok([name, ...op.pathParams].includes(res.body.error.param), `${op.label}?${name}: param ${res.body.error.param}`);
        assert.doesNotMatch(JSON.stringify(res.body), new RegExp(a.marker));
      }
    }
  });

  it('gets 404 for A\'s ids in every *_id field of a chat request', async () => {
    const props = (doc.components.schemas.ChatRequest as Schema).properties as Schema;
    const fields = Object.keys(props).filter((n) => n.endsWith('_id') && n !== 'user_id');
    assert.deepEqual(fields.sort(), ['agent_id', 'bot_id', 'conversation_id']);
    for (const field of fields) {
      const res = await b.call('/v1/chat', { body: { messages: [{ role: 'user', content: 'what is the secret word' }], user_id: SHARED_USER, [field]: a.ids[field as keyof Tenant['ids']] } });
      assert.equal(res.status, 404, `${field}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.param, field);
    }
  });

  it("sees and sets only its own operators' assignment", async () => {
    const before = await snapshotOf(a);
    const mine = (await b.call('/v1/assignment')).body.data.operators.map((o: { id: string }) => o.id);
    assert.deepEqual(mine, [OPERATORS.b]);
    const res = await b.call('/v1/assignment', { method: 'PUT', body: { auto: true, capacities: [{ operator_id: OPERATORS.a, capacity: 0 }] } });
    assert.deepEqual([res.status, res.body.error.code, res.body.error.param], [404, 'resource_not_found', 'operator_id']);
    const crossing = await b.call(`/v1/conversations/${b.ids.conversation_id}/assignment`, { method: 'PUT', body: { operator_id: OPERATORS.a } });
    assert.deepEqual([crossing.status, crossing.body.error.param], [404, 'operator_id'], "A's operator on B's conversation");
    assert.deepEqual(await snapshotOf(a), before);
  });

  it("cannot send A's file with its own message", async () => {
    const res = await b.call(`/v1/bots/${b.ids.bot_id}/messages`, { body: { message: 'mine', user_id: SHARED_USER, attachments: [a.ids.attachment_id] } });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.param, 'attachments.0');
  });

  it('lists only its own bots, agents, knowledge and jobs', async () => {
    const own = (items: { id: string }[]) => items.map((i) => i.id);
    const bots = own((await b.call('/v1/bots?limit=100')).body.data.items);
    assert.deepEqual(bots, [b.ids.bot_id]);
    const agents = own((await b.call('/v1/agents?limit=100')).body.data.items);
    assert.deepEqual(agents, [b.ids.agent_id]);
    const knowledge = (await b.call('/v1/knowledge?limit=100')).body.data.items;
    assert.equal(knowledge.length, 3); // two typed, one imported
    assert.doesNotMatch(JSON.stringify(knowledge), new RegExp(a.marker));
    assert.deepEqual(own((await b.call('/v1/knowledge/imports?limit=100')).body.data.items), [b.ids.import_id]);
    const jobs = own((await b.call(`/v1/agents/${b.ids.agent_id}/jobs`)).body.data.items);
    assert.deepEqual(jobs, [b.ids.job_id]);
    // the same user_id in both accounts: only B's conversations, and A's words do not find A's
    const conversations = own((await b.call(`/v1/conversations?user_id=${SHARED_USER}&limit=100`)).body.data.items);
    assert.deepEqual(conversations.sort(), [b.ids.conversation_id, b.ids.agent_conversation_id].sort());
    assert.deepEqual((await b.call(`/v1/conversations?q=${a.marker}`)).body.data.items, []);
    const canned = (await b.call('/v1/canned-replies')).body.data.items;
    assert.deepEqual(own(canned), [b.ids.canned_reply_id]);
    assert.doesNotMatch(JSON.stringify(canned), new RegExp(a.marker));
  });

  it('never finds A\'s text in knowledge search, nor in chat answers grounded on knowledge', async () => {
    const byMarker = await b.call(`/v1/knowledge/search?q=${a.marker}`);
    assert.equal(byMarker.status, 200);
    assert.deepEqual(byMarker.body.data.items, []);
    // a query that matches both tenants' entries: only B's come back
    const shared = await b.call('/v1/knowledge/search?q=refunds%20handled%20desk&limit=50');
    assert.ok(shared.body.data.items.length >= 1, JSON.stringify(shared.body));
    assert.doesNotMatch(JSON.stringify(shared.body.data), new RegExp(a.marker));
    const chat = await b.call('/v1/chat', { body: { messages: [{ role: 'user', content: `how are refunds handled ${a.marker}` }] } });
    assert.equal(chat.status, 200);
    assert.doesNotMatch(JSON.stringify(chat.body.data), new RegExp(a.marker));
    const agentChat = await b.call('/v1/chat', { body: { messages: [{ role: 'user', content: 'what is the secret word' }], agent_id: b.ids.agent_id } });
    assert.match(agentChat.body.data.message.content, new RegExp(b.marker));
  });

  it('reads only its own history for the same user_id', async () => {
    const history = (await b.call(`/v1/chat/history?user_id=${SHARED_USER}&limit=100`)).body.data.items as { conversation_id: string; content: string }[];
    assert.ok(history.length >= 4);
    const conversations = new Set(history.map((m) => m.conversation_id));
    assert.deepEqual([...conversations].sort(), [b.ids.conversation_id, b.ids.agent_conversation_id].sort());
    assert.doesNotMatch(JSON.stringify(history), new RegExp(a.marker));
    const withABot = await b.call(`/v1/chat/history?user_id=${SHARED_USER}&bot_id=${a.ids.bot_id}`);
    assert.equal(withABot.status, 404);
  });

  it('does not count A\'s traffic in its usage and performance reports', async () => {
    const usage0 = (await b.call('/v1/analytics/usage')).body.data;
    const perf0 = (await b.call('/v1/analytics/performance')).body.data;
    for (let i = 0; i < 3; i++) await ok(a.call, `/v1/bots/${a.ids.bot_id}/messages`, { message: 'where is my order', user_id: `u${i}` });
    await ok(a.call, '/v1/knowledge');
    const usage1 = (await b.call('/v1/analytics/usage')).body.data;
    const perf1 = (await b.call('/v1/analytics/performance')).body.data;
    // B's only new requests are its two report calls before this one
    const context = JSON.stringify({ usage0: usage0.totals, usage1: usage1.totals, perf0: perf0.replies, perf1: perf1.replies });
    assert.equal(usage1.totals.requests, usage0.totals.requests + 2, context);
    assert.equal(usage1.totals.messages, usage0.totals.messages, context);
    assert.equal(usage1.totals.conversations, usage0.totals.conversations, context);
    assert.equal(perf1.replies, perf0.replies, context);
    // and B's totals are exactly B's rows
    const counted = await sql<{ messages: string }>`select count(*) as messages from messages where account_id = ${b.accountId}`.execute(service.deps.db);
    assert.equal(usage1.totals.messages, Number(counted.rows[0]!.messages), context);
    const aUsage = (await a.call('/v1/analytics/usage')).body.data;
    const aCounted = await sql<{ messages: string }>`select count(*) as messages from messages where account_id = ${a.accountId}`.execute(service.deps.db);
    assert.equal(aUsage.totals.messages, Number(aCounted.rows[0]!.messages), JSON.stringify(aUsage.totals));
  });

  it('keeps Idempotency-Keys per account: the same key in B runs B\'s request', async () => {
    const key = 'shared-idempotency-key-1';
    const first = await a.call('/v1/knowledge', { body: { title: 'A only', content: a.marker }, headers: { 'idempotency-key': key } });
    assert.equal(first.status, 201);
    const second = await b.call('/v1/knowledge', { body: { title: 'B only', content: b.marker }, headers: { 'idempotency-key': key } });
    assert.equal(second.status, 201, JSON.stringify(second.body));
    assert.equal(second.headers.get('idempotent-replayed'), null);
    assert.notEqual(second.body.data.id, first.body.data.id);
    assert.equal((await b.call(`/v1/knowledge/${second.body.data.id}`)).body.data.content, b.marker);
  });
});

describe('tenant isolation through the token proxy', () => {
  const SECRET = 'isolation-test-secret-0123456789abcdef0123';
  let proxy: ReturnType<typeof createProxy>;
  let otherBot: string;

  before(async () => {
    otherBot = (await ok(a.call, '/v1/bots', { name: 'Other bot of A', training: shopTraining })).id;
    proxy = createProxy({
      apiKey: a.apiKey,
      upstream: 'http://localhost',
      fetch: (input, init) => service.fetch(new Request(input, init)),
      secret: SECRET,
      botId: a.ids.bot_id,
      basePath: '/proxy',
      authorize: (request) => {
        const user = /session=([\w-]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
        return user ? { userId: user } : null;
      },
    });
  });

  async function tokenFor(user: string): Promise<string> {
    const res = await proxy.fetch(new Request('http://127.0.0.1/proxy/token', { method: 'POST', headers: { cookie: `session=${user}`, 'content-type': 'application/json' }, body: '{}' }));
    const body = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    return body.data.token;
  }

  async function viaProxy(token: string, path: string, body?: unknown) {
    const res = await proxy.fetch(
      new Request(`http://127.0.0.1/proxy${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    return { status: res.status, body: await res.json() };
  }

  it('refuses a token of bot X posting to bot Y (403), even a bot of the same account', async () => {
    const token = await tokenFor('u1');
    for (const bot of [otherBot, b.ids.bot_id]) {
      const res = await viaProxy(token, `/v1/bots/${bot}/messages`, { message: 'hello', user_id: 'u1' });
      assert.equal(res.status, 403, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'permission_denied');
      const chat = await viaProxy(token, '/v1/chat', { messages: [{ role: 'user', content: 'hello' }], bot_id: bot });
      assert.equal(chat.status, 403);
    }
    const own = await viaProxy(token, `/v1/bots/${a.ids.bot_id}/messages`, { message: 'hello', user_id: 'u2' });
    assert.equal(own.status, 200, JSON.stringify(own.body));
  });

  it('shows user u1 only u1\'s history, whatever user_id or conversation it asks for', async () => {
    const u1 = await tokenFor('u1');
    const u2 = await tokenFor('u2');
    const mine = await viaProxy(u1, '/v1/chat', { messages: [{ role: 'user', content: 'u1 private words' }] });
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    const theirs = await viaProxy(u2, '/v1/chat', { messages: [{ role: 'user', content: 'u2 private words' }] });
    assert.equal(theirs.status, 200);
    const u2Conversation = theirs.body.data.conversation_id;

    const asked = await viaProxy(u1, `/v1/chat/history?user_id=u2&limit=100`);
    assert.equal(asked.status, 200, JSON.stringify(asked.body));
    assert.ok(asked.body.data.items.length >= 2);
    assert.doesNotMatch(JSON.stringify(asked.body.data), /u2 private words/);
    assert.match(JSON.stringify(asked.body.data), /u1 private words/);

    const byConversation = await viaProxy(u1, `/v1/chat/history?conversation_id=${u2Conversation}`);
    assert.doesNotMatch(JSON.stringify(byConversation.body), /u2 private words/);
    assert.ok(byConversation.status === 404 || byConversation.body.data.items.length === 0, JSON.stringify(byConversation.body));

    const hijack = await viaProxy(u1, '/v1/chat', { messages: [{ role: 'user', content: 'continue' }], conversation_id: u2Conversation });
    assert.equal(hijack.status, 404, JSON.stringify(hijack.body));
    assert.equal(hijack.body.error.code, 'resource_not_found');
    // …and u2's conversation did not grow
    const u2History = await viaProxy(u2, `/v1/chat/history?conversation_id=${u2Conversation}`);
    assert.equal(u2History.body.data.items.length, 2);

    // The shared user of the API-key traffic is invisible to a widget user named otherwise.
    const shared = await viaProxy(u1, `/v1/chat/history?user_id=${SHARED_USER}`);
    assert.doesNotMatch(JSON.stringify(shared.body), new RegExp(a.marker));
  });
});
