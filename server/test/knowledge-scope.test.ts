// What knowledge a reply may quote. A bot answers from its knowledge scope only (none by default),
// chat forwarded by the token proxy without a bot or agent quotes nothing, and a key holder keeps
// every entry. The secret case runs end to end: the demo proxy mounted as `npm start` mounts it, a
// token minted at /proxy/token, chat through the proxy, against the real service on a loopback port.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createProxy } from '../../src/proxy/index.ts';
import { openDatabase } from '../src/db/database.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { createDemoProxy, DEMO_PROXY_PATH } from '../src/demo-proxy.ts';
import { startServer, type RunningServer } from '../src/index.ts';
import { DEMO_BOT } from '../src/seed.ts';
import { parseSseBody } from './support/sse.ts';
import { testDatabase, type TestDatabase } from './support/test-database.ts';

const SECRET = 'PAYROLL-SECRET-7731';
const PAYROLL = {
  title: 'INTERNAL payroll',
  content: `The payroll export password is ${SECRET}. Salaries are paid on the 25th of each month.`,
  tags: ['internal'],
};
const QUESTION = 'What is the payroll export password?';

let database: TestDatabase;
let server: RunningServer;
let apiKey: string;
let entryId: string;

before(async () => {
  database = await testDatabase();
  server = await startServer({
    ...database.options,
    seed: true,
    logLevel: 'silent',
    port: 0,
    // as server/src/main.ts mounts it
    mount: async (app, service) => {
      const proxy = await createDemoProxy(service);
      app.all(`${DEMO_PROXY_PATH}/*`, (c) => proxy.fetch(c.req.raw));
    },
  });
  apiKey = server.service.devApiKey!;
  const created = await keyCall('/v1/knowledge', PAYROLL);
  assert.equal(created.res.status, 201, JSON.stringify(created.body));
  entryId = created.body.data.id;
});
after(async () => {
  await server?.close();
  await database?.cleanup();
});

async function keyCall(path: string, body?: unknown, init: { method?: string; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${server.url}${path}`, {
    method: init.method ?? (body === undefined ? 'GET' : 'POST'),
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...init.headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { res, body: (await res.json()) as any };
}

const ask = (content = QUESTION) => ({ messages: [{ role: 'user', content }] });

/** Neither the secret, nor the entry's id or title, anywhere in the answer (text, citations, suggestions). */
function assertNoPayroll(raw: string, context: string) {
  assert.ok(!raw.includes(SECRET), `${context}: the secret leaked: ${raw}`);
  assert.ok(!raw.includes(entryId), `${context}: the entry is cited: ${raw}`);
  assert.ok(!raw.includes(PAYROLL.title), `${context}: the entry's title is suggested: ${raw}`);
}

/** The reply quotes the secret and cites the entry. */
function assertPayroll(data: any, context: string) {
  assert.equal(data.source, 'knowledge', `${context}: ${JSON.stringify(data)}`);
  assert.match(data.message.content, new RegExp(SECRET));
  assert.deepEqual(data.citations.map((c: { entry_id: string }) => c.entry_id), [entryId]);
}

async function createBot(body: Record<string, unknown>) {
  const created = await keyCall('/v1/bots', { name: 'Public bot', ...body });
  assert.equal(created.res.status, 201, JSON.stringify(created.body));
  return created.body.data as { id: string; knowledge: unknown };
}

describe('knowledge scope: through the demo token proxy', () => {
  async function demoToken(): Promise<{ token: string; botId: string }> {
    const res = await fetch(`${server.url}${DEMO_PROXY_PATH}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: '{}',
    });
    const body = (await res.json()) as any;
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.match(body.data.user_id, /^anon_/);
    return { token: body.data.token, botId: body.data.bot_id };
  }

  function viaProxy(token: string, body: unknown) {
    return fetch(`${server.url}${DEMO_PROXY_PATH}/v1/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify(body),
    });
  }

  it('an anonymous widget token never gets the internal entry, as JSON or as a stream', async () => {
    const { token, botId } = await demoToken();
    assert.match(botId, /^bot_/, 'the demo proxy mints tokens for the seeded demo bot');
    for (const question of [QUESTION, 'INTERNAL payroll', 'When are salaries paid? Tell me about payroll.']) {
      const res = await viaProxy(token, ask(question));
      const raw = await res.text();
      assert.equal(res.status, 200, raw);
      assertNoPayroll(raw, question);
      const streamed = await viaProxy(token, { ...ask(question), stream: true });
      const frames = await streamed.text();
      assert.equal(parseSseBody(frames).at(-1)!.event, 'done', frames);
      assertNoPayroll(frames, `${question} (stream)`);
    }
    // naming the bot explicitly changes nothing: the token's bot, the bot's scope
    const named = await viaProxy(token, { ...ask(), bot_id: botId });
    assertNoPayroll(await named.text(), 'with bot_id');
  });

  it('the demo bot still answers from the demo knowledge (its scope: the docs tag)', async () => {
    const { token } = await demoToken();
    const res = await viaProxy(token, ask('Which headers tell me about the rate limit?'));
    const body = (await res.json()) as any;
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(body.data.source, 'knowledge', JSON.stringify(body.data));
    assert.equal(body.data.citations[0].title, 'Rate limits');
  });

  it('a key holder still reaches the entry: without a bot, and through an agent scoped to it', async () => {
    assertPayroll((await keyCall('/v1/chat', ask())).body.data, 'key, no bot');
    const agent = await keyCall('/v1/agents', { name: 'HR agent', knowledge: { tags: ['internal'] } });
    assert.equal(agent.res.status, 201, JSON.stringify(agent.body));
    assertPayroll((await keyCall('/v1/chat', { ...ask(), agent_id: agent.body.data.id })).body.data, 'key, HR agent');
    const docsAgent = await keyCall('/v1/agents', { name: 'Docs agent', knowledge: { tags: ['docs'] } });
    const outside = await keyCall('/v1/chat', { ...ask(), agent_id: docsAgent.body.data.id });
    assertNoPayroll(JSON.stringify(outside.body), 'key, docs agent');
  });

  it('a token without a bot or agent (another proxy on the same service) gets no knowledge at all', async () => {
    const proxy = createProxy({
      apiKey,
      upstream: server.url,
      secret: 'a-test-secret-that-is-long-enough-0123456789',
      allowAnonymous: true,
      rateLimit: { perToken: false, perIp: false },
    });
    const minted = (await (await proxy(new Request('http://proxy.test/token', { method: 'POST' }))).json()) as any;
    assert.equal(minted.data.bot_id, null);
    const res = await proxy(
      new Request('http://proxy.test/v1/chat', {
        method: 'POST',
        headers: { authorization: `Bearer ${minted.data.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(ask()),
      }),
    );
    const raw = await res.text();
    assert.equal(res.status, 200, raw);
    assertNoPayroll(raw, 'token without a bot');
    assert.equal(JSON.parse(raw).data.source, 'fallback');
  });
});

describe('knowledge scope: bots', () => {
  it('a bot has no knowledge until it is given a scope; its scope decides what it quotes', async () => {
    const bot = await createBot({});
    assert.equal(bot.knowledge, null);
    assert.equal((await keyCall(`/v1/bots/${bot.id}`)).body.data.knowledge, null);
    assertNoPayroll(JSON.stringify((await keyCall('/v1/chat', { ...ask(), bot_id: bot.id })).body), 'no scope');

    const docs = await keyCall(`/v1/bots/${bot.id}`, { knowledge: { tags: ['docs'] } }, { method: 'PUT' });
    assert.deepEqual(docs.body.data.knowledge, { tags: ['docs'] });
    assertNoPayroll(JSON.stringify((await keyCall('/v1/chat', { ...ask(), bot_id: bot.id })).body), 'docs scope');

    const internal = await keyCall(`/v1/bots/${bot.id}`, { knowledge: { tags: ['internal'] } }, { method: 'PUT' });
    assert.deepEqual(internal.body.data.knowledge, { tags: ['internal'] });
    assertPayroll((await keyCall('/v1/chat', { ...ask(), bot_id: bot.id })).body.data, 'internal scope');

    const everything = await keyCall(`/v1/bots/${bot.id}`, { knowledge: {} }, { method: 'PUT' });
    assert.deepEqual(everything.body.data.knowledge, { tags: [] }, 'an empty scope reads as every entry, as for agents');
    assertPayroll((await keyCall('/v1/chat', { ...ask(), bot_id: bot.id })).body.data, 'every entry');

    const cleared = await keyCall(`/v1/bots/${bot.id}`, { knowledge: null }, { method: 'PUT' });
    assert.equal(cleared.body.data.knowledge, null);
    assertNoPayroll(JSON.stringify((await keyCall('/v1/chat', { ...ask(), bot_id: bot.id })).body), 'cleared');
  });

  it('refuses a malformed scope with the envelope', async () => {
    for (const [knowledge, code] of [
      [{ tags: 'internal' }, 'validation_failed'],
      [{ tags: [''] }, 'validation_failed'],
      ['internal', 'validation_failed'],
      [{ tag: ['internal'] }, 'unknown_parameter'],
    ] as const) {
      const { res, body } = await keyCall('/v1/bots', { name: 'Bad scope', knowledge });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(body.success, false);
      assert.equal(body.error.code, code, JSON.stringify(body));
    }
  });
});

describe('knowledge scope: the AI-Chat-Caller header', () => {
  it('widget: chat without a bot or agent quotes nothing; a bot keeps its own scope', async () => {
    const widget = { headers: { 'AI-Chat-Caller': 'widget' } };
    const none = await keyCall('/v1/chat', ask(), widget);
    assert.equal(none.res.status, 200, JSON.stringify(none.body));
    assertNoPayroll(JSON.stringify(none.body), 'widget, no bot');
    const bot = await createBot({ knowledge: { tags: ['internal'] } });
    assertPayroll((await keyCall('/v1/chat', { ...ask(), bot_id: bot.id }, widget)).body.data, 'widget, scoped bot');
  });

  it('refuses any other value (400 validation_failed)', async () => {
    const { res, body } = await keyCall('/v1/chat', ask(), { headers: { 'AI-Chat-Caller': 'admin' } });
    assert.equal(res.status, 400);
    assert.equal(body.error.code, 'validation_failed');
    assert.equal(body.error.param, 'AI-Chat-Caller');
  });
});

describe('knowledge scope: upgrading a database (migration 005)', () => {
  it('existing bots start with no knowledge, except the demo bot an earlier start seeded (docs)', async () => {
    const upgraded = await testDatabase();
    const handle = await openDatabase({ dataDir: 'memory://', ...upgraded.options });
    try {
      const { db } = handle;
      // Back to the schema before 005, with the rows an earlier version wrote.
      await sql`alter table bots drop column knowledge`.execute(db);
      await sql`delete from _migrations where name like '005_%'`.execute(db);
      await sql`insert into accounts (id, name) values ('acct_upgrade', 'Upgrade')`.execute(db);
      for (const [id, name, description] of [
        ['bot_seeded', DEMO_BOT.name, DEMO_BOT.description!],
        ['bot_same_name', DEMO_BOT.name, 'Our own bot, which happens to share the name.'],
        ['bot_other', 'Shop', ''],
      ]) {
        await sql`insert into bots (id, account_id, name, description, language, status, training)
          values (${id}, 'acct_upgrade', ${name}, ${description}, 'en', 'untrained', '{"intents": []}')`.execute(db);
      }
      assert.deepEqual(await runMigrations(db), ['005_bot_knowledge_scope.sql']);
      const rows = await db.selectFrom('bots').select(['id', 'knowledge']).orderBy('id').execute();
      assert.deepEqual(
        rows.map((r) => [r.id, r.knowledge]),
        [
          ['bot_other', null],
          ['bot_same_name', null],
          ['bot_seeded', { tags: ['docs'] }],
        ],
      );
    } finally {
      await handle.close();
      await upgraded.cleanup();
    }
  });
});
