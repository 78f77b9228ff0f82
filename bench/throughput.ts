/**
 * Throughput of the two chat endpoints against the machine's own ceiling: an
 * authenticated no-op request — a GET to an unknown /v1 route, which goes through usage recording,
 * authentication and the rate limit and answers `route_not_found` — under the same load. Each chat
 * or bot row is then a ratio to that ceiling, measured in the same run on the same server.
 *
 * `measureThroughput` runs in this process (the load generator shares the thread and the 2 cores,
 * as every server row here does); `measureInstances` runs the service in child processes on one
 * PostgreSQL + Redis, one instance against two with the load split across them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { startServer } from '../server/src/index.ts';

export interface ThroughputCell {
  concurrency: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /**
   * CPU time of this process per answered request (user + system), load generator included: on a
   * machine shared with other work, wall-clock req/s moves with the load, CPU per request far less.
   * Meaningful for the in-process rows only (with child-process instances it is the load generator's).
   */
  cpuMsPerRequest: number;
  /**
   * The share of the cell's wall-clock time this process's event loop was busy (0–1): near 1, the
   * in-process service and load generator are the limit; well below, they wait (on the database).
   */
  loopBusy: number;
}

/** One database's throughput rows: the ceiling, then chat and bot messages per concurrency. */
export interface ThroughputSet {
  ceiling: ThroughputCell;
  chat: ThroughputCell[];
  botMessages: ThroughputCell[];
}

/** The chat endpoint at one concurrency, on one instance and on two sharing the load. */
export interface InstancesResults {
  concurrency: number;
  one: ThroughputCell;
  two: ThroughputCell;
}

export const CEILING_CONCURRENCY = 50;
const chatBody = (userId: string) => JSON.stringify({ messages: [{ role: 'user', content: 'hello, what are your opening hours?' }], user_id: userId });
const botBody = (userId: string) => JSON.stringify({ message: 'hello there', user_id: userId });
export const CHAT_BODY = chatBody('bench-user');
const NOOP_PATH = '/v1/bench-no-op';
const RATE_LIMIT = { points: 1e9, durationSeconds: 60 };

/** PostgreSQL for the bench: a role that may create databases (each run gets a fresh one). */
export const POSTGRES_URL = process.env.AI_CHAT_BENCH_DATABASE_URL || process.env.AI_CHAT_TEST_DATABASE_URL || undefined;
export const REDIS_URL = process.env.AI_CHAT_BENCH_REDIS_URL || process.env.AI_CHAT_TEST_REDIS_URL || undefined;

interface Target {
  url: string;
  method: 'GET' | 'POST';
  /**
   * The body per connection: each connection is one end user (its own user_id), as 50 visitors
   * chatting at once are; one user sending 50 messages at once would queue them on the lock of that
   * user's one conversation (turns of one conversation take turns, by design).
   */
  body?: (userId: string) => string;
  /** The status every answer must have; anything else counts as an error. */
  status: number;
}

export async function cannon(target: Target, apiKey: string, concurrency: number, seconds: number): Promise<ThroughputCell> {
  let connectionCount = 0; // the same users in every cell: bench-user-1 … bench-user-<concurrency>
  const cpuBefore = process.cpuUsage();
  const loopBefore = performance.eventLoopUtilization();
  const result = await autocannon({
    url: target.url,
    method: target.method,
    connections: concurrency,
    setupClient: target.body ? (client: { setBody(body: string): void }) => client.setBody(target.body!(`bench-user-${++connectionCount}`)) : undefined,
    duration: seconds,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
  });
  const cpu = process.cpuUsage(cpuBefore);
  const loop = performance.eventLoopUtilization(loopBefore);
  const byStatus: Record<string, { count: number }> = result.statusCodeStats ?? {};
  const answered = Object.values(byStatus).reduce((sum, s) => sum + s.count, 0);
  const expected = byStatus[String(target.status)]?.count ?? 0;
  return {
    concurrency,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + answered - expected,
    cpuMsPerRequest: answered ? (cpu.user + cpu.system) / 1000 / answered : 0,
    loopBusy: loop.utilization,
  };
}

/** Autocannon against several instances at once, `concurrency` split evenly; req/s summed, the worst latencies. */
async function cannonSplit(targets: Target[], apiKey: string, concurrency: number, seconds: number): Promise<ThroughputCell> {
  const cells = await Promise.all(targets.map((t) => cannon(t, apiKey, Math.max(1, Math.round(concurrency / targets.length)), seconds)));
  return {
    concurrency,
    requestsPerSecond: cells.reduce((sum, c) => sum + c.requestsPerSecond, 0),
    p50: Math.max(...cells.map((c) => c.p50)),
    p99: Math.max(...cells.map((c) => c.p99)),
    errors: cells.reduce((sum, c) => sum + c.errors, 0),
    cpuMsPerRequest: cells.reduce((sum, c) => sum + c.cpuMsPerRequest, 0) / cells.length,
    loopBusy: cells[0]?.loopBusy ?? 0, // one process's loop runs every cannon at once
  };
}

async function createBot(url: string, apiKey: string): Promise<string> {
  const res = await fetch(`${url}/v1/bots`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench bot', training: { intents: [{ name: 'greet', examples: ['hello', 'hi there'], responses: ['Hello!'] }] } }),
  });
  const bot = (await res.json()) as { data?: { id: string } };
  if (!bot.data) throw new Error(`creating the bench bot failed: ${res.status}`);
  return bot.data.id;
}

const targets = (url: string, botId: string) => ({
  noop: { url: `${url}${NOOP_PATH}`, method: 'GET', status: 404 } satisfies Target,
  chat: { url: `${url}/v1/chat`, method: 'POST', body: chatBody, status: 200 } satisfies Target,
  bot: { url: `${url}/v1/bots/${botId}/messages`, method: 'POST', body: botBody, status: 200 } satisfies Target,
});

/** The ceiling and both chat endpoints on one in-process server over `database`. */
export async function measureThroughput(
  database: { dataDir: string } | { databaseUrl: string },
  config: { durationSeconds: number; concurrency: number[] },
): Promise<ThroughputSet> {
  const running = await startServer({ ...database, seed: false, logLevel: 'silent', port: 0, rateLimit: RATE_LIMIT });
  try {
    const { apiKey } = await running.service.createAccount({ name: 'bench', rateLimit: RATE_LIMIT });
    const t = targets(running.url, await createBot(running.url, apiKey));
    // Warm-up (not timed): JIT, pools, and every bench user's open bot conversation, so the timed
    // cells measure turns of ongoing conversations, not 50 first contacts at once.
    if (config.durationSeconds > 1) await cannon(t.bot, apiKey, Math.max(...config.concurrency), 1); // not in --smoke
    // The ceiling before and after the cells, the better of the two: on a machine shared with other
    // work one cell can land in a busy spell, and a ceiling measured low would flatter every ratio.
    const first = await cannon(t.noop, apiKey, CEILING_CONCURRENCY, config.durationSeconds);
    const chat: ThroughputCell[] = [];
    const botMessages: ThroughputCell[] = [];
    for (const c of config.concurrency) {
      chat.push(await cannon(t.chat, apiKey, c, config.durationSeconds));
      botMessages.push(await cannon(t.bot, apiKey, c, config.durationSeconds));
    }
    const last = await cannon(t.noop, apiKey, CEILING_CONCURRENCY, config.durationSeconds);
    return { ceiling: last.requestsPerSecond > first.requestsPerSecond ? last : first, chat, botMessages };
  } finally {
    await running.close();
  }
}

/** A fresh PostgreSQL database for one run, dropped by `drop()` (FORCE: instances may still hold sessions). */
export async function freshPostgresDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `aicw_bench_${randomBytes(6).toString('hex')}`;
  await admin(serverUrl, `CREATE DATABASE ${name}`);
  const target = new URL(serverUrl);
  target.pathname = `/${name}`;
  return { url: target.toString(), drop: () => admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const INSTANCE_SCRIPT = fileURLToPath(new URL('./lib/instance.ts', import.meta.url));

export interface Instance {
  url: string;
  stop(): Promise<void>;
}

/** The service in its own process (`lib/instance.ts`), as a deployment runs it. */
export async function startInstance(env: Record<string, string>): Promise<Instance> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', INSTANCE_SCRIPT], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /^listening (http:\S+)$/m.exec(output);
      if (match) resolve(match[1]!);
    });
    void exited.then(() => reject(new Error(`bench instance exited before listening:\n${output}`)));
  });
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * `POST /v1/chat` at `concurrency` on one instance, then on two (each its own process, one
 * PostgreSQL database and one Redis, the load split evenly), in the same run.
 */
export async function measureInstances(
  postgresUrl: string,
  redisUrl: string,
  config: { durationSeconds: number; concurrency: number },
): Promise<InstancesResults> {
  const database = await freshPostgresDatabase(postgresUrl);
  const apiKey = `aicw_bench_${randomBytes(16).toString('hex')}`;
  const env = { DATABASE_URL: database.url, REDIS_URL: redisUrl, AI_CHAT_API_KEY: apiKey };
  const instances: Instance[] = [];
  try {
    instances.push(await startInstance(env)); // the first one migrates and creates the key's account
    instances.push(await startInstance(env));
    const botId = await createBot(instances[0]!.url, apiKey);
    const chatOf = (i: Instance) => targets(i.url, botId).chat;
    // Warm both (JIT, modules loaded on first use, connection pools) as long as a timed cell: a cold
    // instance answers its first seconds far slower, which would flatter whichever is timed later.
    await cannonSplit(instances.map(chatOf), apiKey, config.concurrency, config.durationSeconds);
    const one = await cannon(chatOf(instances[0]!), apiKey, config.concurrency, config.durationSeconds);
    const two = await cannonSplit(instances.map(chatOf), apiKey, config.concurrency, config.durationSeconds);
    return { concurrency: config.concurrency, one, two };
  } finally {
    for (const instance of instances) await instance.stop();
    await database.drop();
  }
}
