/**
 * `npm run bench`: size, browser and server measurements of ai-chat-widget side by side with
 * deep-chat, in one run on one machine. Prints one table and writes `bench/results.json`.
 *
 *   node --import tsx bench/run.ts [--smoke] [--only=size,browser,server] [--out=path.json]
 *
 * `chat` (part of `server`) runs on PGlite and, when AI_CHAT_BENCH_DATABASE_URL or AI_CHAT_TEST_DATABASE_URL
 * names a PostgreSQL server, in a fresh database there too; with a Redis as well (AI_CHAT_BENCH_REDIS_URL or
 * AI_CHAT_TEST_REDIS_URL), one service instance against two (child processes) on that PostgreSQL + Redis.
 *
 * `--only` also takes the server's parts alone (`chat`, `search`, `proxy`), for profiling one of them,
 * `markdown` for the browser's streamed-markdown rows alone, and `analytics` (the conversation list and
 * the analytics reports with 1,000,000 stored messages, on PGlite and on PostgreSQL when
 * AI_CHAT_BENCH_DATABASE_URL or AI_CHAT_TEST_DATABASE_URL names a server). `knowledge-quality`
 * (only when asked): a banking-FAQ bot's right answers and abstentions (knowledge-quality.ts).
 *
 * `nlu` (only when asked): CLINC150 intents trained and asked through the API (nlu.ts).
 * `channels` (only when asked): a Telegram webhook's acknowledgements at 200 deliveries/s and its
 * replays, against the fake Telegram API, on PostgreSQL when one is configured (channels.ts).
 * `support` (only when asked): a handoff reaching the operator's inbox stream on one instance and across two,
 * and 2,000 visitor streams open at once with an operator reply to each (support.ts).
 * `webhooks` (only when asked): outgoing webhooks' delivery latency, and every event of a simulated
 * 10-minute receiver outage delivered afterwards (webhooks.ts).
 *
 * `--smoke`: the smallest sizes and one iteration, to check the bench itself works (not for numbers).
 * CHROMIUM_PATH overrides /usr/bin/chromium. Run `npm run build` first: it measures `dist/`.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, freemem, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { measureAnalytics } from './analytics.ts';
import { measureBrowser, type BrowserResults } from './browser.ts';
import { knowledgeImportRows, measureKnowledgeImport } from './knowledge-import.ts';
import { knowledgeQualityRows, measureKnowledgeQuality } from './knowledge-quality.ts';
import { formatTable, type Row } from './lib/table.ts';
import { channelRows, measureChannels } from './channels.ts';
import { measureNlu, nluRows } from './nlu.ts';
import { analyticsRows, browserRows, serverRows, sizeRows } from './rows.ts';
import { measureServer, SERVER_PARTS, type ServerPart } from './server.ts';
import { measureSizes } from './size.ts';
import { measureSupport, supportRows } from './support.ts';
import { measureWebhooks, webhookRows } from './webhooks.ts';

const root = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url));
const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const only = new Set((args.find((a) => a.startsWith('--only='))?.slice(7) ?? 'size,browser,server,analytics').split(','));
const out = args.find((a) => a.startsWith('--out='))?.slice(6) ?? root('bench/results.json');

const settings = smoke
  ? {
      browser: {
        iterations: 1, transcriptSizes: [10, 20, 50], appendAt: 20, tokens: 50, tokenIntervalMs: 2,
        markdown: { bytes: 5 * 1024, iterations: 1, deadlineMs: 20_000, deltasPerWrite: 20, writeIntervalMs: 4 },
      },
      server: { durationSeconds: 1, concurrency: [1, 10, 50], knowledgeSizes: [100, 200, 300], knowledgeWrites: 2, latencyMs: 400 },
      analytics: { messages: 2_000, latencyMs: 100 },
    }
  : {
      browser: {
        iterations: 5, transcriptSizes: [100, 1000, 5000], appendAt: 1000, tokens: 1000, tokenIntervalMs: 2,
        markdown: { bytes: 300 * 1024, iterations: 3, deadlineMs: 60_000, deltasPerWrite: 20, writeIntervalMs: 4 },
      },
      server: { durationSeconds: 5, concurrency: [1, 10, 50], knowledgeSizes: [1000, 10000, 100000], knowledgeWrites: 30, latencyMs: 3000 },
      analytics: { messages: 1_000_000, latencyMs: 2000 },
    };

const paths = {
  iife: root('dist/ai-chat-widget.iife.js'),
  esm: root('dist/ai-chat-widget.js'),
  deepChat: root('node_modules/deep-chat/dist/deepChat.bundle.js'),
};
const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

function chromiumVersion(): string {
  try {
    return execFileSync(executablePath, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
const machine = {
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? 'unknown',
  memoryGiB: +(totalmem() / 2 ** 30).toFixed(1),
  freeMemoryGiB: +(freemem() / 2 ** 30).toFixed(1),
  node: process.version,
  chromium: chromiumVersion(),
  loadAverage: (await import('node:os')).loadavg().map((l) => +l.toFixed(2)),
};
const started = Date.now();
const rows: Row[] = [];
const details: Record<string, unknown> = {};

if (only.has('size')) {
  log('size');
  const sizes = measureSizes(paths);
  rows.push(...sizeRows(sizes));
  details.size = sizes;
}
if (only.has('browser') || only.has('markdown')) {
  const parts = { widgets: only.has('browser'), markdown: true };
  log(`browser (${settings.browser.iterations} iterations per metric, ${settings.browser.markdown.iterations} for the markdown stream)`);
  const browser = await measureBrowser({ ...settings.browser, parts, paths, executablePath });
  const { transcriptSizes, appendAt, tokens, markdown } = settings.browser;
  rows.push(...browserRows(browser, transcriptSizes, appendAt, tokens, markdown.bytes));
  details.browser = browser;
}
const serverParts = only.has('server') ? [...SERVER_PARTS] : SERVER_PARTS.filter((part: ServerPart) => only.has(part));
if (serverParts.length) {
  log(`server: ${serverParts.join(', ')} (${settings.server.durationSeconds} s per autocannon cell)`);
  const server = await measureServer({ ...settings.server, parts: serverParts }, log);
  rows.push(...serverRows(server));
  details.server = server;
}

if (only.has('analytics')) {
  const analytics = await measureAnalytics(settings.analytics, log);
  rows.push(...analyticsRows(analytics));
  details.analytics = analytics;
}

if (only.has('knowledge-quality')) {
  const quality = await measureKnowledgeQuality(log);
  rows.push(...knowledgeQualityRows(quality));
  details.knowledgeQuality = quality;
}

if (only.has('knowledge-import')) {
  const imported = await measureKnowledgeImport(log);
  rows.push(...knowledgeImportRows(imported));
  details.knowledgeImport = imported;
}

if (only.has('channels')) {
  const channels = await measureChannels(log, { smoke });
  rows.push(...channelRows(channels));
  details.channels = channels;
}

if (only.has('support')) {
  const support = await measureSupport(log, { smoke });
  rows.push(...supportRows(support));
  details.support = support;
}

if (only.has('webhooks')) {
  const webhooks = await measureWebhooks(log, { smoke });
  rows.push(...webhookRows(webhooks));
  details.webhooks = webhooks;
}

if (only.has('nlu')) {
  const nlu = await measureNlu(log, { smoke });
  rows.push(...nluRows(nlu));
  details.nlu = nlu;
}

const result = { date: new Date().toISOString(), smoke, machine, settings, seconds: (Date.now() - started) / 1000, rows, details };
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);

console.log(`ai-chat-widget bench${smoke ? ' (--smoke: tiny sizes, 1 iteration — not for numbers)' : ''}`);
console.log(`${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.chromium}`);
console.log();
console.log(formatTable(rows));
const breakdown = (details.size as { iifeBreakdown?: { group: string; bytes: number }[] } | undefined)?.iifeBreakdown;
if (breakdown) {
  const total = breakdown.reduce((sum, b) => sum + b.bytes, 0);
  console.log('\nIIFE bytes by module (minified, before compression):');
  for (const b of breakdown.slice(0, 15)) {
    console.log(`  ${b.group.padEnd(44)} ${String(b.bytes).padStart(7)} B  ${((100 * b.bytes) / total).toFixed(1).padStart(5)} %`);
  }
  if (breakdown.length > 15) console.log(`  … ${breakdown.length - 15} more in ${out}`);
}
const measured = details.browser as BrowserResults | undefined;
const warnings = [measured?.ours, measured?.deep, measured?.markdown?.ours, measured?.markdown?.deep].flatMap((r) => r?.warnings ?? []);
for (const w of warnings) console.log(`warning: ${w}`);
console.log(`\n${result.seconds.toFixed(1)} s; written to ${out}`);
