// An operator's attachment (or any reply with files) goes out as the platform's media message,
// through the outbox: Telegram sendPhoto/sendDocument (multipart, the text as caption when it
// fits), WhatsApp an upload to /media then an image or document message by its id, Slack
// files.getUploadURLExternal, the upload, files.completeUploadExternal in the chat's thread. A
// failed upload is tried again without a message shown twice; a refusal is not tried again.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../src/index.ts';
import type { OutboxMessage } from '../src/channels/outbox.ts';
import type { ChannelType } from '../src/channels/adapter.ts';
import { channelOptions, connectSlack, connectTelegram, connectWhatsApp, deliverTelegram, telegramUpdate, TestClock } from './support/channels.ts';
import type { TestClient } from './support/core.ts';
import type { DashboardClient } from './support/dashboard.ts';
import type { FakeFilePart } from './support/fake-platform.ts';
import { FakeSlack, startFakeSlack } from './support/fake-slack.ts';
import { startFakeTelegram, type FakeTelegram } from './support/fake-telegram.ts';
import { startFakeWhatsApp, type FakeWhatsApp } from './support/fake-whatsapp.ts';
import { png } from './support/files.ts';
import { handoffSetup, openStream, type LiveStream } from './support/handoff.ts';
import { createTestService } from './support/test-database.ts';

const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n');
const PNG = png(40, 30);

const clock = new TestClock();
let telegram: FakeTelegram;
let whatsapp: FakeWhatsApp;
let slack: FakeSlack;
let service: Service;
let api: TestClient;
let operator: DashboardClient;
let botId: string;
let accountId: string;
let inbox: LiveStream;
const channelIds = {} as Record<ChannelType, string>;

before(async () => {
  [telegram, whatsapp, slack] = await Promise.all([startFakeTelegram(), startFakeWhatsApp(), startFakeSlack()]);
  service = await createTestService({ channels: channelOptions({ telegram, whatsapp, slack }, clock) });
  ({ api, operator, botId } = await handoffSetup(service, { intents: ['order.status'] }));
  inbox = await openStream(service.fetch, 'http://127.0.0.1/dashboard/api/inbox/events', { cookie: `aicw_session=${operator.cookie}` }); // an operator is online
  assert.equal((await api.json(`/v1/bots/${botId}`, { method: 'PUT', body: { attachments: { enabled: true } } })).res.status, 200);
  channelIds.telegram = await connectTelegram(api, botId);
  channelIds.whatsapp = await connectWhatsApp(api, botId);
  channelIds.slack = await connectSlack(api, botId);
  accountId = (await service.deps.channels.store.db.selectFrom('channels').select('account_id').where('id', '=', channelIds.telegram).executeTakeFirstOrThrow()).account_id;
});
after(async () => {
  inbox?.close();
  await service?.close();
  await Promise.all([telegram?.close(), whatsapp?.close(), slack?.close()]);
});

/** A file the account stored (as an operator's upload is), as a message carries it. */
async function stored(filename: string, bytes: Uint8Array) {
  return service.deps.attachments.upload(accountId, { botId, filename, bytes });
}

/** Queues a reply with files as the inbox does, then lets the worker send it. */
async function reply(type: ChannelType, chat: string, message: Partial<OutboxMessage> & Pick<OutboxMessage, 'id' | 'content'>): Promise<void> {
  const { outbox, store } = service.deps.channels;
  await outbox.enqueue(store.db, { channelId: channelIds[type], type, chat, message: { suggestions: [], citations: [], ...message } });
  await service.deps.channels.drain();
}

async function outboxRows(chat: string) {
  return service.deps.channels.store.db.selectFrom('channel_outbox').select(['message_id', 'status', 'attempts', 'external_id']).where('chat', '=', chat).orderBy('id').execute();
}

const bytesOf = (part: FakeFilePart) => new Uint8Array(part.bytes);

describe('Telegram', () => {
  it("an operator's image from the inbox goes as sendPhoto, its text the caption", async () => {
    await deliverTelegram(service, channelIds.telegram, telegramUpdate(1, 601, 'where is my order'), telegram.webhook!.secret_token);
    await service.deps.channels.drain();
    const history = await api.json(`/v1/chat/history?user_id=telegram:601&bot_id=${botId}`);
    const conversationId = history.body.data.items[0].conversation_id as string;
    assert.equal((await operator.call('POST', `/dashboard/api/inbox/${conversationId}/take`)).status, 200);
    const upload = await operator.call('POST', `/dashboard/api/v1/attachments?conversation_id=${conversationId}&filename=label.png`, { body: PNG });
    assert.equal(upload.status, 201, JSON.stringify(upload.body));
    const sent = await operator.call('POST', `/dashboard/api/inbox/${conversationId}/messages`, { body: { content: 'Your **label**', attachments: [upload.body.data.id] } });
    assert.equal(sent.status, 201, JSON.stringify(sent.body));
    await service.deps.channels.drain();
    const [photo, ...more] = telegram.sentFiles();
    assert.equal(more.length, 0);
    assert.ok(photo!.path.endsWith('/sendPhoto'));
    assert.match(String(photo!.headers['content-type']), /^multipart\/form-data; boundary=/);
    assert.equal(photo!.body.chat_id, '601');
    assert.equal(photo!.body.caption, 'Your <b>label</b>');
    assert.equal(photo!.body.parse_mode, 'HTML');
    assert.equal(photo!.body.photo.filename, 'label.png');
    assert.deepEqual(bytesOf(photo!.body.photo), PNG);
    assert.equal(telegram.sent().filter((request) => String(request.body.chat_id) === '601').length, 1); // only the bot's first answer: the caption is not sent twice
  });

  it('a text too long for a caption goes first, then the file as sendDocument', async () => {
    const terms = await stored('terms.pdf', PDF);
    const content = 'Terms. '.repeat(200).trim();
    await reply('telegram', '602', { id: 'msg_terms', content, attachments: [terms] });
    assert.deepEqual(
      telegram.requests.filter((request) => String(request.body?.chat_id) === '602').map((request) => request.path.split('/').pop()),
      ['sendMessage', 'sendDocument'],
    );
    const document = telegram.sentFiles().at(-1)!;
    assert.equal(document.body.caption, undefined);
    assert.equal(document.body.document.filename, 'terms.pdf');
    assert.deepEqual(bytesOf(document.body.document), PDF);
    assert.deepEqual((await outboxRows('602')).map((row) => [row.message_id, row.status]), [['msg_terms#0', 'sent'], ['msg_terms#1', 'sent']]);
  });
});

describe('WhatsApp', () => {
  it('uploads to /media, then sends an image by its id with the caption; a PDF as a document with its name', async () => {
    const photo = await stored('box.png', PNG);
    const invoice = await stored('invoice.pdf', PDF);
    await reply('whatsapp', '4917600200', { id: 'msg_wa_files', content: 'Here you go', attachments: [photo, invoice] });
    const uploads = whatsapp.calls('/media');
    assert.deepEqual(uploads.map((request) => [request.body.messaging_product, request.body.type, request.body.file.filename]), [['whatsapp', 'image/png', 'box.png'], ['whatsapp', 'application/pdf', 'invoice.pdf']]);
    assert.deepEqual(bytesOf(uploads[0]!.body.file), PNG);
    const sent = whatsapp.sent().filter((request) => request.body.to === '4917600200');
    assert.deepEqual(sent.map((request) => request.body.type), ['image', 'document']);
    const imageId = sent[0]!.body.image.id as string;
    assert.deepEqual(sent[0]!.body.image, { id: imageId, caption: 'Here you go' });
    assert.deepEqual(whatsapp.media.get(imageId)?.bytes && new Uint8Array(whatsapp.media.get(imageId)!.bytes), PNG);
    assert.equal(sent[1]!.body.document.filename, 'invoice.pdf');
    assert.equal(sent[1]!.body.document.caption, undefined);
  });

  it('an upload the Graph API failed (500) is tried again; the message goes once', async () => {
    const photo = await stored('retry.png', PNG);
    whatsapp.failNext({ status: 500, body: { error: { message: 'An unknown error occurred', type: 'OAuthException', code: 1 } } });
    await reply('whatsapp', '4917600201', { id: 'msg_wa_retry', content: '', attachments: [photo] });
    assert.deepEqual((await outboxRows('4917600201')).map((row) => [row.status, row.attempts]), [['pending', 1]]);
    clock.advance(60_000);
    await service.deps.channels.drain();
    assert.deepEqual((await outboxRows('4917600201')).map((row) => [row.status, row.attempts]), [['sent', 2]]);
    assert.equal(whatsapp.sent().filter((request) => request.body.to === '4917600201').length, 1);
  });
});

describe('Slack', () => {
  const chat = 'C0SUPPORT:1700000400.000100';

  it('getUploadURLExternal, the upload, then completeUploadExternal in the thread with the caption', async () => {
    const notes = await stored('notes.txt', new TextEncoder().encode('size M, blue\n'));
    await reply('slack', chat, { id: 'msg_slack_file', content: 'The notes', attachments: [notes] });
    const [ticket] = slack.calls('/files.getUploadURLExternal');
    assert.deepEqual(ticket!.body, { filename: 'notes.txt', length: String(notes.size) });
    const upload = slack.requests.find((request) => request.path.startsWith('/upload/v1/'))!;
    assert.equal(upload.body.file.bytes.toString('utf8'), 'size M, blue\n');
    const [complete] = slack.calls('/files.completeUploadExternal');
    assert.equal(complete!.headers.authorization, `Bearer ${slack.app.botToken}`);
    const fileId = upload.path.split('/').pop();
    assert.deepEqual({ ...complete!.body, files: JSON.parse(complete!.body.files) }, {
      files: [{ id: fileId, title: 'notes.txt' }],
      channel_id: 'C0SUPPORT',
      thread_ts: '1700000400.000100',
      initial_comment: 'The notes',
    });
    assert.equal(slack.sent().length, 0); // the caption went with the file
    assert.deepEqual((await outboxRows(chat)).map((row) => [row.status, row.external_id]), [['sent', fileId]]);
  });

  it('a refusal is not tried again: the piece is given up', async () => {
    const notes = await stored('refused.txt', new TextEncoder().encode('x\n'));
    slack.failNext(FakeSlack.refusal('not_in_channel'));
    await reply('slack', 'C0OTHER:1700000500.000100', { id: 'msg_slack_refused', content: '', attachments: [notes] });
    clock.advance(60 * 60_000);
    await service.deps.channels.drain();
    assert.deepEqual((await outboxRows('C0OTHER:1700000500.000100')).map((row) => [row.status, row.attempts]), [['failed', 1]]);
  });
});

describe('a file deleted before it was sent', () => {
  it('is given up, not tried again', async () => {
    const gone = await stored('gone.pdf', PDF);
    await service.deps.attachments.remove(accountId, gone.id, {});
    await reply('telegram', '603', { id: 'msg_gone', content: '', attachments: [gone] });
    assert.deepEqual((await outboxRows('603')).map((row) => [row.status, row.attempts]), [['failed', 1]]);
    assert.equal(telegram.sentFiles().filter((request) => request.body.chat_id === '603').length, 0);
  });
});
