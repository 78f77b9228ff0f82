// GET /v1/chat/history: order, cursors, user/bot filters and tenant isolation.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clientFor, startTestService, type TestClient } from './support/core.ts';

let api: TestClient;
let other: TestClient;
let botA: string;
let botB: string;

const training = { intents: [{ name: 'greeting', examples: ['hello', 'hi there', 'hey'], responses: ['Hello!'] }] };

async function send(bot: string, user: string, message: string, client = api) {
  const { res, body } = await client.json(`/v1/bots/${bot}/messages`, { method: 'POST', body: { message, user_id: user } });
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.data;
}

before(async () => {
  api = await startTestService();
  other = clientFor(api.service, (await api.service.createAccount()).apiKey);
  botA = (await api.json('/v1/bots', { method: 'POST', body: { name: 'A', training } })).body.data.id;
  botB = (await api.json('/v1/bots', { method: 'POST', body: { name: 'B', training } })).body.data.id;
  for (let i = 0; i < 3; i++) await send(botA, 'ann', `hello ${i}`);
  await send(botB, 'ann', 'hello from b');
  await send(botA, 'ben', 'hello ben');
});
after(() => api.service.close());

const contents = (items: { content: string }[]) => items.map((m) => m.content);

describe('GET /v1/chat/history', () => {
  it('returns a conversation oldest to newest', async () => {
    const conv = (await send(botA, 'ann', 'hello again')).conversation_id;
    const { res, body } = await api.json(`/v1/chat/history?conversation_id=${conv}`);
    assert.equal(res.status, 200);
    assert.deepEqual(contents(body.data.items), ['hello 0', 'Hello!', 'hello 1', 'Hello!', 'hello 2', 'Hello!', 'hello again', 'Hello!']);
    assert.equal(body.data.has_more, false);
    assert.equal(body.data.next_cursor, null);
    const assistant = body.data.items[1];
    assert.equal(assistant.source, 'intent');
    assert.equal(assistant.intent, 'greeting');
    assert.equal(body.data.items[0].source, undefined); // user messages carry no reply fields
  });

  it('pages with cursors without gaps or repeats', async () => {
    const all = (await api.json('/v1/chat/history?user_id=ann&limit=200')).body.data.items;
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `/v1/chat/history?user_id=ann&limit=3${cursor ? `&cursor=${cursor}` : ''}`;
      const page = (await api.json(query)).body.data;
      assert.ok(page.items.length <= 3);
      seen.push(...page.items.map((m: { id: string }) => m.id));
      cursor = page.next_cursor;
    } while (cursor);
    assert.deepEqual(seen, all.map((m: { id: string }) => m.id));
    assert.equal(new Set(seen).size, seen.length);
  });

  it('filters by user across conversations, and by user and bot', async () => {
    const ann = (await api.json('/v1/chat/history?user_id=ann&limit=200')).body.data.items;
    assert.ok(contents(ann).includes('hello from b'));
    assert.ok(!contents(ann).includes('hello ben'));
    assert.equal(new Set(ann.map((m: { conversation_id: string }) => m.conversation_id)).size, 2);
    const annB = (await api.json(`/v1/chat/history?user_id=ann&bot_id=${botB}`)).body.data.items;
    assert.deepEqual(contents(annB), ['hello from b', 'Hello!']);
  });

  it('requires conversation_id or user_id and validates the query', async () => {
    const none = await api.json('/v1/chat/history');
    assert.equal(none.res.status, 400);
    assert.equal(none.body.error.code, 'validation_failed');
    const onlyBot = await api.json(`/v1/chat/history?bot_id=${botA}`);
    assert.equal(onlyBot.res.status, 400);
    const unknown = await api.json('/v1/chat/history?user_id=ann&sort=desc');
    assert.equal(unknown.body.error.code, 'unknown_parameter');
    const badCursor = await api.json('/v1/chat/history?user_id=ann&cursor=Zm9v');
    assert.equal(badCursor.body.error.param, 'cursor');
    const badLimit = await api.json('/v1/chat/history?user_id=ann&limit=500');
    assert.equal(badLimit.body.error.param, 'limit');
  });

  it('never shows another account\'s messages', async () => {
    const conv = (await send(botA, 'ann', 'hello secret')).conversation_id;
    const byId = await other.json(`/v1/chat/history?conversation_id=${conv}`);
    assert.equal(byId.res.status, 404);
    assert.equal(byId.body.error.param, 'conversation_id');
    const byUser = await other.json('/v1/chat/history?user_id=ann');
    assert.equal(byUser.res.status, 200);
    assert.deepEqual(byUser.body.data.items, []);
    const byBot = await other.json(`/v1/chat/history?user_id=ann&bot_id=${botA}`);
    assert.equal(byBot.res.status, 404);
    assert.equal(byBot.body.error.param, 'bot_id');
  });
});
