/**
 * Server measurements against the real reference service on loopback: throughput of the two chat
 * endpoints against the no-op ceiling (`throughput.ts`: PGlite, PostgreSQL, one instance against
 * two), knowledge search latency as the knowledge base grows (in-memory PGlite), and what the token
 * proxy adds to a chat request.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { createProxy } from '../src/proxy/index.ts';
import { toNodeHandler } from '../src/proxy/node.ts';
import { startServer } from '../server/src/index.ts';
import { newId } from '../server/src/ids.ts';
import { measureKnowledgeWrites, type KnowledgeWriteResults } from './knowledge-writes.ts';
import { sequentialLatency, type LatencyResult } from './lib/latency.ts';
import {
  CHAT_BODY,
  freshPostgresDatabase,
  measureInstances,
  measureThroughput,
  POSTGRES_URL,
  REDIS_URL,
  type InstancesResults,
  type ThroughputSet,
} from './throughput.ts';

export interface ServerConfig {
  /** Seconds per autocannon cell. */
  durationSeconds: number;
  concurrency: number[];
  /** Knowledge base sizes (ascending; the base grows from one to the next). */
  knowledgeSizes: number[];
  /** Rounds of create, update and delete on the largest knowledge base (3 writes each). */
  knowledgeWrites: number;
  /** Milliseconds of sequential requests per latency measurement. */
  latencyMs: number;
  /** Which parts to measure (default all): `--only=chat,search,proxy` narrows a run while profiling. */
  parts?: ServerPart[];
}

export type ServerPart = 'chat' | 'search' | 'proxy';
export const SERVER_PARTS: readonly ServerPart[] = ['chat', 'search', 'proxy'];

export interface ServerResults {
  /** The no-op ceiling and both chat endpoints, on PGlite and (with a server configured) on PostgreSQL. */
  throughput: { pglite: ThroughputSet; postgres: ThroughputSet | null } | null;
  /** One instance against two on one PostgreSQL + Redis; null without both configured or without `chat`. */
  instances: InstancesResults | null;
  search: Record<number, LatencyResult>;
  /** Writes on the largest knowledge base; absent when the run left search out. */
  knowledgeWrites: KnowledgeWriteResults | null;
  /** Absent when the run left the proxy out. */
  proxy: { direct: LatencyResult; proxied: LatencyResult } | null;
}

const WORDS = ('refund shipping delivery order invoice account password billing subscription warranty return exchange ' +
  'tracking package address payment card discount coupon support hours store pickup size colour fabric battery ' +
  'charger screen update install login email notification privacy data export cancel upgrade plan team seat').split(' ');

/** Deterministic pseudo-random words, so every run indexes the same knowledge base. */
function* words(seed: number): Generator<string> {
  let x = seed;
  for (;;) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    yield WORDS[x % WORDS.length]!;
  }
}

function entryText(i: number): { title: string; content: string } {
  const gen = words(i + 1);
  const take = (n: number) => Array.from({ length: n }, () => gen.next().value).join(' ');
  return { title: `Entry ${i}: ${take(4)}`, content: `${take(40)}. ${take(40)}.` };
}

/** The throughput rows: PGlite, then PostgreSQL in a fresh database, then one instance against two. */
async function measureChat(config: ServerConfig, log: (message: string) => void): Promise<Pick<ServerResults, 'throughput' | 'instances'>> {
  log('server: chat throughput on PGlite');
  const pglite = await measureThroughput({ dataDir: 'memory://' }, config);
  if (!POSTGRES_URL) {
    log('server: no PostgreSQL configured (AI_CHAT_BENCH_DATABASE_URL or AI_CHAT_TEST_DATABASE_URL): its throughput rows are skipped');
    return { throughput: { pglite, postgres: null }, instances: null };
  }
  log('server: chat throughput on PostgreSQL');
  const database = await freshPostgresDatabase(POSTGRES_URL);
  let postgres: ThroughputSet;
  try {
    postgres = await measureThroughput({ databaseUrl: database.url }, config);
  } finally {
    await database.drop();
  }
  if (!REDIS_URL) return { throughput: { pglite, postgres }, instances: null };
  log('server: one instance against two (PostgreSQL + Redis)');
  const instances = await measureInstances(POSTGRES_URL, REDIS_URL, { durationSeconds: config.durationSeconds, concurrency: Math.max(...config.concurrency) });
  return { throughput: { pglite, postgres }, instances };
}

export async function measureServer(config: ServerConfig, log: (message: string) => void = () => {}): Promise<ServerResults> {
  const parts = new Set(config.parts ?? SERVER_PARTS);
  const chat = parts.has('chat') ? await measureChat(config, log) : { throughput: null, instances: null };
  if (!parts.has('search') && !parts.has('proxy')) return { ...chat, search: {}, knowledgeWrites: null, proxy: null };
  const running = await startServer({
    dataDir: 'memory://',
    seed: false,
    logLevel: 'silent',
    port: 0,
    rateLimit: { points: 1e9, durationSeconds: 60 },
  });
  const proxyServers: ReturnType<typeof createServer>[] = [];
  try {
    const { service, url } = running;
    const { apiKey } = await service.createAccount({ name: 'bench', rateLimit: { points: 1e9, durationSeconds: 60 } });
    const auth = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };


    // Knowledge lives in its own tenant: the built-in chat responder searches its tenant's knowledge
    // base, so a 100k-entry base would otherwise slow the chat and proxy measurements down too.
    // Rows go straight into the table in batches (the API would take minutes for 100k); bumping
    // kb_revision without logging a change (knowledge_changes) makes the next search rebuild its index.
    const kbTenant = await service.createAccount({ name: 'bench knowledge', rateLimit: { points: 1e9, durationSeconds: 60 } });
    const kbAuth = { authorization: `Bearer ${kbTenant.apiKey}` };
    const search: Record<number, LatencyResult> = {};
    let inserted = 0;
    for (const size of parts.has('search') ? config.knowledgeSizes : []) {
      while (inserted < size) {
        const batch = Array.from({ length: Math.min(1000, size - inserted) }, (_, k) => {
          const { title, content } = entryText(inserted + k);
          return { id: newId('kb'), account_id: kbTenant.accountId, title, content, tags: JSON.stringify([]) as never, language: 'en', source: null };
        });
        await service.deps.db.insertInto('knowledge_entries').values(batch).execute();
        inserted += batch.length;
      }
      await service.deps.db.updateTable('accounts').set({ kb_revision: sql`kb_revision + 1` }).where('id', '=', kbTenant.accountId).execute();
      const spec = { url: `${url}/v1/knowledge/search?q=${encodeURIComponent('refund for a damaged package')}&limit=5`, method: 'GET' as const, headers: kbAuth };
      search[size] = await sequentialLatency(spec, config.latencyMs, 5); // the first warm-up request builds the index
    }
    let knowledgeWrites: KnowledgeWriteResults | null = null;
    if (inserted) {
      // A bump without a logged change: the next search must rebuild, which is the cold build measured.
      await service.deps.db.updateTable('accounts').set({ kb_revision: sql`kb_revision + 1` }).where('id', '=', kbTenant.accountId).execute();
      knowledgeWrites = await measureKnowledgeWrites(url, kbTenant.apiKey, inserted, config.knowledgeWrites, config.latencyMs);
    }

    if (!parts.has('proxy')) return { ...chat, search, knowledgeWrites, proxy: null };
    const proxy = createProxy({
      apiKey,
      upstream: url,
      secret: 'bench-secret-that-is-at-least-32-bytes-long',
      allowAnonymous: true,
      rateLimit: { perToken: false, perIp: false },
    });
    const proxyServer = createServer(toNodeHandler(proxy));
    proxyServers.push(proxyServer);
    await new Promise<void>((resolve) => proxyServer.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxyServer.address() as AddressInfo).port}`;
    const minted = await fetch(`${proxyUrl}/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const token = ((await minted.json()) as { data?: { token: string } }).data?.token;
    if (!token) throw new Error(`minting a proxy token failed: ${minted.status}`);
    // Alternate the two, so drift (other processes, a growing database) hits both alike.
    const direct: LatencyResult[] = [];
    const proxied: LatencyResult[] = [];
    const rounds = 4;
    for (let r = 0; r < rounds; r++) {
      direct.push(await sequentialLatency({ url: `${url}/v1/chat`, method: 'POST', headers: auth, body: CHAT_BODY }, config.latencyMs / rounds));
      proxied.push(
        await sequentialLatency(
          { url: `${proxyUrl}/v1/chat`, method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: CHAT_BODY },
          config.latencyMs / rounds,
        ),
      );
    }
    const merge = (parts: LatencyResult[]): LatencyResult => ({
      count: parts.reduce((n, p) => n + p.count, 0),
      p50: parts.map((p) => p.p50).sort((a, b) => a - b)[parts.length >> 1]!,
      p99: Math.max(...parts.map((p) => p.p99)),
    });
    return { ...chat, search, knowledgeWrites, proxy: { direct: merge(direct), proxied: merge(proxied) } };
  } finally {
    for (const s of proxyServers) {
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
    await running.close();
  }
}
