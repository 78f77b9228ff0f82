/**
 * `--only=webhooks`: outgoing webhooks as the channels issue's goals measure them, the receiver a
 * loopback HTTP server (server/test/support/fake-platform.ts) subscribed to `message.created`:
 * - **latency**: bot turns at `TURN_RATE` a second for `LATENCY_SECONDS` (each stores two messages,
 *   the visitor's and the reply: two events), the service as configured by default (the worker
 *   looks every second, real clock); from the event's `timestamp` (when its message was stored) to
 *   the receiver reading the request, p50/p99. On PostgreSQL when AI_CHAT_BENCH_DATABASE_URL or
 *   AI_CHAT_TEST_DATABASE_URL names a server, else PGlite.
 * - **outage**: the receiver answers 503 for 10 minutes while a turn is taken every
 *   `OUTAGE_TURN_EVERY_S` seconds, then answers 200 again. The 10 minutes and the time after are
 *   SIMULATED: the service's webhook clock is injected (`webhooks.now`, as server/test/webhooks.test.ts
 *   does) and moved `STEP_MS` at a time, the worker drained at each step, so every try happens on the
 *   real retry schedule (5 s, 30 s, 2 min, 10 min, …) in simulated time. Every stored event must reach
 *   the receiver (counted by `webhook-id`; a second receipt of one is a duplicate, reported apart).
 */
import { startServer } from '../server/src/index.ts';
import { TestClock } from '../server/test/support/channels.ts';
import { FakePlatform, type FakeRequest } from '../server/test/support/fake-platform.ts';
import { apiClient, atRate, type JsonCall } from './lib/live.ts';
import { percentile } from './lib/stats.ts';
import type { Row } from './lib/table.ts';
import { freshPostgresDatabase, POSTGRES_URL } from './throughput.ts';

const TURN_RATE = 20;
const LATENCY_SECONDS = 30;
const OUTAGE_MS = 10 * 60_000;
const OUTAGE_TURN_EVERY_S = 5;
const STEP_MS = 5_000;
/** After the outage, the simulated time allowed for every event to arrive: the schedule's whole day. */
const RECOVERY_LIMIT_MS = 24 * 3_600_000;
/** Real time allowed for the latency run's last events. */
const GIVE_UP_MS = 30_000;
const RATE_LIMIT = { points: 1e9, durationSeconds: 60 };

export interface WebhookResults {
  database: 'postgres' | 'pglite';
  latency: { events: number; received: number; p50: number; p99: number };
  outage: {
    /** Events stored during the outage (the deliveries queued for the subscription). */
    events: number;
    /** Of them, received at least once. */
    delivered: number;
    /** Receipts beyond the first of an event. */
    duplicates: number;
    /** Tries the receiver answered 503. */
    refused: number;
    /** Simulated minutes from the receiver's return to the last event's arrival. */
    recoveryMinutes: number;
  };
}

interface Receipt {
  id: string;
  at: number;
  timestamp: string;
}

/** A receiver that answers 2xx while `up`, 503 otherwise, and keeps each answered-2xx receipt. */
class Receiver {
  up = true;
  refused = 0;
  readonly receipts: Receipt[] = [];
  private readonly fake = new FakePlatform((request) => this.answer(request));
  private onReceipt: () => void = () => {};

  get url(): string {
    return `${this.fake.url}/hooks/chat`;
  }

  listen = () => this.fake.listen();
  close = () => this.fake.close();

  /** Resolves once `count` distinct events arrived (or after `ms`): true when they all did. */
  async distinct(count: number, ms: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arrived = new Promise<boolean>((resolve) => {
      const check = () => new Set(this.receipts.map((r) => r.id)).size >= count && resolve(true);
      this.onReceipt = check;
      check();
      timer = setTimeout(() => resolve(false), ms);
    });
    return arrived.finally(() => clearTimeout(timer));
  }

  private answer(request: FakeRequest) {
    if (!this.up) {
      this.refused++;
      return { status: 503, body: { error: 'down for maintenance' } };
    }
    this.receipts.push({ id: String(request.headers['webhook-id']), at: Date.now(), timestamp: (request.body as { timestamp: string }).timestamp });
    this.onReceipt();
    return { status: 200, body: { ok: true } };
  }
}

/** An account with a bot and `receiver` subscribed to `message.created`. */
async function subscribed(baseUrl: string, apiKey: string, receiver: Receiver): Promise<{ api: JsonCall; turn: (userId: string) => Promise<unknown>; subscriptionId: string }> {
  const api = apiClient(baseUrl, apiKey);
  const bot = await api<{ id: string }>('POST', '/v1/bots', { name: 'Webhook bench' }); // untrained: answers its fallback
  const subscription = await api<{ id: string }>('POST', '/v1/webhooks', { url: receiver.url, events: ['message.created'], description: 'bench' });
  return { api, subscriptionId: subscription.id, turn: (userId) => api('POST', `/v1/bots/${bot.id}/messages`, { message: 'hello', user_id: userId }) };
}

async function measureLatency(turns: number, log: (message: string) => void): Promise<Pick<WebhookResults, 'database' | 'latency'>> {
  const receiver = new Receiver();
  await receiver.listen();
  const postgres = POSTGRES_URL ? await freshPostgresDatabase(POSTGRES_URL) : undefined;
  const server = await startServer({
    ...(postgres ? { databaseUrl: postgres.url } : { dataDir: 'memory://' }),
    seed: false,
    logLevel: 'silent',
    port: 0,
    webhooks: { allowPrivateHosts: true },
  });
  try {
    const { apiKey } = await server.service.createAccount({ rateLimit: RATE_LIMIT });
    const { turn } = await subscribed(server.url, apiKey, receiver);
    log(`webhooks (${postgres ? 'postgres' : 'pglite'}): ${turns} turns at ${TURN_RATE}/s, two message.created each`);
    await atRate(turns, TURN_RATE, (i) => turn(`visitor-${i}`)); // a visitor per turn, as on a busy site
    await receiver.distinct(2 * turns, GIVE_UP_MS);
    const first = new Map<string, number>();
    for (const r of receiver.receipts) if (!first.has(r.id)) first.set(r.id, r.at - Date.parse(r.timestamp));
    const samples = [...first.values()];
    return { database: postgres ? 'postgres' : 'pglite', latency: { events: 2 * turns, received: samples.length, p50: percentile(samples, 50), p99: percentile(samples, 99) } };
  } finally {
    await server.close();
    await receiver.close();
    await postgres?.drop();
  }
}

async function measureOutage(turnEveryS: number, log: (message: string) => void): Promise<WebhookResults['outage']> {
  const receiver = new Receiver();
  await receiver.listen();
  const clock = new TestClock();
  // No timer: the bench drains the worker after each move of the clock, as the webhook tests do.
  const server = await startServer({ dataDir: 'memory://', seed: false, logLevel: 'silent', port: 0, webhooks: { allowPrivateHosts: true, now: clock.now, pollMs: 3_600_000 } });
  const webhooks = server.service.deps.webhooks;
  const step = async () => {
    clock.advance(STEP_MS);
    await webhooks.drain();
  };
  try {
    const { apiKey } = await server.service.createAccount({ rateLimit: RATE_LIMIT });
    const { api, subscriptionId, turn } = await subscribed(server.url, apiKey, receiver);
    log(`webhooks: a simulated 10-minute outage, a turn every ${turnEveryS} s of it, then the receiver back`);
    receiver.up = false;
    for (let elapsed = 0; elapsed < OUTAGE_MS; elapsed += STEP_MS) {
      if (elapsed % (turnEveryS * 1000) === 0) await turn(`visitor-${elapsed}`);
      await webhooks.drain();
      await step();
    }
    receiver.up = true;
    const events = await deliveryCount(api, subscriptionId);
    const back = clock.now();
    let lastArrival = back;
    for (let seen = 0; seen < events && clock.now() - back < RECOVERY_LIMIT_MS; ) {
      await step();
      const distinct = new Set(receiver.receipts.map((r) => r.id)).size;
      if (distinct > seen) lastArrival = clock.now();
      seen = distinct;
    }
    const distinct = new Set(receiver.receipts.map((r) => r.id)).size;
    return { events, delivered: distinct, duplicates: receiver.receipts.length - distinct, refused: receiver.refused, recoveryMinutes: (lastArrival - back) / 60_000 };
  } finally {
    await server.close();
    await receiver.close();
  }
}

/** Every delivery queued for the subscription (its log, page by page). */
async function deliveryCount(api: JsonCall, subscriptionId: string): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  do {
    const page: { items: unknown[]; next_cursor: string | null } = await api('GET', `/v1/webhooks/${subscriptionId}/deliveries?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    count += page.items.length;
    cursor = page.next_cursor;
  } while (cursor);
  return count;
}

export async function measureWebhooks(log: (message: string) => void, options: { smoke?: boolean } = {}): Promise<WebhookResults> {
  const latency = await measureLatency(options.smoke ? 20 : TURN_RATE * LATENCY_SECONDS, log);
  const outage = await measureOutage(options.smoke ? 60 : OUTAGE_TURN_EVERY_S, log);
  return { ...latency, outage };
}

export function webhookRows(r: WebhookResults): Row[] {
  const on = r.database === 'postgres' ? 'PostgreSQL' : 'PGlite (no PostgreSQL configured)';
  const l = r.latency;
  const o = r.outage;
  return [
    {
      id: 'webhooks.latency',
      label: `webhook message.created, event → receiver, ${TURN_RATE} turns/s, ${on}: p99 (p50 ${l.p50.toFixed(0)} ms, ${l.received} of ${l.events} received)`,
      unit: 'ms',
      ours: l.p99,
      deepChat: null,
      goal: '≤ 1,000 ms p99',
      met: l.p99 <= 1000 && l.received === l.events,
    },
    {
      id: 'webhooks.outage',
      label: `webhook events of a 10-min receiver outage (503; clock simulated) delivered after it (${o.delivered} of ${o.events}, ${o.duplicates} duplicates, ${o.refused} tries refused, last ${o.recoveryMinutes.toFixed(1)} min after the return)`,
      unit: '%',
      ours: o.events ? (100 * o.delivered) / o.events : null,
      deepChat: null,
      goal: '100 %',
      met: o.events > 0 && o.delivered === o.events,
    },
  ];
}
