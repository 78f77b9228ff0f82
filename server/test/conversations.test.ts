// GET /v1/conversations and GET /v1/conversations/{id} over the real service and database: every
// filter alone and combined, cursor paging without repeats or gaps, the newest message's preview,
// the text filter (words, prefixes, case, addresses, and hostile input never a 500), and 400/404s.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Service } from '../src/index.ts';
import { shopTraining } from './support/core.ts';
import { HOSTILE_STRINGS } from './support/fuzz-kit.ts';
import { caller, memoryService, type Caller } from './support/api.ts';

let service: Service;
let call: Caller;
const ids: Record<string, string> = {};

async function data(path: string, body?: unknown) {
  const res = await call(path, { body });
  assert.ok(res.status >= 200 && res.status < 300, `${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** The error answer of `path`, checked for its status and `param`. */
async function expectError(path: string, status: number, param: string) {
  const res = await call(path);
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.error.param, param);
  return res.body.error;
}

async function listIds(query: string): Promise<string[]> {
  return (await data(`/v1/conversations?limit=200&${query}`)).items.map((c: { id: string }) => c.id);
}

/** Sets a conversation's start time (the API cannot backdate), to test the date range. */
async function startedAt(conversationId: string, at: string): Promise<void> {
  await sql`update conversations set created_at = ${at}::timestamptz where id = ${conversationId}`.execute(service.deps.db);
}

before(async () => {
  service = await memoryService();
  const account = await service.createAccount({ rateLimit: { points: 100_000, durationSeconds: 60 } });
  call = caller(service, account.apiKey);
  const bot = await data('/v1/bots', { name: 'Shop', training: shopTraining });
  const agent = await data('/v1/agents', { name: 'Helper' });
  ids.bot = bot.id;
  ids.agent = agent.id;
  ids.ann = (await data(`/v1/bots/${bot.id}/messages`, { message: 'Hello, my REFUNDS question', user_id: 'ann' })).conversation_id;
  ids.bob = (await data(`/v1/bots/${bot.id}/messages`, { message: 'write to bob@example.com please', user_id: 'bob' })).conversation_id;
  ids.agentChat = (await data('/v1/chat', { messages: [{ role: 'user', content: 'shipping to Köln?' }], agent_id: agent.id, user_id: 'ann' })).conversation_id;
  ids.plain = (await data('/v1/chat', { messages: [{ role: 'user', content: 'x'.repeat(300) }] })).conversation_id;
  await startedAt(ids.ann, '2026-01-10T08:00:00Z');
  await startedAt(ids.bob, '2026-01-11T23:59:59.999Z');
  await startedAt(ids.agentChat, '2026-01-12T00:00:00Z');
  await startedAt(ids.plain, '2026-01-13T12:00:00Z');
});
after(() => service?.close());

describe('GET /v1/conversations', () => {
  it('lists the account\'s conversations newest first, with their newest message', async () => {
    const page = await data('/v1/conversations');
    assert.deepEqual(page.items.map((c: { id: string }) => c.id), [ids.plain, ids.agentChat, ids.bob, ids.ann]);
    assert.equal(page.has_more, false);
    const ann = page.items.find((c: { id: string }) => c.id === ids.ann);
    assert.equal(ann.bot_id, ids.bot);
    assert.equal(ann.agent_id, null);
    assert.equal(ann.user_id, 'ann');
    assert.equal(ann.created_at, '2026-01-10T08:00:00.000Z');
    assert.equal(ann.last_message.role, 'assistant');
    const history = await data(`/v1/chat/history?conversation_id=${ids.ann}`);
    assert.equal(ann.last_message.id, history.items.at(-1).id);
    // the preview is cut to 200 characters; the transcript keeps the whole text
    const plain = page.items.find((c: { id: string }) => c.id === ids.plain);
    const plainHistory = await data(`/v1/chat/history?conversation_id=${ids.plain}`);
    assert.equal(plainHistory.items[0].content.length, 300);
    assert.ok(plain.last_message.preview.length <= 200);
    // another account sees none of them
    const other = caller(service, (await service.createAccount()).apiKey);
    assert.deepEqual((await other('/v1/conversations')).body.data.items, []);
  });

  it('filters by bot, agent and user, alone and combined', async () => {
    assert.deepEqual(await listIds(`bot_id=${ids.bot}`), [ids.bob, ids.ann]);
    assert.deepEqual(await listIds(`agent_id=${ids.agent}`), [ids.agentChat]);
    assert.deepEqual(await listIds('user_id=ann'), [ids.agentChat, ids.ann]);
    assert.deepEqual(await listIds(`user_id=ann&bot_id=${ids.bot}`), [ids.ann]);
    assert.deepEqual(await listIds('user_id=nobody'), []);
  });

  it('filters by when the conversation started; a date `to` includes that whole day', async () => {
    assert.deepEqual(await listIds('from=2026-01-11&to=2026-01-12'), [ids.agentChat, ids.bob]);
    assert.deepEqual(await listIds('to=2026-01-11'), [ids.bob, ids.ann]);
    assert.deepEqual(await listIds('from=2026-01-12T00:00:00Z'), [ids.plain, ids.agentChat]);
    assert.deepEqual(await listIds('from=2026-01-11T23:59:59.999Z&to=2026-01-11T23:59:59.999Z'), [ids.bob]);
    await expectError('/v1/conversations?from=2026-02-01&to=2026-01-01', 400, 'from');
    await expectError('/v1/conversations?to=2026-02-31', 400, 'to');
  });

  it('filters by words in any message: case-insensitive, prefixes, addresses as written', async () => {
    assert.deepEqual(await listIds('q=refunds'), [ids.ann]);
    assert.deepEqual(await listIds('q=REFUN'), [ids.ann], 'a word matches the start of a longer one');
    assert.deepEqual(await listIds('q=hello%20refunds'), [ids.ann], 'every word must match');
    assert.deepEqual(await listIds('q=hello%20walrus'), []);
    assert.deepEqual(await listIds('q=bob%40example.com'), [ids.bob]);
    assert.deepEqual(await listIds('q=k%C3%B6ln'), [ids.agentChat]);
    // words of the bot's reply count too
    const reply = (await data(`/v1/conversations/${ids.ann}`)).last_message;
    assert.equal(reply.role, 'assistant');
    const replyWord = reply.preview.match(/[a-z]{4,}/i)![0];
    assert.ok((await listIds(`q=${replyWord}`)).includes(ids.ann), `the reply's word "${replyWord}"`);
    assert.deepEqual(await listIds(`q=refunds&user_id=bob`), []);
  });

  it('answers any text filter without a 500: tsquery syntax is never built from input', async () => {
    for (const q of [...HOSTILE_STRINGS, "it's", 'a & b', 'a | b', '!x', 'x:*', '(x', "'x'", 'x\\y', '<->', 'a:b', '💥 refunds', 'é'.repeat(200)]) {
      const res = await call(`/v1/conversations?${new URLSearchParams({ q })}`);
      assert.ok([200, 400].includes(res.status), `q=${JSON.stringify(q)}: ${res.status} ${JSON.stringify(res.body)}`);
      if (res.status === 400) assert.equal(res.body.error.param, 'q', JSON.stringify(res.body));
    }
    assert.equal((await expectError('/v1/conversations?q=%3F%21', 400, 'q')).code, 'validation_failed');
  });

  it('pages with a cursor: every conversation once, in order', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { id: string }[]; next_cursor: string | null; has_more: boolean } = await data(
        `/v1/conversations?limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      );
      assert.equal(page.items.length, 1);
      seen.push(page.items[0]!.id);
      cursor = page.next_cursor;
      assert.equal(page.has_more, cursor !== null);
    } while (cursor);
    assert.deepEqual(seen, [ids.plain, ids.agentChat, ids.bob, ids.ann]);
    // a page of a filtered list continues the same filter
    const first = await data(`/v1/conversations?limit=1&bot_id=${ids.bot}`);
    const second = await data(`/v1/conversations?limit=1&bot_id=${ids.bot}&cursor=${first.next_cursor}`);
    assert.deepEqual([first.items[0].id, second.items[0].id], [ids.bob, ids.ann]);
    assert.equal(second.has_more, false);
    await expectError('/v1/conversations?cursor=garbage', 400, 'cursor');
  });

  it('pages a text filter the same whether its word is common, in between or rare', { timeout: 120_000 }, async () => {
    // Each plan of the text filter (`list`): the common word finds full pages among the newest
    // conversations, the in-between one (over 1,000 matching messages, none of them recent) walks
    // the whole list, the rare one starts from the GIN index. Pairs of conversations start at the
    // same instant (the id breaks the tie). Stored by SQL: 1,600 conversations through the API are slow.
    const account = await service.createAccount({ rateLimit: { points: 100_000, durationSeconds: 60 } });
    const many = caller(service, account.apiKey);
    const total = 1600;
    const wordsOf = (i: number) => [i % 2 === 0 && 'common', i < 1100 && 'middle', i % 97 === 3 && 'rare'].filter(Boolean) as string[];
    await sql`
      insert into conversations (id, account_id, user_id, created_at, updated_at)
      select 'conv_words' || lpad(i::text, 4, '0'), ${account.accountId}, 'u', timestamptz '2026-02-01' + make_interval(secs => i / 2), now()
      from generate_series(0, ${total - 1}) as i`.execute(service.deps.db);
    const rows = Array.from({ length: total }, (_, i) => ({
      id: `msg_words${i}`, account_id: account.accountId, conversation_id: `conv_words${String(i).padStart(4, '0')}`,
      role: 'user', content: ['hello', ...wordsOf(i)].join(' '),
    }));
    await service.deps.db.insertInto('messages').values(rows).execute();
    const newestFirst = rows.map((row) => row.conversation_id).reverse();
    for (const word of ['common', 'middle', 'rare', 'common middle']) {
      const expected = newestFirst.filter((id) => word.split(' ').every((w) => wordsOf(Number(id.slice(-4))).includes(w)));
      for (const limit of [7, 200]) {
        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const res = await many(`/v1/conversations?${new URLSearchParams({ q: word, limit: String(limit), ...(cursor ? { cursor } : {}) })}`);
          assert.equal(res.status, 200, JSON.stringify(res.body));
          const page = res.body.data as { items: { id: string }[]; next_cursor: string | null; has_more: boolean };
          seen.push(...page.items.map((c) => c.id));
          cursor = page.next_cursor;
          assert.equal(page.has_more, cursor !== null);
          assert.ok(page.items.length === limit || !page.has_more, 'a page short of its limit is the last');
          pages += 1;
        } while (cursor && pages < 40); // 40 pages of 7 are enough to cross from the newest conversations into the rest
        assert.deepEqual(seen, expected.slice(0, seen.length), `q=${word}, limit ${limit}`);
        if (!cursor) assert.equal(seen.length, expected.length, `q=${word}, limit ${limit}: every match`);
      }
    }
  });

  it('answers 404 for a bot or agent that is not this account\'s, 400 for unknown parameters, 405 for other methods', async () => {
    await expectError('/v1/conversations?bot_id=bot_missing123456', 404, 'bot_id');
    await expectError('/v1/conversations?agent_id=agt_missing123456', 404, 'agent_id');
    assert.equal((await expectError('/v1/conversations?sort=asc', 400, 'sort')).code, 'unknown_parameter');
    assert.equal((await call('/v1/conversations?limit=201')).status, 400);
    const post = await call('/v1/conversations', { body: {} });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET');
    const patch = await call(`/v1/conversations/${ids.ann}`, { method: 'PATCH', body: {} });
    assert.equal(patch.status, 405);
    assert.equal(patch.headers.get('allow'), 'GET, DELETE');
  });
});

describe('GET /v1/conversations/{conversation_id}', () => {
  it('reads one conversation like the list shows it; 404 for another account\'s or a missing one', async () => {
    const listed = (await data('/v1/conversations')).items.find((c: { id: string }) => c.id === ids.bob);
    assert.deepEqual(await data(`/v1/conversations/${ids.bob}`), listed);
    assert.equal((await call('/v1/conversations/conv_missing123456')).status, 404);
    const other = caller(service, (await service.createAccount()).apiKey);
    const foreign = await other(`/v1/conversations/${ids.bob}`);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error.param, 'conversation_id');
  });
});
