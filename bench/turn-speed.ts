/**
 * Probe: how long one bot message takes through `POST /v1/bots/{id}/messages` for a bot trained
 * on CLINC150's full `train` split (15,000 examples, 150 intents), on a real service instance
 * (embedded PGlite unless DATABASE_URL is set). 300 sequential messages from the `test` split;
 * prints p50/p99 in milliseconds.
 *
 *   node --import tsx bench/turn-speed.ts [--messages=300] [--shots=10]
 *
 * `--shots=N` trains on each intent's first N examples instead, for comparison: with the training
 * data kept out of a turn, the two should take about as long.
 */
import { readFileSync } from 'node:fs';
import { optionsFromEnv } from '../server/src/config.ts';
import { startServer } from '../server/src/index.ts';
import { percentile } from './lib/stats.ts';

type Split = [text: string, intent: string][];

const API_KEY = 'ak_bench_turn_speed_0123456789';
const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const count = Number(flag('messages') ?? 300);
const shots = Number(flag('shots') ?? Infinity);

const data = JSON.parse(readFileSync(new URL('./data/clinc150/data_full.json', import.meta.url), 'utf8')) as Record<string, Split>;
const byIntent = new Map<string, string[]>();
for (const [text, intent] of data.train!) byIntent.set(intent, [...(byIntent.get(intent) ?? []), text]);
const intents = [...byIntent].map(([name, examples]) => ({ name, examples: examples.slice(0, shots), responses: [`(${name})`] }));

// The full training set is about 700 KB of JSON: the body limit is raised as its owner would.
const running = await startServer({
  ...optionsFromEnv(),
  seed: false,
  logLevel: 'error',
  port: 0,
  apiKey: API_KEY,
  maxBodyBytes: 4 * 1024 * 1024,
  rateLimit: { points: 1e9, durationSeconds: 60 },
});
const call = async (path: string, body: unknown) => {
  const res = await fetch(`${running.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const envelope = (await res.json()) as { data: any; error?: unknown };
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(envelope.error)}`);
  return envelope.data;
};
try {
  const bot = await call('/v1/bots', { name: 'CLINC150', training: { intents } });
  const test = data.test!;
  const ms: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await call(`/v1/bots/${bot.id}/messages`, { message: test[i % test.length]![0], user_id: `u${i % 50}` });
    ms.push(performance.now() - t0);
  }
  const round = (x: number) => Math.round(x * 10) / 10;
  console.log(JSON.stringify({ examples: intents.reduce((n, i) => n + i.examples.length, 0), messages: count, p50_ms: round(percentile(ms, 50)), p99_ms: round(percentile(ms, 99)) }));
} finally {
  await running.close();
}
