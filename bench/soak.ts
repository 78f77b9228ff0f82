/**
 * Soak test of the reference service (not part of `npm test`): 50 concurrent connections on
 * loopback for a bounded time against the real server (PGlite on a temporary data directory, in a
 * child process so its memory is measured alone), with a mix of chat turns, bot messages,
 * knowledge searches and history reads. Reports errors (must be 0), requests per second, p50/p99
 * latency per kind, and the server's memory every 5 s (flat: the end within +15 % of the 20-s mark).
 *
 *   node --import tsx bench/soak.ts [--seconds 60] [--connections 50] [--out bench/soak-results.json]
 *
 * Exits 1 when there were errors or memory was not flat.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const API_KEY = 'aicw_sk_soak-test-key-0123456789abcdef';
const SAMPLE_MS = 5_000;

interface MemorySample {
  at: number;
  rss: number;
  heapUsed: number;
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

// ---------------------------------------------------------------- the server (child) side

async function serveChild(): Promise<void> {
  const { startServer } = await import(fileURLToPath(new URL('../server/src/index.ts', import.meta.url)));
  const dataDir = mkdtempSync(join(tmpdir(), 'aicw-soak-'));
  const running = await startServer({
    dataDir,
    apiKey: API_KEY,
    seed: false,
    logLevel: 'error',
    port: 0,
    rateLimit: { points: 100_000_000, durationSeconds: 60 },
  });
  process.on('message', (message: string) => {
    if (message === 'memory') {
      const { rss, heapUsed } = process.memoryUsage();
      process.send!({ type: 'memory', rss, heapUsed });
    } else if (message === 'stop') {
      void running.close().finally(() => {
        rmSync(dataDir, { recursive: true, force: true });
        process.exit(0);
      });
    }
  });
  process.send!({ type: 'ready', url: running.url });
}

// ---------------------------------------------------------------- the load (parent) side

function startChild(): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(fileURLToPath(import.meta.url), ['--server'], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited early (${code})`)));
    child.on('message', (m: { type: string; url?: string }) => {
      if (m.type === 'ready') resolve({ child, url: m.url! });
    });
  });
}

function memoryOf(child: ChildProcess): Promise<Omit<MemorySample, 'at'>> {
  return new Promise((resolve) => {
    const onMessage = (m: { type: string; rss: number; heapUsed: number }) => {
      if (m.type !== 'memory') return;
      child.off('message', onMessage);
      resolve({ rss: m.rss, heapUsed: m.heapUsed });
    };
    child.on('message', onMessage);
    child.send('memory');
  });
}

async function call(url: string, path: string, body?: unknown): Promise<{ status: number; data: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- setup reads a few fields
  const res = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data?: unknown };
  return { status: res.status, data: json.data };
}

const TOPICS = ['refunds', 'shipping', 'install', 'pricing', 'accessibility', 'themes', 'tokens', 'streaming', 'history', 'limits'];

async function setUp(url: string): Promise<{ botId: string }> {
  const bot = await call(url, '/v1/bots', {
    name: 'Soak bot',
    training: {
      intents: [
        { name: 'greeting', examples: ['hello', 'hi there', 'good morning', 'hey'], responses: ['Hello! How can I help?'] },
        { name: 'pricing', examples: ['how much does it cost', 'what is the price', 'is it free'], responses: ['It is free.'] },
        { name: 'install', examples: ['how do I install it', 'installation guide', 'setup'], responses: ['Run npm install.'] },
      ],
    },
  });
  if (bot.status !== 201) throw new Error(`bot: ${bot.status}`);
  for (let i = 0; i < 60; i++) {
    const topic = TOPICS[i % TOPICS.length]!;
    const res = await call(url, '/v1/knowledge', { title: `${topic} ${i}`, content: `All about ${topic}: entry ${i}. `.repeat(20), tags: [topic] });
    if (res.status !== 201) throw new Error(`knowledge: ${res.status}`);
  }
  return { botId: bot.data.id };
}

type Kind = 'chat' | 'bot_message' | 'search' | 'history';

/** One request of the mix: 30 % chat, 30 % bot messages, 25 % search, 15 % history. */
function nextRequest(n: number, botId: string): { kind: Kind; path: string; body?: unknown } {
  const user = `soak-user-${n % 200}`;
  const topic = TOPICS[n % TOPICS.length]!;
  const r = (n * 7919) % 100;
  if (r < 30) return { kind: 'chat', path: '/v1/chat', body: { messages: [{ role: 'user', content: `tell me about ${topic}` }], user_id: user } };
  if (r < 60) return { kind: 'bot_message', path: `/v1/bots/${botId}/messages`, body: { message: n % 2 ? 'hello' : 'how much does it cost', user_id: user } };
  if (r < 85) return { kind: 'search', path: `/v1/knowledge/search?q=${topic}&limit=5` };
  return { kind: 'history', path: `/v1/chat/history?user_id=${user}&limit=20` };
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

async function main(): Promise<void> {
  const seconds = Number(arg('seconds', '60'));
  const connections = Number(arg('connections', '50'));
  const out = arg('out', '');
  const { child, url } = await startChild();
  const { botId } = await setUp(url);

  const latencies = new Map<Kind, number[]>();
  const errors: string[] = [];
  const memory: MemorySample[] = [];
  let counter = 0;
  let done = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const sample = async () => memory.push({ at: Math.round((performance.now() - started) / 1000), ...(await memoryOf(child)) });
  await sample();
  const sampler = setInterval(() => void sample(), SAMPLE_MS);

  async function worker(): Promise<void> {
    while (performance.now() < deadline) {
      const request = nextRequest(counter++, botId);
      const t0 = performance.now();
      try {
        const res = await fetch(`${url}${request.path}`, {
          method: request.body === undefined ? 'GET' : 'POST',
          headers: { authorization: `Bearer ${API_KEY}`, ...(request.body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: request.body === undefined ? undefined : JSON.stringify(request.body),
        });
        const text = await res.text();
        if (res.status !== 200) errors.push(`${request.kind} ${res.status} ${text.slice(0, 200)}`);
      } catch (error) {
        errors.push(`${request.kind} ${(error as Error).message}`);
      }
      const list = latencies.get(request.kind) ?? [];
      list.push(performance.now() - t0);
      latencies.set(request.kind, list);
      done++;
    }
  }
  await Promise.all(Array.from({ length: connections }, worker));
  clearInterval(sampler);
  const elapsed = (performance.now() - started) / 1000;
  await sample();
  child.send('stop');
  await new Promise((resolve) => child.once('exit', resolve));

  const all = [...latencies.values()].flat().sort((a, b) => a - b);
  const byKind = Object.fromEntries(
    [...latencies].map(([kind, list]) => {
      const sorted = list.sort((a, b) => a - b);
      return [kind, { count: sorted.length, p50: Math.round(percentile(sorted, 50)), p99: Math.round(percentile(sorted, 99)) }];
    }),
  );
  // "flat": after warm-up, the end is within +15 % of the 20-s mark (or the first sample after it)
  const mark = memory.find((m) => m.at >= Math.min(20, seconds / 3)) ?? memory[0]!;
  const middle = memory[Math.floor(memory.length / 2)]!;
  const end = memory.at(-1)!;
  const flat = end.rss <= mark.rss * 1.15;
  const result = {
    seconds: Math.round(elapsed * 10) / 10,
    connections,
    requests: done,
    errors: errors.length,
    first_errors: errors.slice(0, 5),
    requests_per_second: Math.round(done / elapsed),
    latency_ms: { p50: Math.round(percentile(all, 50)), p99: Math.round(percentile(all, 99)) },
    by_kind: byKind,
    memory_mb: {
      start: { rss: mb(memory[0]!.rss), heap: mb(memory[0]!.heapUsed) },
      [`at_${mark.at}s`]: { rss: mb(mark.rss), heap: mb(mark.heapUsed) },
      middle: { at: middle.at, rss: mb(middle.rss), heap: mb(middle.heapUsed) },
      end: { rss: mb(end.rss), heap: mb(end.heapUsed) },
      samples: memory.map((m) => ({ at: m.at, rss: mb(m.rss), heap: mb(m.heapUsed) })),
    },
    memory_flat: flat,
  };
  console.log(JSON.stringify(result, null, 2));
  if (out) writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  process.exitCode = errors.length === 0 && flat ? 0 : 1;
}

if (process.argv.includes('--server')) await serveChild();
else await main();
