/**
 * Channel test helpers: a service whose channels talk to the fake platforms (fake-telegram.ts,
 * fake-whatsapp.ts) on a clock the test moves, and deliveries shaped and signed as each platform
 * sends them.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Service } from '../../src/index.ts';
import { hubSignature } from '../../src/channels/signature.ts';
import type { TestClient } from './core.ts';
import { FAKE_TELEGRAM_TOKEN, type FakeTelegram } from './fake-telegram.ts';
import { FAKE_WHATSAPP, type FakeWhatsApp } from './fake-whatsapp.ts';

/** A clock that moves only when the test says so. */
export class TestClock {
  constructor(public ms = Date.now()) {}
  readonly now = () => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

export const SECRETS_KEY = randomBytes(32).toString('base64');

/** `ServiceOptions.channels` for the fakes (no timer wake-ups: tests drain the worker themselves); `secretsKey` null: none. */
export function channelOptions(fakes: { telegram?: FakeTelegram; whatsapp?: FakeWhatsApp }, clock: TestClock, secretsKey: string | null = SECRETS_KEY) {
  return { telegramApiUrl: fakes.telegram?.url, whatsappApiUrl: fakes.whatsapp?.url, secretsKey: secretsKey ?? undefined, now: clock.now, pollMs: 3_600_000 };
}

export async function connectTelegram(api: TestClient, botId: string): Promise<string> {
  const { res, body } = await api.json(`/v1/bots/${botId}/channels/telegram`, { method: 'PUT', body: { bot_token: FAKE_TELEGRAM_TOKEN } });
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.data.id;
}

export async function connectWhatsApp(api: TestClient, botId: string): Promise<string> {
  const { phoneNumberId, accessToken, appSecret, verifyToken } = FAKE_WHATSAPP;
  const { res, body } = await api.json(`/v1/bots/${botId}/channels/whatsapp`, {
    method: 'PUT',
    body: { phone_number_id: phoneNumberId, access_token: accessToken, app_secret: appSecret, verify_token: verifyToken },
  });
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.data.id;
}

/** A Telegram `Update` with a text message from a private chat. */
export const telegramUpdate = (updateId: number, chatId: number, text: string) => ({
  update_id: updateId,
  message: { message_id: updateId, from: { id: chatId, is_bot: false, first_name: 'Ada' }, chat: { id: chatId, type: 'private', first_name: 'Ada' }, date: 1_700_000_000, text },
});

/** Posts an update as Telegram does, with the secret token `setWebhook` registered (or `secret`). */
export function deliverTelegram(service: Service, channelId: string, update: unknown, secret: string | null): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (secret !== null) headers['x-telegram-bot-api-secret-token'] = secret;
  return service.fetch(new Request(`http://127.0.0.1/v1/channels/telegram/${channelId}`, { method: 'POST', headers, body: JSON.stringify(update) }));
}

/** A WhatsApp Cloud API delivery with one text message from `waId`. */
export const whatsappDelivery = (messageId: string, waId: string, text: string) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: '102290129340398',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '15550783881', phone_number_id: FAKE_WHATSAPP.phoneNumberId },
            contacts: [{ profile: { name: 'Grace' }, wa_id: waId }],
            messages: [{ from: waId, id: messageId, timestamp: '1700000000', type: 'text', text: { body: text } }],
          },
        },
      ],
    },
  ],
});

/** Posts a delivery as Meta does: `X-Hub-Signature-256` of the exact bytes under `appSecret`. */
export function deliverWhatsApp(service: Service, channelId: string, delivery: unknown, appSecret = FAKE_WHATSAPP.appSecret): Promise<Response> {
  const bytes = Buffer.from(JSON.stringify(delivery));
  return service.fetch(
    new Request(`http://127.0.0.1/v1/channels/whatsapp/${channelId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(appSecret, bytes) },
      body: bytes,
    }),
  );
}

/** Rows of a channel table, counted from the service's own database. */
export async function countRows(service: Service, table: 'channel_inbound' | 'channel_outbox', channelId: string): Promise<number> {
  const row = await service.deps.channels.store.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).where('channel_id', '=', channelId).executeTakeFirstOrThrow();
  return Number(row.n);
}
