/**
 * `--only=support`: the live delivery a support team depends on ("a support team can live in it"),
 * against the service in child processes (`lib/instance.ts`) over loopback HTTP, so the service has
 * its own thread and the clients here theirs:
 * - **notification**: from a visitor's `POST /v1/conversations/{id}/handoff` being sent to the
 *   operator's inbox stream (`GET /dashboard/api/inbox/events`, what the dashboard's notification
 *   listens to) delivering the conversation's `status: waiting`, one ask at a time; on one instance
 *   (PGlite), then with the visitor on instance A and the operator's inbox on instance B sharing
 *   PostgreSQL + Redis (when AI_CHAT_BENCH_DATABASE_URL / AI_CHAT_TEST_DATABASE_URL and
 *   AI_CHAT_BENCH_REDIS_URL / AI_CHAT_TEST_REDIS_URL name them);
 * - **visitor streams**: `STREAMS` conversations taken by an operator, each visitor's events stream
 *   (`GET /v1/conversations/{id}/events`, what the widget follows during a handoff) open at once on
 *   one instance (PGlite; then on instance A of the PostgreSQL + Redis pair), then one operator reply
 *   to each at `REPLY_RATE` a second: from the reply's POST being sent (the operator's Send) to its
 *   visitor's stream delivering it (and from the POST being answered, in the label).
 */
import { randomBytes } from 'node:crypto';
import { apiClient, atRate, inParallel, openEventStream, signUpOperator, type JsonCall, type LiveStream } from './lib/live.ts';
import { percentile } from './lib/stats.ts';
import type { Row } from './lib/table.ts';
import { freshPostgresDatabase, POSTGRES_URL, REDIS_URL, startInstance, type Instance } from './throughput.ts';

const NOTIFICATIONS = 200;
const STREAMS = 2000;
const REPLY_RATE = 100;
/** A delivery not seen by then counts as missing (and the bench goes on). */
const GIVE_UP_MS = 20_000;
const SETUP_CONCURRENCY = 16;

export interface Latencies {
  samples: number;
  p50: number;
  p99: number;
  /** Events never delivered (within GIVE_UP_MS). */
  missing: number;
}

export interface SupportResults {
  notifyOne: Latencies;
  /** Null: no PostgreSQL + Redis configured. */
  notifyTwo: Latencies | null;
  streams: StreamLatencies;
  /** The same on one instance of the PostgreSQL + Redis pair; null when none is configured. */
  streamsPostgres: StreamLatencies | null;
}

export interface StreamLatencies extends Latencies {
  streams: number;
  /** From sending the reply's POST, not its answer: the operator's own wait included. */
  p50FromSent: number;
  p99FromSent: number;
  /** Conversations started, asked, taken, and their streams opened. */
  setupSeconds: number;
}

const latencies = (samples: number[], missing: number): Latencies => ({ samples: samples.length, p50: percentile(samples, 50), p99: percentile(samples, 99), missing });

/** Resolves with `promise`, or with undefined after GIVE_UP_MS. */
function withinDeadline<T>(promise: Promise<T>): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), GIVE_UP_MS)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

interface Desk {
  apiKey: string;
  botId: string;
  api: JsonCall;
  operator: Awaited<ReturnType<typeof signUpOperator>>;
}

/** On a fresh install: its operator (the first sign-up) and a bot that hands off. */
async function openDesk(baseUrl: string, apiKey: string): Promise<Desk> {
  const api = apiClient(baseUrl, apiKey);
  const operator = await signUpOperator(baseUrl, `operator.${randomBytes(4).toString('hex')}@example.test`);
  const bot = await api<{ id: string }>('POST', '/v1/bots', {
    name: 'Support bench',
    training: { intents: [{ name: 'greet', examples: ['hello', 'hi there'], responses: ['Hello! How can I help?'] }] },
  });
  await api('PUT', `/v1/bots/${bot.id}/handoff`, { enabled: true });
  return { apiKey, botId: bot.id, api, operator };
}

const startConversation = async (desk: Desk, userId: string) =>
  (await desk.api<{ conversation_id: string }>('POST', `/v1/bots/${desk.botId}/messages`, { message: 'hello', user_id: userId })).conversation_id;

/** Asks for a person `samples` times, one at a time, on `visitorUrl`; the operator's inbox is open on `operatorUrl`. */
async function notificationLatency(desk: Desk, visitorUrl: string, operatorUrl: string, samples: number): Promise<Latencies> {
  const api = apiClient(visitorUrl, desk.apiKey);
  const heard = new Map<string, (at: number) => void>();
  const inbox = await openEventStream(`${operatorUrl}/dashboard/api/inbox/events`, { cookie: `aicw_session=${desk.operator.cookie}` }, (event, at) => {
    if (event.event !== 'status') return;
    const state = JSON.parse(event.data) as { conversation_id: string; status: string };
    if (state.status === 'waiting') heard.get(state.conversation_id)?.(at);
  });
  try {
    const measured: number[] = [];
    let missing = 0;
    for (let i = 0; i < samples; i++) {
      const userId = `waiting-${i}`;
      const conversationId = await startConversation({ ...desk, api }, userId);
      const arrived = new Promise<number>((resolve) => heard.set(conversationId, resolve));
      const sent = performance.now();
      await api('POST', `/v1/conversations/${conversationId}/handoff`, { user_id: userId });
      const at = await withinDeadline(arrived);
      heard.delete(conversationId);
      if (at === undefined) missing++;
      else measured.push(at - sent);
    }
    return latencies(measured, missing);
  } finally {
    inbox.close();
  }
}

/** `count` visitors' streams open at once on one instance, and one operator reply to each. */
async function visitorStreams(desk: Desk, baseUrl: string, count: number, log: (message: string) => void): Promise<StreamLatencies> {
  const setupStarted = performance.now();
  const operator = desk.operator.on(baseUrl);
  const conversations: { id: string; userId: string }[] = [];
  await inParallel(Array.from({ length: count }, (_, i) => `streaming-${i}`), SETUP_CONCURRENCY, async (userId) => {
    const id = await startConversation(desk, userId);
    await desk.api('POST', `/v1/conversations/${id}/handoff`, { user_id: userId });
    await operator('POST', `/dashboard/api/inbox/${id}/take`);
    conversations.push({ id, userId });
  });
  log(`support: ${count} conversations with a person; opening their visitors' streams`);
  const received = new Map<string, number>();
  let allReceived!: () => void;
  const everyReply = new Promise<void>((resolve) => (allReceived = resolve));
  const streams: LiveStream[] = [];
  try {
    await inParallel(conversations, SETUP_CONCURRENCY * 4, async ({ id, userId }) => {
      const url = `${baseUrl}/v1/conversations/${id}/events?user_id=${encodeURIComponent(userId)}`;
      streams.push(
        await openEventStream(url, { authorization: `Bearer ${desk.apiKey}` }, (event, at) => {
          if (event.event !== 'message' || received.has(id) || (JSON.parse(event.data) as { role: string }).role !== 'operator') return;
          received.set(id, at);
          if (received.size === conversations.length) allReceived();
        }),
      );
    });
    const setupSeconds = (performance.now() - setupStarted) / 1000;
    log(`support: ${streams.length} visitor streams open; ${count} operator replies at ${REPLY_RATE}/s`);

    const sentAt = new Map<string, number>();
    const answeredAt = new Map<string, number>();
    await atRate(conversations.length, REPLY_RATE, async (i) => {
      const { id } = conversations[i]!;
      sentAt.set(id, performance.now());
      await operator('POST', `/dashboard/api/inbox/${id}/messages`, { content: `Reply ${i} from the team` });
      answeredAt.set(id, performance.now());
    });
    await withinDeadline(everyReply);
    const fromAnswer: number[] = [];
    const fromSent: number[] = [];
    for (const { id } of conversations) {
      const at = received.get(id);
      if (at === undefined) continue;
      // The service publishes before it answers: a stream may hear the reply first (0 then).
      fromAnswer.push(Math.max(0, at - answeredAt.get(id)!));
      fromSent.push(at - sentAt.get(id)!);
    }
    return { ...latencies(fromAnswer, conversations.length - fromAnswer.length), streams: streams.length, p50FromSent: percentile(fromSent, 50), p99FromSent: percentile(fromSent, 99), setupSeconds };
  } finally {
    for (const stream of streams) stream.close();
  }
}

/** The operator's dashboard open on `baseUrl` during `work` (online, as a team at work; it hears every reply too). */
async function withOperatorOnline<T>(desk: Desk, baseUrl: string, work: () => Promise<T>): Promise<T> {
  const inbox = await openEventStream(`${baseUrl}/dashboard/api/inbox/events`, { cookie: `aicw_session=${desk.operator.cookie}` }, () => {});
  try {
    return await work();
  } finally {
    inbox.close();
  }
}

/** Runs `work` against fresh instances of the service, stopped (and their database dropped) after. */
async function withInstances<T>(env: Record<string, string>, count: number, work: (instances: Instance[]) => Promise<T>): Promise<T> {
  const instances: Instance[] = [];
  try {
    for (let i = 0; i < count; i++) instances.push(await startInstance(env)); // the first migrates and creates the key's account
    return await work(instances);
  } finally {
    for (const instance of instances) await instance.stop();
  }
}

export async function measureSupport(log: (message: string) => void, options: { smoke?: boolean } = {}): Promise<SupportResults> {
  const samples = options.smoke ? 10 : NOTIFICATIONS;
  const streamCount = options.smoke ? 20 : STREAMS;
  const apiKey = `aicw_bench_${randomBytes(16).toString('hex')}`;
  const pglite = { AI_CHAT_DATA_DIR: 'memory://', DATABASE_URL: '', REDIS_URL: '', AI_CHAT_API_KEY: apiKey };

  // One PGlite instance for the notifications and the streams (each visitor its own conversation).
  log(`support: ${samples} handoff notifications on one instance (PGlite)`);
  const [notifyOne, streams] = await withInstances(pglite, 1, async ([one]) => {
    const desk = await openDesk(one!.url, apiKey);
    const notified = await notificationLatency(desk, one!.url, one!.url, samples);
    log(`support: ${streamCount} visitor streams on one instance (PGlite)`);
    return [notified, await withOperatorOnline(desk, one!.url, () => visitorStreams(desk, one!.url, streamCount, log))] as const;
  });

  let notifyTwo: Latencies | null = null;
  let streamsPostgres: StreamLatencies | null = null;
  if (POSTGRES_URL && REDIS_URL) {
    log(`support: ${samples} handoff notifications, visitor on instance A, operator on B (PostgreSQL + Redis)`);
    const database = await freshPostgresDatabase(POSTGRES_URL);
    try {
      const env = { DATABASE_URL: database.url, REDIS_URL, AI_CHAT_API_KEY: apiKey };
      [notifyTwo, streamsPostgres] = await withInstances(env, 2, async ([a, b]) => {
        const desk = await openDesk(a!.url, apiKey);
        const notified = await notificationLatency(desk, a!.url, b!.url, samples);
        log(`support: ${streamCount} visitor streams on instance A (PostgreSQL + Redis)`);
        return [notified, await withOperatorOnline(desk, a!.url, () => visitorStreams(desk, a!.url, streamCount, log))] as const;
      });
    } finally {
      await database.drop();
    }
  }
  return { notifyOne, notifyTwo, streams, streamsPostgres };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

export function supportRows(r: SupportResults): Row[] {
  const notifyRow = (id: string, where: string, l: Latencies | null): Row => ({
    id,
    label: l
      ? `handoff asked → operator's inbox stream, ${where}: p99 (p50 ${ms(l.p50)}, ${l.samples} asks, ${l.missing} missing)`
      : `handoff asked → operator's inbox stream, ${where}: skipped (no PostgreSQL + Redis configured)`,
    unit: 'ms',
    ours: l?.p99 ?? null,
    deepChat: null,
    goal: '≤ 1,000 ms p99',
    met: l ? l.p99 <= 1000 && l.missing === 0 : undefined,
  });
  const streamsRow = (id: string, where: string, s: StreamLatencies | null): Row => ({
    id,
    label: s
      ? `${s.streams.toLocaleString('en-US')} visitor streams open, ${where}: operator reply sent → visitor's stream p99 (p50 ${ms(s.p50FromSent)}; from the POST answered p50 ${ms(s.p50)}, p99 ${ms(s.p99)}; ${REPLY_RATE} replies/s, ${s.missing} missing)`
      : `visitor streams open, ${where}: skipped (no PostgreSQL + Redis configured)`,
    unit: 'ms',
    // from the operator's Send, not the POST's answer: the service publishes before it answers, so
    // only the send time counts a service too busy to take the reply
    ours: s?.p99FromSent ?? null,
    deepChat: null,
    goal: '≤ 200 ms p99',
    met: s ? s.p99FromSent <= 200 && s.missing === 0 : undefined,
  });
  return [
    notifyRow('support.notify.one', 'one instance (PGlite)', r.notifyOne),
    notifyRow('support.notify.two', 'visitor on A, operator on B (PostgreSQL + Redis)', r.notifyTwo),
    streamsRow('support.streams', 'one instance (PGlite)', r.streams),
    streamsRow('support.streams.postgres', 'one instance (PostgreSQL + Redis)', r.streamsPostgres),
  ];
}
