// Channels on the real service against fake platforms: a Telegram and a WhatsApp
// customer get the bot's answer; deliveries with a bad signature are refused and never stored; a
// delivery replayed four times is one turn and one reply; a 429 is retried after the platform's
// retry_after on an injected clock; an operator's reply from the inbox reaches the platform; no
// credential is ever in an answer or stored in the clear.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../src/index.ts';
import { channelOptions, connectTelegram, connectWhatsApp, countRows, deliverTelegram, deliverWhatsApp, telegramUpdate, TestClock, whatsappDelivery } from './support/channels.ts';
import { FAKE_TELEGRAM_TOKEN, FakeTelegram, startFakeTelegram } from './support/fake-telegram.ts';
import { FAKE_WHATSAPP, FakeWhatsApp, startFakeWhatsApp } from './support/fake-whatsapp.ts';
import { openStream, handoffSetup, type LiveStream } from './support/handoff.ts';
import type { DashboardClient } from './support/dashboard.ts';
import type { TestClient } from './support/core.ts';
import { createTestService } from './support/test-database.ts';

const clock = new TestClock();
let telegram: FakeTelegram;
let whatsapp: FakeWhatsApp;
let service: Service;
let api: TestClient;
let operator: DashboardClient;
let inbox: LiveStream;
let botId: string;
let telegramId: string;
let whatsappId: string;

before(async () => {
  [telegram, whatsapp] = await Promise.all([startFakeTelegram(), startFakeWhatsApp()]);
  service = await createTestService({ channels: channelOptions({ telegram, whatsapp }, clock) });
  ({ api, operator, botId } = await handoffSetup(service, { intents: ['order.status'] }));
  inbox = await openStream(service.fetch, 'http://127.0.0.1/dashboard/api/inbox/events', { cookie: `aicw_session=${operator.cookie}` }); // an operator is online
  telegramId = await connectTelegram(api, botId);
  whatsappId = await connectWhatsApp(api, botId);
});
after(async () => {
  inbox?.close();
  await service?.close();
  await Promise.all([telegram?.close(), whatsapp?.close()]);
});

const sentTo = (chat: number | string) => telegram.sent().filter((request) => String(request.body.chat_id) === String(chat));
const secret = () => telegram.webhook!.secret_token;

describe('connecting', () => {
  it('registers the Telegram webhook with a secret token, at the channel\'s URL', () => {
    assert.equal(telegram.webhook?.url, `http://127.0.0.1/v1/channels/telegram/${telegramId}`);
    assert.match(secret(), /^[A-Za-z0-9_-]{32,256}$/);
  });

  it('never answers a credential: only which are set', async () => {
    const credentials = [FAKE_TELEGRAM_TOKEN, secret(), FAKE_WHATSAPP.accessToken, FAKE_WHATSAPP.appSecret, FAKE_WHATSAPP.verifyToken];
    const answers = [
      await api.json(`/v1/bots/${botId}/channels/telegram`),
      await api.json(`/v1/bots/${botId}/channels/whatsapp`),
      await api.json(`/v1/bots/${botId}/channels/whatsapp`, { method: 'PUT', body: { verify_token: FAKE_WHATSAPP.verifyToken } }),
      await operator.call('GET', `/dashboard/api/v1/bots/${botId}/channels/telegram`).then((res) => ({ res: { status: res.status }, body: res.body })),
    ];
    for (const { res, body } of answers) {
      assert.equal(res.status, 200, JSON.stringify(body));
      const text = JSON.stringify(body);
      for (const credential of credentials) assert.ok(!text.includes(credential), `a credential in ${text}`);
    }
    assert.deepEqual(answers[0]!.body.data.secrets_set, { bot_token: true });
    assert.deepEqual(answers[1]!.body.data.secrets_set, { access_token: true, app_secret: true, verify_token: true });
    assert.deepEqual(answers[1]!.body.data.settings, { phone_number_id: FAKE_WHATSAPP.phoneNumberId });
    // at rest: sealed, not one credential readable in the row
    const rows = await service.deps.channels.store.db.selectFrom('channels').select(['secrets', 'settings']).execute();
    const stored = JSON.stringify(rows);
    for (const credential of credentials) assert.ok(!stored.includes(credential), 'a credential stored in the clear');
  });

  it('refuses a new WhatsApp channel without all its credentials', async () => {
    const other = await api.json('/v1/bots', { method: 'POST', body: { name: 'Other' } });
    const { res, body } = await api.json(`/v1/bots/${other.body.data.id}/channels/whatsapp`, { method: 'PUT', body: { phone_number_id: '1' } });
    assert.equal(res.status, 400);
    assert.equal(body.error.code, 'validation_failed');
  });
});

describe('a customer asks', () => {
  it('on Telegram: the answer reaches Telegram, quick replies as an inline keyboard', async () => {
    const res = await deliverTelegram(service, telegramId, telegramUpdate(1001, 501, 'hello'), secret());
    assert.equal(res.status, 200);
    assert.deepEqual((await res.json()).data, { received: 1 });
    await service.deps.channels.drain();
    const [sent, ...more] = sentTo(501);
    assert.equal(more.length, 0);
    assert.equal(sent!.body.text, 'Hello! How can I help?');
    assert.deepEqual(sent!.body.reply_markup, { inline_keyboard: [[{ text: 'Pricing', callback_data: 'Pricing' }], [{ text: 'Install', callback_data: 'Install' }]] });
    // the turn is the bot's, in the chat user's conversation, as on the widget
    const history = await api.json(`/v1/chat/history?user_id=telegram:501&bot_id=${botId}`);
    assert.deepEqual(history.body.data.items.map((m: { role: string; content: string }) => [m.role, m.content]), [['user', 'hello'], ['assistant', 'Hello! How can I help?']]);
  });

  it('on Telegram, pressing a quick reply button is the next message', async () => {
    const press = { update_id: 1002, callback_query: { id: 'cb1', from: { id: 501, first_name: 'Ada' }, message: { message_id: 1, chat: { id: 501, type: 'private' } }, data: 'Pricing' } };
    assert.equal((await deliverTelegram(service, telegramId, press, secret())).status, 200);
    await service.deps.channels.drain();
    assert.equal(sentTo(501).at(-1)!.body.text, 'It is free and open source.');
  });

  it('on WhatsApp: the answer reaches the Graph API; its statuses are recorded', async () => {
    const res = await deliverWhatsApp(service, whatsappId, whatsappDelivery('wamid.IN1', '4915112345678', 'how much does it cost'));
    assert.equal(res.status, 200, await res.clone().text());
    await service.deps.channels.drain();
    const sent = whatsapp.sent().filter((request) => request.body.to === '4915112345678');
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.headers.authorization, `Bearer ${FAKE_WHATSAPP.accessToken}`);
    assert.deepEqual(sent[0]!.body, { messaging_product: 'whatsapp', recipient_type: 'individual', to: '4915112345678', type: 'text', text: { body: 'It is free and open source.', preview_url: false } });
    const status = { object: 'whatsapp_business_account', entry: [{ id: '1', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', statuses: [{ id: 'wamid.FAKE1', status: 'read', recipient_id: '4915112345678', timestamp: '1700000001' }] } }] }] };
    assert.equal((await deliverWhatsApp(service, whatsappId, status)).status, 200);
    const row = await service.deps.channels.store.db.selectFrom('channel_outbox').select('delivery_status').where('external_id', '=', 'wamid.FAKE1').executeTakeFirstOrThrow();
    assert.equal(row.delivery_status, 'read');
  });

  it('WhatsApp\'s verification handshake echoes the challenge only for the verify token', async () => {
    const url = (token: string, mode = 'subscribe') => `http://127.0.0.1/v1/channels/whatsapp/${whatsappId}?hub.mode=${mode}&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=1158201444`;
    const good = await service.fetch(new Request(url(FAKE_WHATSAPP.verifyToken)));
    assert.equal(good.status, 200);
    assert.equal(await good.text(), '1158201444');
    for (const bad of [url('not-it'), url(FAKE_WHATSAPP.verifyToken, 'unsubscribe')]) {
      const res = await service.fetch(new Request(bad));
      assert.equal(res.status, 403);
      assert.equal((await res.json()).error.code, 'permission_denied');
    }
  });
});

describe('deliveries that are not the platform\'s', () => {
  it('a bad signature or secret token answers 401 and stores nothing', async () => {
    const inbound = { telegram: await countRows(service, 'channel_inbound', telegramId), whatsapp: await countRows(service, 'channel_inbound', whatsappId) };
    const update = telegramUpdate(2001, 777, 'hello');
    for (const res of [
      await deliverTelegram(service, telegramId, update, 'wrong-secret'),
      await deliverTelegram(service, telegramId, update, null),
      await deliverTelegram(service, telegramId, update, `${secret()}x`),
      await deliverWhatsApp(service, whatsappId, whatsappDelivery('wamid.BAD', '491', 'hello'), 'another-app-secret'),
      await service.fetch(new Request(`http://127.0.0.1/v1/channels/whatsapp/${whatsappId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })),
    ]) {
      assert.equal(res.status, 401);
      assert.equal((await res.json()).error.code, 'invalid_signature');
    }
    assert.equal(await countRows(service, 'channel_inbound', telegramId), inbound.telegram);
    assert.equal(await countRows(service, 'channel_inbound', whatsappId), inbound.whatsapp);
    const unknown = await deliverTelegram(service, 'chn_doesnotexist1234', update, secret());
    assert.equal(unknown.status, 404);
  });
});

describe('replays', () => {
  it('a delivery replayed four times is one turn and one reply', async () => {
    const update = telegramUpdate(3001, 601, 'hello');
    const answers = await Promise.all([1, 2, 3, 4].map(() => deliverTelegram(service, telegramId, update, secret())));
    const received = await Promise.all(answers.map(async (res) => (assert.equal(res.status, 200), (await res.json()).data.received as number)));
    assert.equal(received.reduce((a, b) => a + b), 1);
    await service.deps.channels.drain();
    assert.equal((await deliverTelegram(service, telegramId, update, secret())).status, 200); // once more, after it was answered
    await service.deps.channels.drain();
    assert.equal(sentTo(601).length, 1);
    const history = await api.json(`/v1/chat/history?user_id=telegram:601&bot_id=${botId}`);
    assert.equal(history.body.data.items.length, 2);
  });
});

describe('rate limits', () => {
  it('a 429 is retried after retry_after, and the reply goes once', async () => {
    telegram.failNext(FakeTelegram.tooManyRequests(7));
    await deliverTelegram(service, telegramId, telegramUpdate(4001, 701, 'hello'), secret());
    await service.deps.channels.drain();
    assert.equal(sentTo(701).length, 1); // the refused try
    clock.advance(6_999);
    await service.deps.channels.drain();
    assert.equal(sentTo(701).length, 1, 'not before retry_after');
    clock.advance(1);
    await service.deps.channels.drain();
    assert.equal(sentTo(701).length, 2);
    const rows = await service.deps.channels.store.db.selectFrom('channel_outbox').select(['status', 'attempts']).where('chat', '=', '701').execute();
    assert.deepEqual(rows, [{ status: 'sent', attempts: 2 }]);
  });

  it('WhatsApp\'s Retry-After is honoured the same way', async () => {
    whatsapp.failNext(FakeWhatsApp.tooManyRequests(3));
    await deliverWhatsApp(service, whatsappId, whatsappDelivery('wamid.IN2', '4930111', 'hello'));
    await service.deps.channels.drain();
    clock.advance(2_999);
    await service.deps.channels.drain();
    assert.equal(whatsapp.sent().filter((r) => r.body.to === '4930111').length, 1);
    clock.advance(1);
    await service.deps.channels.drain();
    assert.equal(whatsapp.sent().filter((r) => r.body.to === '4930111').length, 2);
  });
});

describe('handoff', () => {
  it('an operator\'s reply from the inbox reaches the customer on Telegram; the bot stays quiet meanwhile', async () => {
    await deliverTelegram(service, telegramId, telegramUpdate(5001, 801, 'where is my order'), secret());
    await service.deps.channels.drain();
    assert.equal(sentTo(801).length, 1); // the bot's answer, then the conversation waits for a person
    const history = await api.json(`/v1/chat/history?user_id=telegram:801&bot_id=${botId}`);
    const conversationId = history.body.data.items[0].conversation_id as string;
    assert.equal((await operator.call('POST', `/dashboard/api/inbox/${conversationId}/take`)).status, 200);
    const reply = await operator.call('POST', `/dashboard/api/inbox/${conversationId}/messages`, { body: { content: 'Your order ships today.' } });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    await service.deps.channels.drain();
    assert.equal(sentTo(801).at(-1)!.body.text, 'Your order ships today.');
    // the customer answers: held for the operator, no bot reply
    await deliverTelegram(service, telegramId, telegramUpdate(5002, 801, 'thanks!'), secret());
    await service.deps.channels.drain();
    assert.equal(sentTo(801).length, 2);
    const after = await api.json(`/v1/chat/history?conversation_id=${conversationId}`);
    assert.deepEqual(after.body.data.items.at(-1).content, 'thanks!');
  });

  it('an operator\'s reply in a widget conversation goes to no platform', async () => {
    const before = telegram.sent().length + whatsapp.sent().length;
    const started = await api.json(`/v1/bots/${botId}/messages`, { method: 'POST', body: { message: 'where is my order', user_id: 'web-visitor' } });
    const conversationId = started.body.data.conversation_id as string;
    await operator.call('POST', `/dashboard/api/inbox/${conversationId}/take`);
    await operator.call('POST', `/dashboard/api/inbox/${conversationId}/messages`, { body: { content: 'Hi from the web.' } });
    await service.deps.channels.drain();
    assert.equal(telegram.sent().length + whatsapp.sent().length, before);
  });
});

describe('without AI_CHAT_SECRETS_KEY', () => {
  it('refuses to store credentials: 503 secrets_key_missing, and nothing is sent to the platform', async () => {
    const bare = await createTestService({ channels: channelOptions({ telegram }, clock, null) });
    try {
      const key = (await bare.createAccount()).apiKey;
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const bot = await (await bare.fetch(new Request('http://127.0.0.1/v1/bots', { method: 'POST', headers, body: JSON.stringify({ name: 'B' }) }))).json();
      const calls = telegram.requests.length;
      const res = await bare.fetch(new Request(`http://127.0.0.1/v1/bots/${bot.data.id}/channels/telegram`, { method: 'PUT', headers, body: JSON.stringify({ bot_token: FAKE_TELEGRAM_TOKEN }) }));
      assert.equal(res.status, 503);
      assert.equal((await res.json()).error.code, 'secrets_key_missing');
      assert.equal(telegram.requests.length, calls);
    } finally {
      await bare.close();
    }
  });
});
