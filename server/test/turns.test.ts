// One turn pipeline: the bot endpoint is a thin adapter over the pipeline /v1/chat uses, so one bot
// answers alike on both (intents → knowledge within its scope → fallback), its website-origin rule
// holds on both, and the bot endpoint streams the same Server-Sent Events as /v1/chat.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clientFor, shopTraining, startTestService, type TestClient } from './support/core.ts';
import { parseSseBody } from './support/sse.ts';

let api: TestClient;

before(async () => {
  api = await startTestService();
});
after(() => api.service.close());

async function created(path: string, body: Record<string, unknown>, client = api) {
  const { res, body: envelope } = await client.json(path, { method: 'POST', body });
  assert.equal(res.status, 201, JSON.stringify(envelope));
  return envelope.data;
}

const botMessage = (botId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  api.json(`/v1/bots/${botId}/messages`, { method: 'POST', body, headers });
const chat = (body: Record<string, unknown>, headers: Record<string, string> = {}) => api.json('/v1/chat', { method: 'POST', body, headers });

describe('one bot answers alike on both endpoints', () => {
  let bot: { id: string };

  before(async () => {
    await created('/v1/knowledge', {
      title: 'Lunar shipping',
      content: 'Parcels to the lunar base leave every Thursday from the Houston depot. Lunar shipping costs 40 credits per kilogram.',
      tags: ['faq'],
    });
    await created('/v1/knowledge', { title: 'Staff only', content: 'The vault combination on the lunar base is 8812.', tags: ['internal'] });
    bot = await created('/v1/bots', { name: 'Shop', training: shopTraining, quick_replies: ['Pricing'], knowledge: { tags: ['faq'] } });
  });

  it('answers from the knowledge in its scope on the bot endpoint, as /v1/chat does', async () => {
    const question = 'When do parcels leave for the lunar base?';
    const viaChat = (await chat({ messages: [{ role: 'user', content: question }], bot_id: bot.id })).body.data;
    const { res, body } = await botMessage(bot.id, { message: question, user_id: 'ann' });
    assert.equal(res.status, 200, JSON.stringify(body));
    const viaBot = body.data;
    assert.equal(viaChat.source, 'knowledge');
    assert.equal(viaBot.message.source, 'knowledge');
    assert.equal(viaBot.fallback, false);
    assert.equal(viaBot.message.content, viaChat.message.content);
    assert.match(viaBot.message.content, /Thursday/);
    assert.deepEqual(viaBot.message.citations.map((c: { title: string }) => c.title), ['Lunar shipping']);
    assert.doesNotMatch(viaBot.message.content, /8812/); // outside the bot's scope
  });

  it('answers an intent with its entities, and a miss with the same fallback, on both endpoints', async () => {
    const viaBot = (await botMessage(bot.id, { message: 'how do I install it with reactjs', user_id: 'ann' })).body.data;
    const viaChat = (await chat({ messages: [{ role: 'user', content: 'how do I install it with reactjs' }], bot_id: bot.id })).body.data;
    assert.equal(viaBot.message.content, viaChat.message.content);
    assert.equal(viaBot.intent, 'install');
    assert.deepEqual(viaBot.entities, [{ entity: 'framework', value: 'react', text: 'reactjs' }]);

    // a bot without fallback responses of its own: the one default fallback on both endpoints
    const plain = await created('/v1/bots', {
      name: 'Plain',
      training: { intents: [{ name: 'greeting', examples: ['hello', 'hi there', 'good morning'], responses: ['Hello!'] }] },
      quick_replies: ['Pricing'],
    });
    const miss = 'what is the weather on mars';
    const botMiss = (await botMessage(plain.id, { message: miss, user_id: 'ann' })).body.data;
    const chatMiss = (await chat({ messages: [{ role: 'user', content: miss }], bot_id: plain.id })).body.data;
    assert.equal(botMiss.fallback, true);
    assert.equal(chatMiss.source, 'fallback');
    assert.equal(botMiss.message.content, chatMiss.message.content);
    assert.deepEqual(botMiss.suggestions, chatMiss.suggestions);
  });
});

describe("the bot's website-origin rule on both endpoints", () => {
  it('refuses an unlisted browser origin on /v1/chat too, also for a conversation continued without bot_id', async () => {
    const bot = await created('/v1/bots', { name: 'Site', channels: [{ type: 'website', allowed_origins: ['https://shop.example'] }] });
    const ask = { messages: [{ role: 'user', content: 'hi' }], bot_id: bot.id };
    const denied = await chat(ask, { origin: 'https://evil.example' });
    assert.equal(denied.res.status, 403);
    assert.equal(denied.body.error.code, 'origin_not_allowed');
    const allowed = await chat(ask, { origin: 'https://shop.example' });
    assert.equal(allowed.res.status, 200);
    const continued = await chat({ messages: [{ role: 'user', content: 'again' }], conversation_id: allowed.body.data.conversation_id }, { origin: 'https://evil.example' });
    assert.equal(continued.res.status, 403);
    assert.equal(continued.body.error.code, 'origin_not_allowed');
    assert.equal((await chat(ask)).res.status, 200); // server to server
  });
});

describe('POST /v1/bots/{bot_id}/messages with stream: true', () => {
  let bot: { id: string };

  before(async () => {
    bot = await created('/v1/bots', { name: 'Streamer', training: shopTraining });
  });

  it('streams meta, deltas and done with the bot reply, stores the turn once, and replays it for the same key', async () => {
    const init = { method: 'POST', body: { message: 'hello there', user_id: 'sam', stream: true }, headers: { 'idempotency-key': 'bot-stream-1' } };
    const res = await api.call(`/v1/bots/${bot.id}/messages`, init);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
    const frames = parseSseBody(await res.text());
    assert.equal(frames[0]!.event, 'meta');
    const done = frames.at(-1)!;
    assert.equal(done.event, 'done');
    const reply = done.data.data;
    assert.equal(done.data.success, true);
    assert.equal(frames[0]!.data.conversation_id, reply.conversation_id);
    const text = frames.filter((f) => f.event === 'delta').map((f) => f.data.text).join('');
    assert.equal(text, reply.message.content);
    assert.equal(reply.intent, 'greeting');
    assert.equal(reply.fallback, false);
    assert.equal(reply.user_message.content, 'hello there');
    assert.deepEqual(reply.entities, []);

    // as on /v1/chat, the middleware answers a retry with the recorded envelope, as JSON
    const retry = await api.call(`/v1/bots/${bot.id}/messages`, init);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(await retry.json(), done.data);
    const history = (await api.json(`/v1/chat/history?conversation_id=${reply.conversation_id}`)).body.data;
    assert.equal(history.items.length, 2);
  });

  it('answers a request error as JSON before any stream starts', async () => {
    const { res, body } = await botMessage('bot_missing123456', { message: 'hi', user_id: 'sam', stream: true });
    assert.equal(res.status, 404);
    assert.equal(body.error.code, 'resource_not_found');
    const wrongType = await botMessage(bot.id, { message: 'hi', user_id: 'sam', stream: 'yes' });
    assert.equal(wrongType.res.status, 400);
    assert.equal(wrongType.body.error.param, 'stream');
  });

  it("another account's bot is not found", async () => {
    const other = clientFor(api.service, (await api.service.createAccount()).apiKey);
    const { res } = await other.json(`/v1/bots/${bot.id}/messages`, { method: 'POST', body: { message: 'hi', user_id: 'x', stream: true } });
    assert.equal(res.status, 404);
  });
});
