/**
 * `--only=channels`: the messaging-platform ingress as the channels issue's goal measures it. A bot
 * connected to Telegram, whose API is the FAKE of server/test/support/fake-telegram.ts (Telegram's
 * Bot API as documented, on loopback), on PostgreSQL when AI_CHAT_BENCH_DATABASE_URL or
 * AI_CHAT_TEST_DATABASE_URL names a server (else PGlite):
 * - `UPDATES` updates from as many chats, POSTed over HTTP to the channel's webhook at `RATE` per
 *   second, then every one of them again 4 times (Telegram redelivers what it thinks was lost), at
 *   the same rate: the acknowledgement latency of every delivery, p50 and p99;
 * - once the outbox is empty: the turns stored and the replies Telegram received, per update
 *   (the goal: exactly one of each).
 * The channel's webhook rate limit (`AI_CHAT_CHANNEL_WEBHOOK_RATE`, 6,000 a minute by default) is
 * raised as an operator expecting this traffic would. The goal is about a running service: the first
 * `WARMUP` updates (2 s at the rate, from other chats) warm it up — the JIT, the pool's connections,
 * the bot's model — and are not counted; their p99, a cold start's, is in the row's label.
 */
import { randomBytes } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import { startServer } from '../server/src/index.ts';
import { telegramUpdate } from '../server/test/support/channels.ts';
import { FAKE_TELEGRAM_TOKEN, FakeTelegram } from '../server/test/support/fake-telegram.ts';
import { freshPostgresDatabase, POSTGRES_URL } from './throughput.ts';
import { atRate } from './lib/live.ts';
import { percentile } from './lib/stats.ts';
import type { Row } from './lib/table.ts';

const RATE = 200;
const UPDATES = 1000;
const REPLAYS = 4;
const WARMUP = 400;
/** The warm-up's update ids (and chats, 10,000 + id) start here, far above the measured ones. */
const WARMUP_FIRST_ID = 1_000_000;

export interface ChannelResults {
  database: 'postgres' | 'pglite';
  deliveries: number;
  ackP50: number;
  ackP99: number;
  /** Deliveries that warmed the service up (none in a smoke run), and their p99: a fresh start's. */
  warmup: number;
  coldP99: number;
  /** Deliveries not answered 200. */
  refused: number;
  updates: number;
  turns: number;
  /** Updates answered by exactly one reply, and by more than one. */
  repliedOnce: number;
  repliedTwice: number;
  drainSeconds: number;
}

export async function measureChannels(log: (message: string) => void, options: { smoke?: boolean } = {}): Promise<ChannelResults> {
  const updates = options.smoke ? 20 : UPDATES;
  const fake = await new FakeTelegram().listen();
  const postgres = POSTGRES_URL ? await freshPostgresDatabase(POSTGRES_URL) : undefined;
  const kind = postgres ? 'postgres' : 'pglite';
  const server = await startServer({
    ...(postgres ? { databaseUrl: postgres.url } : { dataDir: 'memory://' }),
    seed: false,
    logLevel: 'silent',
    port: 0,
    channels: { telegramApiUrl: fake.url, secretsKey: randomBytes(32).toString('base64'), webhookRatePerMinute: 1_000_000 },
  });
  try {
    const { apiKey } = await server.service.createAccount({ rateLimit: { points: 1_000_000, durationSeconds: 60 } });
    const call = async (path: string, method: string, body: unknown) => {
      const res = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const json = (await res.json()) as { success: boolean; data: { id: string } };
      if (!json.success) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json.data;
    };
    const bot = await call('/v1/bots', 'POST', { name: 'Shop', training: { intents: [{ name: 'greeting', examples: ['hello', 'hi there', 'good morning'], responses: ['Hello! How can I help?'] }] } });
    const channel = await call(`/v1/bots/${bot.id}/channels/telegram`, 'PUT', { bot_token: FAKE_TELEGRAM_TOKEN });
    const secret = fake.webhook?.secret_token;
    if (!secret) throw new Error('connecting Telegram registered no webhook');
    const webhook = `${server.url}/v1/channels/telegram/${channel.id}`;
    const headers = { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret };

    let acks: number[] = [];
    let refused = 0;
    const deliver = async (updateId: number) => {
      const started = performance.now();
      const res = await fetch(webhook, { method: 'POST', headers, body: JSON.stringify(telegramUpdate(updateId, 10_000 + updateId, 'hello')) });
      await res.arrayBuffer();
      acks.push(performance.now() - started);
      if (res.status !== 200) refused++;
    };
    const schedule = (ids: number[]) => atRate(ids.length, RATE, (i) => deliver(ids[i]!));

    const db = server.service.deps.db;
    // Channel tables are typed in channels/tables.ts, not in the service's Database: counted in SQL.
    const count = async (query: RawBuilder<unknown>) => Number(((await query.execute(db)).rows[0] as { n: string }).n);
    /** Until every update's turn is stored and its reply sent (or given up): the seconds it took. */
    const drained = async () => {
      const started = performance.now();
      for (;;) {
        const [inbound, outbox] = await Promise.all([
          count(sql`select count(*) as n from channel_inbound where status = 'pending'`),
          count(sql`select count(*) as n from channel_outbox where status in ('pending', 'sending')`),
        ]);
        if (inbound === 0 && outbox === 0) return (performance.now() - started) / 1000;
        if (performance.now() - started > 300_000) throw new Error(`not drained after 300 s: ${inbound} inbound, ${outbox} outbox`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };

    const warmup = options.smoke ? 0 : WARMUP;
    log(`channels (${kind}): ${warmup} updates to warm up, then ${updates} at ${RATE}/s, then each ${REPLAYS} more times`);
    await schedule(Array.from({ length: warmup }, (_, i) => WARMUP_FIRST_ID + i));
    await drained();
    const cold = acks;
    acks = [];
    const ids = Array.from({ length: updates }, (_, i) => 1 + i);
    await schedule(ids);
    await schedule(Array.from({ length: REPLAYS }, () => ids).flat());
    const drainSeconds = await drained();
    const turns = await db.selectFrom('messages').select((eb) => eb.fn.countAll<string>().as('n')).where('role', '=', 'user').executeTakeFirstOrThrow();
    const perChat = new Map<string, number>();
    for (const request of fake.sent()) {
      const chat = String((request.body as { chat_id: unknown }).chat_id);
      if (Number(chat) >= 10_000 + WARMUP_FIRST_ID) continue; // a warm-up's
      perChat.set(chat, (perChat.get(chat) ?? 0) + 1);
    }
    return {
      database: kind,
      deliveries: acks.length,
      ackP50: percentile(acks, 50),
      ackP99: percentile(acks, 99),
      warmup,
      coldP99: cold.length ? percentile(cold, 99) : 0,
      refused,
      updates,
      turns: Number(turns.n) - warmup,
      repliedOnce: [...perChat.values()].filter((n) => n === 1).length,
      repliedTwice: [...perChat.values()].filter((n) => n > 1).length,
      drainSeconds,
    };
  } finally {
    await server.close();
    await fake.close();
    await postgres?.drop();
  }
}

export function channelRows(r: ChannelResults): Row[] {
  const on = r.database === 'postgres' ? 'PostgreSQL' : 'PGlite (no PostgreSQL configured)';
  const exact = r.turns === r.updates && r.repliedOnce === r.updates && r.repliedTwice === 0;
  return [
    {
      id: 'channels.ack-p99',
      label: `Telegram webhook: acknowledgement p99 at ${RATE} deliveries/s, ${on} (p50 ${r.ackP50.toFixed(1)} ms, ${r.deliveries.toLocaleString('en-US')} deliveries, ${r.refused} not 200${r.warmup ? `; after ${r.warmup} to warm up, whose p99 was ${r.coldP99.toFixed(0)} ms` : ''})`,
      unit: 'ms',
      ours: r.ackP99,
      deepChat: null,
      goal: '≤ 50 ms',
      met: r.ackP99 <= 50 && r.refused === 0,
    },
    {
      id: 'channels.replays',
      label: `Telegram webhook: ${r.updates.toLocaleString('en-US')} updates each delivered ${REPLAYS + 1} times → turns stored, updates answered once (twice or more: ${r.repliedTwice}; drained in ${r.drainSeconds.toFixed(1)} s)`,
      unit: 'count',
      ours: r.turns,
      deepChat: null,
      goal: `${r.updates} and ${r.updates}`,
      met: exact,
      note: `${r.repliedOnce} answered once`,
    },
  ];
}
