// Files a customer sends on a platform reach the conversation as attachments, as a widget upload
// does: a Telegram photo (its largest size) or document (getFile, then the file URL), WhatsApp
// media (the media id's URL, read with the bearer token), Slack files (url_private_download with
// the bot token). A file too large is refused before it is read (or while, when its size was not
// said), a type the bot refuses by its bytes; either way the message arrives with a note and the
// customer is told. A platform that failed is tried again; a refusal is not.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../src/index.ts';
import { channelOptions, connectSlack, connectTelegram, connectWhatsApp, deliverSlack, deliverTelegram, deliverWhatsApp, slackMessage, telegramUpdate, TestClock, whatsappDelivery } from './support/channels.ts';
import type { TestClient } from './support/core.ts';
import { clientFor } from './support/core.ts';
import { FakeSlack, startFakeSlack } from './support/fake-slack.ts';
import { FakeTelegram, startFakeTelegram } from './support/fake-telegram.ts';
import { FakeWhatsApp, startFakeWhatsApp } from './support/fake-whatsapp.ts';
import { startFakeOpenAi } from './support/fake-openai.ts';
import { png } from './support/files.ts';
import { createTestService } from './support/test-database.ts';

const LIMIT = 4096;
const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n');
const OGG = new Uint8Array([...Buffer.from('OggS'), 0, 2, ...new Array(40).fill(7)]);

const clock = new TestClock();
let telegram: FakeTelegram;
let whatsapp: FakeWhatsApp;
let slack: FakeSlack;
let service: Service;
let api: TestClient;
let botId: string;
let telegramId: string;
let whatsappId: string;
let slackId: string;

before(async () => {
  [telegram, whatsapp, slack] = await Promise.all([startFakeTelegram(), startFakeWhatsApp(), startFakeSlack()]);
  service = await createTestService({ channels: channelOptions({ telegram, whatsapp, slack }, clock) });
  api = clientFor(service, service.devApiKey!);
  const training = { intents: [{ name: 'hours', examples: ['opening hours', 'when are you open', 'what are your hours'], responses: ['9 to 5.'] }], fallback: { threshold: 0.6, responses: ['Thanks, we got your message.'] } };
  const bot = await api.json('/v1/bots', { method: 'POST', body: { name: 'Media', training, attachments: { enabled: true, max_file_bytes: LIMIT, types: ['image/png', 'application/pdf', 'text/plain'] } } });
  assert.equal(bot.res.status, 201, JSON.stringify(bot.body));
  botId = bot.body.data.id;
  telegramId = await connectTelegram(api, botId);
  whatsappId = await connectWhatsApp(api, botId);
  slackId = await connectSlack(api, botId);
});
after(async () => {
  await service?.close();
  await Promise.all([telegram?.close(), whatsapp?.close(), slack?.close()]);
});

const telegramTexts = (chat: number) => telegram.sent().filter((request) => String(request.body.chat_id) === String(chat)).map((request) => request.body.text as string);

/** The customer's messages as the conversation (and the inbox) has them. */
async function userMessages(userId: string): Promise<{ content: string; attachments?: { filename: string; content_type: string; size: number; width: number | null }[] }[]> {
  const history = await api.json(`/v1/chat/history?user_id=${encodeURIComponent(userId)}&bot_id=${botId}`);
  assert.equal(history.res.status, 200, JSON.stringify(history.body));
  return history.body.data.items.filter((message: { role: string }) => message.role === 'user');
}

async function inboundStatus(channelId: string) {
  return service.deps.channels.store.db.selectFrom('channel_inbound').select(['status', 'attempts']).where('channel_id', '=', channelId).orderBy('id', 'desc').executeTakeFirstOrThrow();
}

/** A Telegram update whose message carries `media` (photo sizes, a document, a voice note) and a caption. */
const telegramMedia = (updateId: number, chat: number, media: Record<string, unknown>, caption?: string) => {
  const update = telegramUpdate(updateId, chat, '') as { message: Record<string, unknown> };
  delete update.message.text;
  Object.assign(update.message, media, caption && { caption });
  return update;
};

describe('Telegram', () => {
  it('a photo arrives as an attachment of the message, its largest size, the caption as text; the bot answers', async () => {
    telegram.addFile('photo-small', png(4, 3));
    telegram.addFile('photo-large', png(40, 30), { path: 'photos/file_7.png' });
    const photo = [{ file_id: 'photo-small', file_unique_id: 's', width: 4, height: 3, file_size: 33 }, { file_id: 'photo-large', file_unique_id: 'l', width: 40, height: 30, file_size: 33 }];
    assert.equal((await deliverTelegram(service, telegramId, telegramMedia(1, 501, { photo }, 'my receipt'), telegram.webhook!.secret_token)).status, 200);
    await service.deps.channels.drain();
    assert.deepEqual(telegram.calls('/getFile').map((request) => request.body.file_id), ['photo-large']);
    assert.equal(telegram.requests.filter((request) => request.path.endsWith('/photos/file_7.png')).length, 1);
    const [message] = await userMessages('telegram:501');
    assert.equal(message!.content, 'my receipt');
    assert.deepEqual(message!.attachments?.map(({ filename, content_type, width }) => ({ filename, content_type, width })), [{ filename: 'photo.png', content_type: 'image/png', width: 40 }]);
    // the turn had the file: the built-in responder says it reads words only, as it does to the widget
    assert.deepEqual(telegramTexts(501), ["Thanks, we got your message.\n\nI can't open attached files or images, so I answered your words only. Describe what it shows and I'll try to help."]);
  });

  it('a document larger than the bot takes is never read: the message arrives with a note, the customer is told', async () => {
    telegram.addFile('big-doc', new Uint8Array(LIMIT + 1).fill(65));
    await deliverTelegram(service, telegramId, telegramMedia(2, 502, { document: { file_id: 'big-doc', file_unique_id: 'b', file_name: 'scan.pdf', file_size: LIMIT + 1 } }), telegram.webhook!.secret_token);
    await service.deps.channels.drain();
    assert.equal(telegram.calls('/getFile').filter((request) => request.body.file_id === 'big-doc').length, 0);
    const [message] = await userMessages('telegram:502');
    assert.equal(message!.content, `[The file "scan.pdf" was not accepted: The file is larger than ${LIMIT} bytes.]`);
    assert.equal(message!.attachments, undefined);
    assert.deepEqual(telegramTexts(502), [`The file "scan.pdf" was not accepted: The file is larger than ${LIMIT} bytes.`, 'Thanks, we got your message.']);
    assert.deepEqual(await inboundStatus(telegramId), { status: 'done', attempts: 1 });
  });

  it('a file whose size was not said is cut off once it passes the limit', async () => {
    telegram.addFile('unsized', new Uint8Array(64 * 1024).fill(65), { size: 10, unsized: true });
    await deliverTelegram(service, telegramId, telegramMedia(3, 503, { document: { file_id: 'unsized', file_unique_id: 'u', file_name: 'notes.txt' } }, 'see attached'), telegram.webhook!.secret_token);
    await service.deps.channels.drain();
    const [message] = await userMessages('telegram:503');
    assert.equal(message!.content, `see attached\n\n[The file "notes.txt" was not accepted: The file is larger than ${LIMIT} bytes.]`);
    assert.deepEqual(await inboundStatus(telegramId), { status: 'done', attempts: 1 });
  });

  it('a voice note is refused by its bytes (a type the bot does not take), once, with a note', async () => {
    telegram.addFile('voice-1', OGG, { path: 'voice/file_9.oga' });
    await deliverTelegram(service, telegramId, telegramMedia(4, 504, { voice: { file_id: 'voice-1', file_unique_id: 'v', duration: 2, mime_type: 'audio/ogg', file_size: OGG.length } }), telegram.webhook!.secret_token);
    await service.deps.channels.drain();
    const [message] = await userMessages('telegram:504');
    assert.match(message!.content, /^\[The file "voice\.bin" was not accepted: This file is application\/octet-stream; only images/);
    assert.equal(telegramTexts(504).length, 2);
    assert.deepEqual(await inboundStatus(telegramId), { status: 'done', attempts: 1 });
  });

  it('getFile failing with a 5xx is tried again, and then the file arrives, stored once', async () => {
    telegram.addFile('flaky', PDF, { path: 'documents/flaky.pdf' });
    telegram.failNext({ status: 502, body: { ok: false, error_code: 502, description: 'Bad Gateway' } });
    await deliverTelegram(service, telegramId, telegramMedia(5, 505, { document: { file_id: 'flaky', file_unique_id: 'f', file_name: 'invoice.pdf', file_size: PDF.length } }), telegram.webhook!.secret_token);
    await service.deps.channels.drain();
    assert.deepEqual(await inboundStatus(telegramId), { status: 'pending', attempts: 1 });
    assert.deepEqual(telegramTexts(505), []);
    clock.advance(60_000);
    await service.deps.channels.drain();
    assert.equal(telegram.calls('/getFile').filter((request) => request.body.file_id === 'flaky').length, 2);
    const [message] = await userMessages('telegram:505');
    assert.deepEqual(message!.attachments?.map((file) => [file.filename, file.content_type, file.size]), [['invoice.pdf', 'application/pdf', PDF.length]]);
    const stored = await service.deps.channels.store.db.selectFrom('attachments' as never).select('id' as never).where('user_id' as never, '=', 'telegram:505' as never).execute();
    assert.equal(stored.length, 1);
  });

  it('a file Telegram refuses (400) is not tried again: the message arrives with a note', async () => {
    await deliverTelegram(service, telegramId, telegramMedia(6, 506, { document: { file_id: 'unknown', file_unique_id: 'x', file_name: 'gone.pdf' } }, 'here'), telegram.webhook!.secret_token);
    await service.deps.channels.drain();
    const [message] = await userMessages('telegram:506');
    assert.equal(message!.content, 'here\n\n[The file "gone.pdf" was not accepted: it could not be read from the platform.]');
    assert.deepEqual(await inboundStatus(telegramId), { status: 'done', attempts: 1 });
  });

  it('a bot that takes no files says so, and reads nothing', async () => {
    assert.equal((await api.json(`/v1/bots/${botId}`, { method: 'PUT', body: { attachments: { enabled: false } } })).res.status, 200);
    try {
      telegram.addFile('unwanted', png(4, 3));
      await deliverTelegram(service, telegramId, telegramMedia(7, 507, { photo: [{ file_id: 'unwanted', file_unique_id: 'w', width: 4, height: 3 }] }), telegram.webhook!.secret_token);
      await service.deps.channels.drain();
      assert.equal(telegram.calls('/getFile').filter((request) => request.body.file_id === 'unwanted').length, 0);
      assert.deepEqual(telegramTexts(507), ['The file "photo" was not accepted: this bot does not take files.', 'Thanks, we got your message.']);
    } finally {
      await api.json(`/v1/bots/${botId}`, { method: 'PUT', body: { attachments: { enabled: true } } });
    }
  });
});

describe('WhatsApp', () => {
  it('an image and a document arrive by their media ids, read with the bearer token', async () => {
    whatsapp.addMedia('1013859600285441', png(20, 10), 'image/png');
    whatsapp.addMedia('1013859600285442', PDF, 'application/pdf');
    const image = whatsappDelivery('wamid.M1', '4917600100', '') as any; // eslint-disable-line @typescript-eslint/no-explicit-any -- reshaped below
    image.entry[0].changes[0].value.messages = [
      { from: '4917600100', id: 'wamid.M1', timestamp: '1700000000', type: 'image', image: { caption: 'the label', mime_type: 'image/png', sha256: 'x', id: '1013859600285441' } },
    ];
    const document = whatsappDelivery('wamid.M2', '4917600100', '') as any; // eslint-disable-line @typescript-eslint/no-explicit-any -- reshaped below
    document.entry[0].changes[0].value.messages = [
      { from: '4917600100', id: 'wamid.M2', timestamp: '1700000001', type: 'document', document: { filename: 'order.pdf', mime_type: 'application/pdf', sha256: 'y', id: '1013859600285442' } },
    ];
    assert.equal((await deliverWhatsApp(service, whatsappId, image)).status, 200);
    assert.equal((await deliverWhatsApp(service, whatsappId, document)).status, 200);
    await service.deps.channels.drain();
    const downloads = whatsapp.requests.filter((request) => request.path.startsWith('/media-download/'));
    assert.equal(downloads.length, 2);
    for (const request of downloads) assert.equal(request.headers.authorization, 'Bearer EAAFakeWhatsAppAccessTokenForTests');
    const messages = await userMessages('whatsapp:4917600100');
    assert.deepEqual(
      messages.map((message) => [message.content, message.attachments?.map((file) => [file.filename, file.content_type])]),
      [
        ['the label', [['image.png', 'image/png']]],
        ['', [['order.pdf', 'application/pdf']]],
      ],
    );
    assert.equal(whatsapp.sent().filter((request) => request.body.to === '4917600100').length, 2);
  });
});

describe('Slack', () => {
  it('a shared file arrives from url_private_download, read with the bot token; a file alone is a message', async () => {
    const file = slack.addFile('F0SHARED1', 'notes.txt', new TextEncoder().encode('order 4711, size M\n'), 'text/plain');
    const event = slackMessage('Ev0FILE1', 'C0SUPPORT', '1700000200.000100', '', { event: { subtype: 'file_share', files: [file] } });
    assert.equal((await deliverSlack(service, slackId, event, clock)).status, 200);
    await service.deps.channels.drain();
    const download = slack.requests.find((request) => request.path.includes('/files-pri/'));
    assert.equal(download?.headers.authorization, `Bearer ${slack.app.botToken}`);
    const [message] = await userMessages('slack:C0SUPPORT:1700000200.000100');
    assert.deepEqual(message!.attachments?.map((stored) => [stored.filename, stored.content_type]), [['notes.txt', 'text/plain']]);
    assert.equal(slack.sent().filter((request) => request.body.thread_ts === '1700000200.000100').length, 1);
  });

  it('a file at a URL that is not Slack\'s is not fetched: the token goes nowhere else', async () => {
    const file = { ...slack.addFile('F0ELSEWHERE', 'x.txt', new TextEncoder().encode('x'), 'text/plain'), url_private_download: 'http://127.0.0.2:9/steal', url_private: 'http://127.0.0.2:9/steal' };
    const before = slack.requests.length;
    await deliverSlack(service, slackId, slackMessage('Ev0FILE2', 'C0SUPPORT', '1700000300.000100', 'look', { event: { subtype: 'file_share', files: [file] } }), clock);
    await service.deps.channels.drain();
    const [message] = await userMessages('slack:C0SUPPORT:1700000300.000100');
    assert.equal(message!.content, 'look\n\n[The file "x.txt" was not accepted: it could not be read from the platform.]');
    assert.ok(slack.requests.slice(before).every((request) => request.path === '/api/chat.postMessage'));
  });
});

describe('a model that takes images', () => {
  it('gets a Telegram photo as a widget image is given: a data URL beside the caption', async () => {
    const openai = await startFakeOpenAi();
    const llmService = await createTestService({ llm: { baseUrl: openai.baseUrl, model: 'stream', images: true }, channels: channelOptions({ telegram }, clock) });
    try {
      const client = clientFor(llmService, (await llmService.createAccount()).apiKey);
      const bot = await client.json('/v1/bots', { method: 'POST', body: { name: 'Vision', attachments: { enabled: true } } });
      const channelId = await connectTelegram(client, bot.body.data.id);
      telegram.addFile('vision-photo', png(6, 6));
      await deliverTelegram(llmService, channelId, telegramMedia(8, 508, { photo: [{ file_id: 'vision-photo', file_unique_id: 'vp', width: 6, height: 6 }] }, 'what is this?'), telegram.webhook!.secret_token);
      await llmService.deps.channels.drain();
      const last = (openai.requests.at(-1)!.body as { messages: { content: unknown }[] }).messages.at(-1)!;
      const [textPart, imagePart] = last.content as [{ text: string }, { image_url: { url: string } }];
      assert.match(textPart.text, /what is this\?/);
      assert.equal(imagePart.image_url.url, `data:image/png;base64,${Buffer.from(png(6, 6)).toString('base64')}`);
    } finally {
      await llmService.close();
      await openai.close();
    }
  });
});
