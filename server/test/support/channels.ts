/**
 * Channel test helpers: a service whose channels talk to the fake platforms (fake-telegram.ts,
 * fake-whatsapp.ts, fake-slack.ts) on a clock the test moves, and deliveries shaped and signed as each platform
 * sends them.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Service } from '../../src/index.ts';
import { hubSignature, slackSignature } from '../../src/channels/signature.ts';
import type { TestClient } from './core.ts';
import { FAKE_TELEGRAM_TOKEN, type FakeTelegram } from './fake-telegram.ts';
import { FAKE_SLACK, type FakeSlack } from './fake-slack.ts';
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
export function channelOptions(fakes: { telegram?: FakeTelegram; whatsapp?: FakeWhatsApp; slack?: FakeSlack }, clock: TestClock, secretsKey: string | null = SECRETS_KEY) {
  return { telegramApiUrl: fakes.telegram?.url, whatsappApiUrl: fakes.whatsapp?.url, slackApiUrl: fakes.slack?.apiUrl, secretsKey: secretsKey ?? undefined, now: clock.now, pollMs: 3_600_000 };
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

export async function connectSlack(api: TestClient, botId: string): Promise<string> {
  const { res, body } = await api.json(`/v1/bots/${botId}/channels/slack`, { method: 'PUT', body: { bot_token: FAKE_SLACK.botToken, signing_secret: FAKE_SLACK.signingSecret } });
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.data.id;
}

/** A Slack `event_callback` with a person's `message` event (in a thread when `threadTs` is given), for the fake app's installation. */
export const slackMessage = (eventId: string, channel: string, ts: string, text: string, more: { threadTs?: string; user?: string; event?: Record<string, unknown> } = {}) => ({
  token: 'XXYYZZ',
  team_id: 'T0FAKETEAM',
  api_app_id: 'A0FAKEAPP',
  type: 'event_callback',
  event_id: eventId,
  event_time: 1_700_000_000,
  authorizations: [{ enterprise_id: null, team_id: 'T0FAKETEAM', user_id: FAKE_SLACK.botUserId, is_bot: true, is_enterprise_install: false }],
  event: { type: 'message', channel, channel_type: 'channel', user: more.user ?? 'U0GRACE', text, ts, event_ts: ts, ...(more.threadTs && { thread_ts: more.threadTs }), ...more.event },
});

/** A `block_actions` interaction as Slack posts it (a form with one `payload` field): `value` pressed under the bot's message `messageTs` in thread `threadTs`. */
export function slackPress(triggerId: string, channel: string, messageTs: string, threadTs: string, value: string): string {
  const action = { type: 'button', action_id: 'qr_0', block_id: 'quick_replies', text: { type: 'plain_text', text: value, emoji: true }, value, action_ts: '1700000100.000100' };
  const payload = {
    type: 'block_actions',
    user: { id: 'U0GRACE', username: 'grace', name: 'grace', team_id: 'T0FAKETEAM' },
    api_app_id: 'A0FAKEAPP',
    trigger_id: triggerId,
    team: { id: 'T0FAKETEAM', domain: 'fake' },
    container: { type: 'message', message_ts: messageTs, channel_id: channel, is_ephemeral: false, thread_ts: threadTs },
    channel: { id: channel, name: 'support' },
    message: { type: 'message', user: FAKE_SLACK.botUserId, bot_id: FAKE_SLACK.botId, text: 'Hello', ts: messageTs, thread_ts: threadTs },
    response_url: 'https://hooks.slack.com/actions/T0FAKETEAM/1/fake',
    actions: [action],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/**
 * Posts a request as Slack does: `X-Slack-Request-Timestamp` (the clock's now unless `timestamp`)
 * and `X-Slack-Signature` over the exact bytes under `secret`; a string body is a form, any other JSON.
 */
export function deliverSlack(service: Service, channelId: string, body: unknown, clock: TestClock, options: { secret?: string; timestamp?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  const form = typeof body === 'string';
  const bytes = Buffer.from(form ? body : JSON.stringify(body));
  const timestamp = options.timestamp ?? String(Math.floor(clock.now() / 1000));
  return service.fetch(
    new Request(`http://127.0.0.1/v1/channels/slack/${channelId}`, {
      method: 'POST',
      headers: {
        'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
        'x-slack-request-timestamp': timestamp,
        'x-slack-signature': slackSignature(options.secret ?? FAKE_SLACK.signingSecret, timestamp, bytes),
        ...options.headers,
      },
      body: bytes,
    }),
  );
}

/** Rows of a channel table, counted from the service's own database. */
export async function countRows(service: Service, table: 'channel_inbound' | 'channel_outbox', channelId: string): Promise<number> {
  const row = await service.deps.channels.store.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).where('channel_id', '=', channelId).executeTakeFirstOrThrow();
  return Number(row.n);
}
