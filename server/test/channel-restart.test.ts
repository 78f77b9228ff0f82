// Channels across a restart on the same database: a reply whose request was in flight when the
// service stopped is never sent again (as far as the platform can tell, it was sent exactly
// once), and a reply still waiting for its retry is sent once by the next service. The same holds
// for each piece of a long reply: a restart between pieces sends the rest, each once.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createService, type Service } from '../src/index.ts';
import { channelOptions, connectTelegram, deliverTelegram, telegramUpdate, TestClock } from './support/channels.ts';
import { clientFor } from './support/core.ts';
import { FakeTelegram, startFakeTelegram } from './support/fake-telegram.ts';
import { testDatabase, type TestDatabase } from './support/test-database.ts';

const clock = new TestClock();
let database: TestDatabase;
let telegram: FakeTelegram;
let service: Service | undefined;
let channelId: string;

const start = () => createService({ seed: false, logLevel: 'silent', apiKey: 'aicw_sk_channel-restart-test-key-0123456789', ...database.options, channels: channelOptions({ telegram }, clock) });
const sentTo = (chat: number) => telegram.sent().filter((request) => String(request.body.chat_id) === String(chat));

before(async () => {
  database = await testDatabase({ persistent: true });
  telegram = await startFakeTelegram();
  service = await start();
  const api = clientFor(service, service.devApiKey!);
  const bot = await api.json('/v1/bots', { method: 'POST', body: { name: 'Shop' } }); // untrained: it answers its fallback
  assert.equal(bot.res.status, 201, JSON.stringify(bot.body));
  channelId = await connectTelegram(api, bot.body.data.id);
});
after(async () => {
  await service?.close();
  await telegram?.close();
  await database?.cleanup();
});

it('a reply in flight when the service stops is not sent again by the next one', async () => {
  telegram.holdNext();
  const before = telegram.requests.length;
  assert.equal((await deliverTelegram(service!, channelId, telegramUpdate(1, 901, 'hello'), telegram.webhook!.secret_token)).status, 200);
  await telegram.next('/sendMessage', before); // the platform has it; its answer never comes back
  await service!.close();
  service = await start();
  await service.deps.channels.drain();
  clock.advance(10 * 60_000);
  await service.deps.channels.drain();
  assert.equal(sentTo(901).length, 1);
});

it('a reply waiting for its retry is sent once after the restart', async () => {
  telegram.failNext({ status: 502, body: { ok: false, error_code: 502, description: 'Bad Gateway' } });
  await deliverTelegram(service!, channelId, telegramUpdate(2, 902, 'hello'), telegram.webhook!.secret_token);
  await service!.deps.channels.drain();
  assert.equal(sentTo(902).length, 1); // refused: waits for its backoff
  await service!.close();
  service = await start();
  clock.advance(1_000);
  await service.deps.channels.drain();
  clock.advance(60_000);
  await service.deps.channels.drain();
  const sent = sentTo(902);
  assert.equal(sent.length, 2);
  assert.equal(sent[1]!.body.text, sent[0]!.body.text); // the same reply, tried again
});

/** Queues a reply of three pieces (about 10,000 characters, split between paragraphs) to `chat`; its text. */
async function queueLongReply(chat: string, id: string): Promise<string> {
  const content = Array.from({ length: 40 }, (_, i) => `Part ${i}: ${'lorem ipsum dolor sit amet '.repeat(9).trim()}.`).join('\n\n');
  const { outbox, store } = service!.deps.channels;
  await outbox.enqueue(store.db, { channelId, type: 'telegram', chat, message: { id, content, suggestions: [], citations: [] } });
  return content;
}

it('a restart between the pieces of a reply sends the rest, each exactly once', async () => {
  const content = await queueLongReply('903', 'msg_pieces');
  assert.equal(await service!.deps.channels.outbox.runOnce(), 1); // the first piece only: the rest wait for it
  assert.equal(sentTo(903).length, 1);
  await service!.close();
  service = await start();
  await service.deps.channels.drain();
  clock.advance(10 * 60_000);
  await service.deps.channels.drain();
  const sent = sentTo(903).map((request) => request.body.text as string);
  assert.equal(sent.length, 3);
  assert.equal(sent.join('\n\n'), content); // every piece once, in order
});

it('a piece in flight when the service stops is not sent again; the pieces after it are sent once', async () => {
  const content = await queueLongReply('904', 'msg_pieces_in_flight');
  await service!.deps.channels.outbox.runOnce();
  telegram.holdNext();
  const before = telegram.requests.length;
  const sending = service!.deps.channels.outbox.runOnce();
  await telegram.next('/sendMessage', before); // the platform has the second piece; its answer never comes back
  await service!.close();
  await sending;
  clock.advance(10 * 60_000); // on a shared database, a row `sending` is another instance's until it is this stale
  service = await start();
  await service.deps.channels.drain();
  const sent = sentTo(904).map((request) => request.body.text as string);
  assert.equal(sent.join('\n\n'), content); // every piece once, in order
  const rows = await service.deps.channels.store.db.selectFrom('channel_outbox').select(['message_id', 'status']).where('chat', '=', '904').orderBy('id').execute();
  assert.deepEqual(rows, [
    { message_id: 'msg_pieces_in_flight#0', status: 'sent' },
    { message_id: 'msg_pieces_in_flight#1', status: 'unconfirmed' },
    { message_id: 'msg_pieces_in_flight#2', status: 'sent' },
  ]);
});
