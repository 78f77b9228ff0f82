// Replies on the platforms in each one's markup (channels/format.ts through the outbox): Telegram
// gets HTML with parse_mode, WhatsApp its own markup; a long reply goes as ordered pieces within the
// limit with the buttons on the last, before the chat's next reply; citations are links; a markup
// Telegram refuses goes once more as plain text; a button press is answered (answerCallbackQuery).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../src/index.ts';
import type { OutboxMessage } from '../src/channels/outbox.ts';
import { channelOptions, connectTelegram, connectWhatsApp, deliverTelegram, deliverWhatsApp, telegramUpdate, TestClock, whatsappDelivery } from './support/channels.ts';
import { clientFor } from './support/core.ts';
import type { FakeRequest } from './support/fake-platform.ts';
import { FakeTelegram, startFakeTelegram } from './support/fake-telegram.ts';
import { startFakeWhatsApp, type FakeWhatsApp } from './support/fake-whatsapp.ts';
import { createTestService } from './support/test-database.ts';

/** Bold, a link, characters HTML escapes, and a code block. */
const FORMATTED = 'Here is **bold**, a [link](https://example.com/a?b=1&c=2) and 1 < 2 & 3 > 2.\n\n```\nif (a < b && c) return;\n```';

const clock = new TestClock();
let telegram: FakeTelegram;
let whatsapp: FakeWhatsApp;
let service: Service;
let telegramId: string;
let whatsappId: string;

before(async () => {
  [telegram, whatsapp] = await Promise.all([startFakeTelegram(), startFakeWhatsApp()]);
  service = await createTestService({ channels: channelOptions({ telegram, whatsapp }, clock) });
  const api = clientFor(service, service.devApiKey!);
  const training = {
    intents: [{ name: 'formatted', examples: ['show me formatting', 'formatting please', 'show formatting'], responses: [FORMATTED], suggestions: ['More'] }],
    fallback: { threshold: 0.6, responses: ['Sorry, I did not get that.'] },
  };
  const bot = await api.json('/v1/bots', { method: 'POST', body: { name: 'Formats', training } });
  assert.equal(bot.res.status, 201, JSON.stringify(bot.body));
  telegramId = await connectTelegram(api, bot.body.data.id);
  whatsappId = await connectWhatsApp(api, bot.body.data.id);
});
after(async () => {
  await service?.close();
  await Promise.all([telegram?.close(), whatsapp?.close()]);
});

const sentTo = (chat: number | string) => telegram.sent().filter((request) => String(request.body.chat_id) === String(chat));
const secret = () => telegram.webhook!.secret_token;
const whatsappText = (request: FakeRequest) => request.body.text?.body ?? request.body.interactive?.body?.text;

/** Queues a reply as the inbound queue and the inbox do, then lets the worker send it. */
async function reply(chat: string, message: Partial<OutboxMessage> & Pick<OutboxMessage, 'id' | 'content'>): Promise<void> {
  const { outbox, store } = service.deps.channels;
  await outbox.enqueue(store.db, { channelId: telegramId, type: 'telegram', chat, message: { suggestions: [], citations: [], ...message } });
  await service.deps.channels.drain();
}

async function outboxRows(chat: string) {
  return service.deps.channels.store.db.selectFrom('channel_outbox').select(['message_id', 'status']).where('chat', '=', chat).orderBy('id').execute();
}

describe('markup', () => {
  it('reaches Telegram as HTML with parse_mode HTML, escapes included', async () => {
    await deliverTelegram(service, telegramId, telegramUpdate(1, 301, 'show me formatting'), secret());
    await service.deps.channels.drain();
    const [sent, ...more] = sentTo(301);
    assert.equal(more.length, 0);
    assert.equal(sent!.body.parse_mode, 'HTML');
    assert.equal(
      sent!.body.text,
      'Here is <b>bold</b>, a <a href="https://example.com/a?b=1&amp;c=2">link</a> and 1 &lt; 2 &amp; 3 &gt; 2.\n\n<pre>if (a &lt; b &amp;&amp; c) return;</pre>',
    );
    assert.deepEqual(sent!.body.reply_markup, { inline_keyboard: [[{ text: 'More', callback_data: 'More' }]] });
  });

  it('reaches WhatsApp in its own markup, sent as written', async () => {
    await deliverWhatsApp(service, whatsappId, whatsappDelivery('wamid.F1', '4917600001', 'show me formatting'));
    await service.deps.channels.drain();
    const sent = whatsapp.sent().filter((request) => request.body.to === '4917600001');
    assert.equal(sent.length, 1);
    assert.equal(whatsappText(sent[0]!), 'Here is *bold*, a link (https://example.com/a?b=1&c=2) and 1 < 2 & 3 > 2.\n\n```if (a < b && c) return;```');
  });

  it('citations become links below the reply', async () => {
    const citations = [{ entry_id: 'kb_1', title: 'Install & setup', snippet: '…', score: 0.9, url: 'https://docs.example.com/install?a=1&b=2' }];
    await reply('302', { id: 'msg_cited', content: 'Run the installer.', citations });
    assert.equal(sentTo(302)[0]!.body.text, 'Run the installer.\n\n<b>Sources</b>\n1. <a href="https://docs.example.com/install?a=1&amp;b=2">Install &amp; setup</a>');
  });
});

describe('long replies', () => {
  it('a 10,000-character reply arrives as 3 ordered pieces within the limit, buttons on the last, before the chat\'s next reply', async () => {
    const paragraphs = Array.from({ length: 40 }, (_, i) => `Paragraph ${String(i).padStart(2, '0')}: ${'lorem ipsum dolor sit amet '.repeat(9).trim()}.`);
    const content = paragraphs.join('\n\n').slice(0, 10_000);
    assert.equal(content.length, 10_000);
    const { outbox, store } = service.deps.channels;
    await outbox.enqueue(store.db, { channelId: telegramId, type: 'telegram', chat: '303', message: { id: 'msg_long', content, suggestions: ['Again'], citations: [] } });
    await outbox.enqueue(store.db, { channelId: telegramId, type: 'telegram', chat: '303', message: { id: 'msg_next', content: 'And the next one.', suggestions: [], citations: [] } });
    await service.deps.channels.drain();
    const sent = sentTo(303);
    assert.equal(sent.length, 4);
    const pieces = sent.slice(0, 3).map((request) => request.body.text as string);
    for (const piece of pieces) assert.ok(piece.length <= 4096, `a piece of ${piece.length} characters`);
    assert.equal(pieces.join('\n\n'), content);
    assert.deepEqual(sent.map((request) => request.body.reply_markup), [undefined, undefined, { inline_keyboard: [[{ text: 'Again', callback_data: 'Again' }]] }, undefined]);
    assert.equal(sent[3]!.body.text, 'And the next one.');
    assert.deepEqual(await outboxRows('303'), [
      { message_id: 'msg_long#0', status: 'sent' },
      { message_id: 'msg_long#1', status: 'sent' },
      { message_id: 'msg_long#2', status: 'sent' },
      { message_id: 'msg_next#0', status: 'sent' },
    ]);
  });
});

describe('markup Telegram refuses', () => {
  it('goes once more as plain text, without parse_mode', async () => {
    telegram.failNext(FakeTelegram.cannotParse());
    await reply('304', { id: 'msg_refused', content: 'A **bold** [link](https://ex.com/?a=1&b=2) & <tag>' });
    const sent = sentTo(304);
    assert.equal(sent.length, 2);
    assert.equal(sent[0]!.body.parse_mode, 'HTML');
    assert.equal(sent[1]!.body.parse_mode, undefined);
    assert.equal(sent[1]!.body.text, 'A bold link (https://ex.com/?a=1&b=2) & <tag>');
    assert.deepEqual(await outboxRows('304'), [{ message_id: 'msg_refused#0', status: 'sent' }]);
  });

  it('falls back only once: refused again, the piece is given up', async () => {
    telegram.failNext(FakeTelegram.cannotParse(), FakeTelegram.cannotParse());
    await reply('305', { id: 'msg_refused_twice', content: '**bold**' });
    clock.advance(60 * 60_000);
    await service.deps.channels.drain();
    assert.equal(sentTo(305).length, 2);
    assert.deepEqual(await outboxRows('305'), [{ message_id: 'msg_refused_twice#0', status: 'failed' }]);
  });
});

describe('button presses', () => {
  it('are answered with answerCallbackQuery (the spinner stops), once per press', async () => {
    const press = { update_id: 9001, callback_query: { id: 'cbq-4711', from: { id: 306, first_name: 'Ada' }, message: { message_id: 1, chat: { id: 306, type: 'private' } }, data: 'More' } };
    assert.equal((await deliverTelegram(service, telegramId, press, secret())).status, 200);
    await service.deps.channels.drain();
    assert.equal((await deliverTelegram(service, telegramId, press, secret())).status, 200); // replayed: stored once
    await service.deps.channels.drain();
    const answers = telegram.calls('/answerCallbackQuery');
    assert.deepEqual(answers.map((request) => request.body), [{ callback_query_id: 'cbq-4711' }]);
    assert.equal(sentTo(306).length, 1); // and the press is answered as the next message
  });
});
