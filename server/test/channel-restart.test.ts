// Channels across a restart on the same database: a reply whose request was in flight when the
// service stopped is never sent again (as far as the platform can tell, it was sent exactly
// once), and a reply still waiting for its retry is sent once by the next service.
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
