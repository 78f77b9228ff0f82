/**
 * The conversation list and every analytics report with N stored messages (`lib/message-seed.ts`),
 * on embedded PGlite and, when a server is configured, on PostgreSQL: sequential GET requests on one
 * keep-alive connection, p50/p95/p99 per endpoint.
 *
 * PostgreSQL: AI_CHAT_BENCH_DATABASE_URL, else AI_CHAT_TEST_DATABASE_URL (a role that may create
 * databases); a fresh database `aicw_bench_<random>` is made for the run and dropped after it.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startServer } from '../server/src/index.ts';
import { sequentialLatency } from './lib/latency.ts';
import { seedMessages } from './lib/message-seed.ts';
import { percentile } from './lib/stats.ts';

export interface ReportLatency {
  count: number;
  p50: number;
  p95: number;
  p99: number;
}

export interface AnalyticsResults {
  messages: number;
  /** Seconds spent storing the messages, per database. */
  seedSeconds: Partial<Record<DatabaseKind, number>>;
  /** Endpoint label → latency, per database; `postgres` is null when no server is configured. */
  pglite: Record<string, ReportLatency>;
  postgres: Record<string, ReportLatency> | null;
}

export type DatabaseKind = 'pglite' | 'postgres';

export interface AnalyticsConfig {
  messages: number;
  /** Milliseconds of sequential requests per endpoint. */
  latencyMs: number;
}

export const POSTGRES_URL = process.env.AI_CHAT_BENCH_DATABASE_URL || process.env.AI_CHAT_TEST_DATABASE_URL || undefined;

/** The endpoints measured, by label. */
function endpoints(botId: string, userId: string): Record<string, string> {
  const week = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
  return {
    'GET /v1/conversations': '/v1/conversations',
    'GET /v1/conversations?bot_id': `/v1/conversations?bot_id=${botId}`,
    'GET /v1/conversations?user_id': `/v1/conversations?user_id=${userId}`,
    'GET /v1/conversations?from&to': `/v1/conversations?from=${week}&to=${new Date().toISOString().slice(0, 10)}`,
    'GET /v1/conversations?q (rare word)': '/v1/conversations?q=zeppelin',
    'GET /v1/conversations?q (common word)': '/v1/conversations?q=refund',
    'GET /v1/conversations?q (two words)': `/v1/conversations?q=${encodeURIComponent('delivery address')}`,
    'GET /v1/analytics/usage': '/v1/analytics/usage',
    'GET /v1/analytics/usage?granularity=hour': '/v1/analytics/usage?granularity=hour',
    'GET /v1/analytics/performance': '/v1/analytics/performance',
    'GET /v1/analytics/performance?bot_id': `/v1/analytics/performance?bot_id=${botId}`,
    'GET /v1/analytics/topics': '/v1/analytics/topics',
    'GET /v1/analytics/topics?bot_id': `/v1/analytics/topics?bot_id=${botId}`,
  };
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

async function measureOn(
  kind: DatabaseKind,
  database: { dataDir: string } | { databaseUrl: string },
  config: AnalyticsConfig,
  seedSeconds: AnalyticsResults['seedSeconds'],
): Promise<Record<string, ReportLatency>> {
  const running = await startServer({ ...database, seed: false, logLevel: 'silent', port: 0, rateLimit: { points: 1e9, durationSeconds: 60 } });
  try {
    const { service, url } = running;
    const { apiKey, accountId } = await service.createAccount({ name: 'bench analytics', rateLimit: { points: 1e9, durationSeconds: 60 } });
    const started = performance.now();
    const seeded = await seedMessages(service.deps.db, accountId, config.messages);
    seedSeconds[kind] = +((performance.now() - started) / 1000).toFixed(1);
    const results: Record<string, ReportLatency> = {};
    for (const [label, path] of Object.entries(endpoints(seeded.botIds[3]!, seeded.userId))) {
      const samples: number[] = [];
      const spec = { url: `${url}${path}`, method: 'GET' as const, headers: { authorization: `Bearer ${apiKey}` } };
      // Sequential requests, each timed; 3 warm-up requests fill the caches as a running service has them.
      await sequentialLatency(spec, 0, 3);
      const end = performance.now() + config.latencyMs;
      while (performance.now() < end || samples.length < 5) {
        const t = performance.now();
        const res = await fetch(spec.url, { headers: spec.headers });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`${label} answered ${res.status}`);
        samples.push(performance.now() - t);
      }
      results[label] = { count: samples.length, p50: percentile(samples, 50), p95: percentile(samples, 95), p99: percentile(samples, 99) };
    }
    return results;
  } finally {
    await running.close();
  }
}

export async function measureAnalytics(config: AnalyticsConfig, log: (message: string) => void = () => {}): Promise<AnalyticsResults> {
  const seedSeconds: AnalyticsResults['seedSeconds'] = {};
  log(`analytics: PGlite, ${config.messages.toLocaleString('en-US')} messages`);
  const pglite = await measureOn('pglite', { dataDir: 'memory://' }, config, seedSeconds);
  let postgres: Record<string, ReportLatency> | null = null;
  if (POSTGRES_URL) {
    const name = `aicw_bench_${randomBytes(6).toString('hex')}`;
    await admin(POSTGRES_URL, `CREATE DATABASE ${name}`);
    try {
      const target = new URL(POSTGRES_URL);
      target.pathname = `/${name}`;
      log(`analytics: PostgreSQL, ${config.messages.toLocaleString('en-US')} messages`);
      postgres = await measureOn('postgres', { databaseUrl: target.toString() }, config, seedSeconds);
    } finally {
      await admin(POSTGRES_URL, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  } else {
    log('analytics: no PostgreSQL configured (AI_CHAT_BENCH_DATABASE_URL or AI_CHAT_TEST_DATABASE_URL): its rows are skipped');
  }
  return { messages: config.messages, seedSeconds, pglite, postgres };
}
