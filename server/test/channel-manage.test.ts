// What the dashboard's Channels page runs against the real service and the fake platforms: the
// bot's channels at once with their health (replies not sent yet counted), a test message through
// the outbox to the last person who wrote or a given chat, its refusal shown as the platform's
// reason, and Telegram's webhook removed and registered again.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../src/index.ts';
import { channelOptions, connectTelegram, connectWhatsApp, countRows, deliverTelegram, SECRETS_KEY, telegramUpdate, TestClock } from './support/channels.ts';
import { clientFor, shopTraining, type TestClient } from './support/core.ts';
import { FAKE_TELEGRAM_TOKEN, FakeTelegram, startFakeTelegram } from './support/fake-telegram.ts';
import { startFakeWhatsApp, type FakeWhatsApp } from './support/fake-whatsapp.ts';
import { createTestService } from './support/test-database.ts';

const clock = new TestClock();
let telegram: FakeTelegram;
let whatsapp: FakeWhatsApp;
let service: Service;
let api: TestClient;
let botId: string;
let telegramId: string;

before(async () => {
  [telegram, whatsapp] = await Promise.all([startFakeTelegram(), startFakeWhatsApp()]);
  service = await createTestService({ channels: channelOptions({ telegram, whatsapp }, clock) });
  api = clientFor(service, (await service.createAccount({})).apiKey);
  const bot = await api.json('/v1/bots', { method: 'POST', body: { name: 'Shop', training: shopTraining } });
  assert.equal(bot.res.status, 201, JSON.stringify(bot.body));
  botId = bot.body.data.id;
  telegramId = await connectTelegram(api, botId);
});
after(async () => {
  await service?.close();
  await Promise.all([telegram?.close(), whatsapp?.close()]);
});

const path = (rest = '') => `/v1/bots/${botId}/channels${rest}`;
const sendTest = (type: string, body?: object) => api.json(path(`/${type}/test`), { method: 'POST', ...(body && { body }) });
const pendingOf = async (type: string) => (await api.json(path(`/${type}`))).body.data.health.pending_replies as number;

describe('the bot\'s channels', () => {
  it('lists them with their health, and the platforms the service speaks', async () => {
    const whatsappId = await connectWhatsApp(api, botId);
    const { res, body } = await api.json(path());
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.deepEqual(body.data.items.map((c: { id: string; type: string }) => [c.type, c.id]), [['telegram', telegramId], ['whatsapp', whatsappId]]);
    assert.ok(['telegram', 'whatsapp'].every((type) => body.data.platforms.includes(type)), JSON.stringify(body.data.platforms));
    assert.deepEqual(body.data.items[0].health, { last_received_at: null, last_sent_at: null, last_error: null, last_error_at: null, pending_replies: 0 });
    assert.equal((await api.json(path('/whatsapp'), { method: 'DELETE' })).res.status, 200);
  });

  it('of another account\'s bot: 404', async () => {
    const other = clientFor(service, (await service.createAccount({})).apiKey);
    const { res, body } = await other.json(path());
    assert.equal(res.status, 404);
    assert.equal(body.error.code, 'resource_not_found');
  });
});

describe('a test message', () => {
  it('needs a chat while nobody has written', async () => {
    const { res, body } = await sendTest('telegram');
    assert.equal(res.status, 400);
    assert.equal(body.error.code, 'validation_failed');
    assert.equal(body.error.param, 'chat');
  });

  it('goes through the outbox to the chat given: counted as pending until Telegram answers, then sent', async () => {
    const held = telegram.holdNext();
    const before = telegram.requests.length;
    const queued = await sendTest('telegram', { chat: '4242', text: 'Hello from the **dashboard**' });
    assert.equal(queued.res.status, 202, JSON.stringify(queued.body));
    assert.match(queued.body.data.id, /^msg_/);
    assert.equal(queued.body.data.chat, '4242');
    assert.ok(['pending', 'sending'].includes(queued.body.data.status), queued.body.data.status); // the worker was woken at once
    await telegram.next('/sendMessage', before);
    assert.equal(await pendingOf('telegram'), 1);
    assert.equal((await api.json(path(`/telegram/test/${queued.body.data.id}`))).body.data.status, 'sending');

    held.release();
    await service.deps.channels.drain();
    const { body } = await api.json(path(`/telegram/test/${queued.body.data.id}`));
    assert.equal(body.data.status, 'sent');
    assert.equal(body.data.error, null);
    assert.ok(body.data.sent_at);
    const sent = telegram.sent().filter((request) => String(request.body.chat_id) === '4242');
    assert.deepEqual(sent.map((request) => [request.body.text, request.body.parse_mode]), [['Hello from the <b>dashboard</b>', 'HTML']]);
    assert.equal(await pendingOf('telegram'), 0);
    assert.ok((await api.json(path('/telegram'))).body.data.health.last_sent_at);
  });

  it('goes to whoever wrote last when no chat is given', async () => {
    const update = await deliverTelegram(service, telegramId, telegramUpdate(9001, 5150, 'hello'), telegram.webhook!.secret_token);
    assert.equal(update.status, 200);
    await service.deps.channels.drain();
    const queued = await sendTest('telegram');
    assert.equal(queued.res.status, 202, JSON.stringify(queued.body));
    assert.equal(queued.body.data.chat, '5150');
    await service.deps.channels.drain();
    assert.match(telegram.sent().at(-1)!.body.text, /^A test message from Shop/);
    assert.equal(String(telegram.sent().at(-1)!.body.chat_id), '5150');
  });

  it('refused by the platform: failed, with the platform\'s reason, in the channel\'s health too', async () => {
    telegram.failNext({ status: 400, body: { ok: false, error_code: 400, description: 'Bad Request: chat not found' } });
    const queued = await sendTest('telegram', { chat: '999' });
    await service.deps.channels.drain();
    const { body } = await api.json(path(`/telegram/test/${queued.body.data.id}`));
    assert.equal(body.data.status, 'failed');
    assert.equal(body.data.error, 'Bad Request: chat not found');
    const health = (await api.json(path('/telegram'))).body.data.health;
    assert.match(health.last_error, /chat not found/);
    assert.ok(health.last_error_at);
  });

  it('bad input and unknown ids are refused in the envelope', async () => {
    const long = await sendTest('telegram', { chat: '1', text: 'x'.repeat(1001) });
    assert.equal(long.res.status, 400);
    assert.equal(long.body.error.code, 'validation_failed');
    const badChat = await sendTest('telegram', { chat: 'no spaces <here>' });
    assert.equal(badChat.res.status, 400);
    const unknown = await api.json(path('/telegram/test/msg_doesnotexist123456'));
    assert.equal(unknown.res.status, 404);
    assert.equal(unknown.body.error.code, 'resource_not_found');
    const noChannel = await sendTest('whatsapp', { chat: '1' });
    assert.equal(noChannel.res.status, 404);
  });
});

describe('Telegram\'s webhook', () => {
  it('is removed at Telegram and registered again with the same secret token', async () => {
    const registered = telegram.webhook!;
    const removed = await api.json(path('/telegram/webhook'), { method: 'DELETE' });
    assert.equal(removed.res.status, 200, JSON.stringify(removed.body));
    assert.equal(removed.body.data.id, telegramId);
    assert.equal(telegram.webhook, null);

    const again = await api.json(path('/telegram/webhook'), { method: 'POST' });
    assert.equal(again.res.status, 200, JSON.stringify(again.body));
    assert.deepEqual(telegram.webhook, registered);
    assert.equal((await deliverTelegram(service, telegramId, telegramUpdate(9101, 6161, 'hi'), registered.secret_token)).status, 200);
  });

  it('refused by Telegram: 502 upstream_error with Telegram\'s reason', async () => {
    telegram.failNext({ status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } });
    const { res, body } = await api.json(path('/telegram/webhook'), { method: 'POST' });
    assert.equal(res.status, 502);
    assert.equal(body.error.code, 'upstream_error');
    assert.match(body.error.message, /Unauthorized/);
  });
});

describe('deliveries under traffic', () => {
  const health = async () => (await api.json(path('/telegram'))).body.data.health as { last_received_at: string };

  it('keeps the last delivery to the second: deliveries within one leave the row alone', async () => {
    const secret = telegram.webhook!.secret_token;
    clock.advance(5_000);
    assert.equal((await deliverTelegram(service, telegramId, telegramUpdate(9201, 7171, 'hi'), secret)).status, 200);
    const first = (await health()).last_received_at;
    assert.equal(first, new Date(clock.ms).toISOString());
    clock.advance(400);
    assert.equal((await deliverTelegram(service, telegramId, telegramUpdate(9202, 7171, 'hi'), secret)).status, 200);
    assert.equal((await health()).last_received_at, first);
    clock.advance(1_000);
    assert.equal((await deliverTelegram(service, telegramId, telegramUpdate(9203, 7171, 'hi'), secret)).status, 200);
    assert.equal((await health()).last_received_at, new Date(clock.ms).toISOString());
    await service.deps.channels.drain();
  });

  it('answers at most `concurrency` chats at once (AI_CHAT_CHANNEL_CONCURRENCY, default 4)', async () => {
    const { channelOptionsFromEnv, resolveChannelConfig } = await import('../src/channels/options.ts');
    assert.equal(resolveChannelConfig({}).concurrency, 4);
    assert.equal(resolveChannelConfig(channelOptionsFromEnv({ AI_CHAT_CHANNEL_CONCURRENCY: '16' })).concurrency, 16);
    assert.equal(resolveChannelConfig(channelOptionsFromEnv({ AI_CHAT_CHANNEL_CONCURRENCY: '0' })).concurrency, 4);
    // Stored as the webhook stores them, without its wake-up: this test is the worker.
    const events = Array.from({ length: 6 }, (_, chat) => ({ externalMessageId: String(9300 + chat), externalConversationId: String(8000 + chat), user: { id: String(8000 + chat) }, text: 'hello', files: [] }));
    assert.equal(await service.deps.channels.inbound.record({ id: telegramId }, events), 6);
    assert.equal(await service.deps.channels.inbound.runOnce(), 4);
    assert.equal(await service.deps.channels.inbound.runOnce(), 2);
  });

  it('a channel removed by another instance answers 404, though this one had read it', async () => {
    const other = await api.json('/v1/bots', { method: 'POST', body: { name: 'Other shop', training: shopTraining } });
    const otherBot = other.body.data.id as string;
    const channelId = await connectTelegram(api, otherBot);
    const secret = telegram.webhook!.secret_token;
    assert.equal((await deliverTelegram(service, channelId, telegramUpdate(9401, 9400, 'hello'), secret)).status, 200);
    // As another instance removes it: not through this instance's store.
    await service.deps.db.deleteFrom('channels' as never).where('id' as never, '=', channelId as never).execute();
    const res = await deliverTelegram(service, channelId, telegramUpdate(9402, 9400, 'hello'), secret);
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'resource_not_found');
    assert.equal(await countRows(service, 'channel_inbound', channelId), 0);
  });

  it('credentials changed by another instance: the new secret is taken at once, the old one refused', async () => {
    const other = await api.json('/v1/bots', { method: 'POST', body: { name: 'Third shop', training: shopTraining } });
    const channelId = await connectTelegram(api, other.body.data.id);
    const old = telegram.webhook!.secret_token;
    assert.equal((await deliverTelegram(service, channelId, telegramUpdate(9501, 9500, 'hello'), old)).status, 200);
    // As another instance saves new credentials: sealed with the same key, written to the row directly.
    const { SecretBox, parseKey } = await import('../src/db/secrets.ts');
    const box = new SecretBox(parseKey(SECRETS_KEY, 'AI_CHAT_SECRETS_KEY'));
    const renewed = 'renewed-secret-token-of-thirty-two-chars';
    const sealed = box.seal({ bot_token: FAKE_TELEGRAM_TOKEN, webhook_secret: renewed }, channelId);
    await service.deps.channels.store.db.updateTable('channels').set({ secrets: JSON.stringify(sealed) as never }).where('id', '=', channelId).execute();
    assert.equal((await deliverTelegram(service, channelId, telegramUpdate(9502, 9500, 'hello'), renewed)).status, 200);
    assert.equal((await deliverTelegram(service, channelId, telegramUpdate(9503, 9500, 'hello'), old)).status, 401);
    assert.equal(await countRows(service, 'channel_inbound', channelId), 2);
    await service.deps.channels.drain();
  });
});
