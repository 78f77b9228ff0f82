/** Turns the three sections' results into the table's rows, with the goals from the issue. */
import type { AnalyticsResults, ReportLatency } from './analytics.ts';
import type { BrowserResults, WidgetResults } from './browser.ts';
import type { ServerResults } from './server.ts';
import type { InstancesResults, ThroughputCell, ThroughputSet } from './throughput.ts';
import type { SizeResults } from './size.ts';
import type { Row } from './lib/table.ts';

const KB = 1024;
const n = (value: number) => value.toLocaleString('en-US');

export function sizeRows(s: SizeResults): Row[] {
  return [
    { id: 'size.iife.gzip', label: 'IIFE (all-in-one <script>), gzip -9', unit: 'KB', ours: s.oursIife.gzip, deepChat: s.deepChat.gzip,
      goal: '≤ 30 KB', met: s.oursIife.gzip <= 30 * KB },
    { id: 'size.iife.brotli', label: 'IIFE, brotli q11', unit: 'KB', ours: s.oursIife.brotli, deepChat: s.deepChat.brotli },
    { id: 'size.esm.gzip', label: 'ESM entry + chunks, minified, lit external, gzip -9', unit: 'KB', ours: s.oursEsm.gzip, deepChat: s.deepChat.gzip },
    { id: 'size.esm.brotli', label: 'ESM entry + chunks, brotli q11', unit: 'KB', ours: s.oursEsm.brotli, deepChat: s.deepChat.brotli },
  ];
}

export function browserRows(b: BrowserResults, sizes: number[], appendAt: number, tokens: number, markdownBytes: number): Row[] {
  return [...(b.ours && b.deep ? widgetRows(b.ours, b.deep, sizes, appendAt, tokens) : []), ...markdownRows(b, markdownBytes)];
}

function markdownRows(b: BrowserResults, bytes: number): Row[] {
  if (!b.markdown) return [];
  const { ours, deep } = b.markdown;
  const size = `${n(Math.round(bytes / KB))} KB`;
  const unfinished = (r: typeof ours) => (r.completed ? '' : ' (did not finish)');
  return [
    { id: 'browser.markdown.longest', label: `stream ${size} markdown: longest task`, unit: 'ms', ours: ours.longestTaskMs,
      deepChat: deep.longestTaskMs, goal: '≤ 50 ms', met: ours.completed > 0 && ours.longestTaskMs <= 50,
      note: `0 = no long task (> 50 ms) observed${unfinished(ours)}; deep-chat${unfinished(deep)}` },
    { id: 'browser.markdown.cpu', label: `stream ${size} markdown: longest task, CPU time`, unit: 'ms', ours: ours.longestTaskCpuMs,
      deepChat: deep.longestTaskCpuMs, note: 'thread CPU time from a Chromium trace: the task without the wait for a core' },
    { id: 'browser.markdown.main', label: `stream ${size} markdown: main-thread time`, unit: 'ms', ours: ours.mainThreadMs,
      deepChat: deep.mainThreadMs },
  ];
}

function widgetRows(ours: WidgetResults, deep: WidgetResults, sizes: number[], appendAt: number, tokens: number): Row[] {
  return [
    { id: 'browser.ready', label: 'script evaluation → element ready', unit: 'ms', ours: ours.bootMs, deepChat: deep.bootMs,
      goal: '≤ 50 ms', met: ours.bootMs <= 50 },
    { id: 'browser.open', label: 'open panel + focus input → paint', unit: 'ms', ours: ours.openFocusMs, deepChat: deep.openFocusMs,
      note: 'deep-chat has no launcher: focusInput() only' },
    ...sizes.map((size, i): Row => ({
      id: `browser.render.${i + 1}`, label: `render ${n(size)}-message transcript → paint`, unit: 'ms',
      ours: ours.renderMs[size] ?? null, deepChat: deep.renderMs[size] ?? null,
    })),
    { id: 'browser.append', label: `append 1 message at ${n(appendAt)} → next paint`, unit: 'ms', ours: ours.appendMs, deepChat: deep.appendMs,
      goal: '≤ 16 ms', met: ours.appendMs <= 16 },
    { id: 'browser.stream.longest', label: `stream ${n(tokens)} tokens: longest task`, unit: 'ms', ours: ours.streamLongestTaskMs,
      deepChat: deep.streamLongestTaskMs, goal: 'no task > 50 ms', met: ours.streamLongestTaskMs <= 50,
      note: '0 = no long task (> 50 ms) observed' },
    { id: 'browser.stream.main', label: `stream ${n(tokens)} tokens: main-thread time`, unit: 'ms', ours: ours.streamMainThreadMs,
      deepChat: deep.streamMainThreadMs },
    { id: 'browser.heap', label: `JS heap after ${n(Math.max(...sizes))} messages (after GC)`, unit: 'MB', ours: ours.heapBytes, deepChat: deep.heapBytes,
      goal: '≤ deep-chat', met: ours.heapBytes <= deep.heapBytes },
  ];
}

const CEILING_GOAL: Record<'pglite' | 'postgres', number> = { pglite: 0.25, postgres: 0.5 };

/** `cpu`: the in-process rows' CPU per request (load generator included), which the machine's load moves far less than req/s. */
function cellLabel(cell: ThroughputCell, ceiling?: ThroughputCell, cpu = false): string {
  const errors = cell.errors ? `, ${cell.errors} errors` : '';
  const share = ceiling ? `${(cell.requestsPerSecond / ceiling.requestsPerSecond).toFixed(2)} of ceiling, ` : '';
  const time = cpu ? `, cpu ${cell.cpuMsPerRequest.toFixed(2)} ms/req, loop ${cell.loopBusy.toFixed(2)} busy` : '';
  return `c=${cell.concurrency} (${share}p50 ${cell.p50} ms, p99 ${cell.p99} ms${time}${errors})`;
}

/**
 * One database's rows: the no-op ceiling, then each endpoint per concurrency with its share of the
 * ceiling; the goal (a share of the ceiling at the ceiling's concurrency) is checked at that concurrency.
 */
function throughputRows(database: 'pglite' | 'postgres', set: ThroughputSet): Row[] {
  const name = database === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const prefix = database === 'pglite' ? 'server' : 'server.postgres';
  const goal = CEILING_GOAL[database];
  const endpointRows = (key: string, endpoint: string, cells: ThroughputCell[]) =>
    cells.map((cell, i): Row => {
      const share = cell.requestsPerSecond / set.ceiling.requestsPerSecond;
      return {
        id: `${prefix}.${key}.${i + 1}`,
        label: `${name}: ${endpoint} ${cellLabel(cell, set.ceiling, true)}`,
        unit: 'req/s',
        ours: cell.requestsPerSecond,
        deepChat: null,
        ...(cell.concurrency === set.ceiling.concurrency && { goal: `≥ ${goal} × ceiling`, met: share >= goal }),
      };
    });
  return [
    { id: `${prefix}.ceiling`, label: `${name}: authenticated no-op (ceiling) ${cellLabel(set.ceiling, undefined, true)}`, unit: 'req/s',
      ours: set.ceiling.requestsPerSecond, deepChat: null, note: 'GET to an unknown /v1 route: usage record, auth, rate limit, 404' },
    ...endpointRows('chat', 'POST /v1/chat', set.chat),
    ...endpointRows('bot', 'POST /v1/bots/{id}/messages', set.botMessages),
  ];
}

function instancesRows(r: InstancesResults): Row[] {
  const gain = r.two.requestsPerSecond / r.one.requestsPerSecond;
  return [
    { id: 'server.instances.1', label: `PostgreSQL + Redis, 1 instance: POST /v1/chat ${cellLabel(r.one)}`, unit: 'req/s',
      ours: r.one.requestsPerSecond, deepChat: null },
    { id: 'server.instances.2', label: `PostgreSQL + Redis, 2 instances: POST /v1/chat ${cellLabel(r.two)}, ${gain.toFixed(2)}× of 1`,
      unit: 'req/s', ours: r.two.requestsPerSecond, deepChat: null },
  ];
}

export function serverRows(s: ServerResults): Row[] {
  const sizes = Object.keys(s.search).map(Number).sort((a, b) => a - b);
  const proxyRows: Row[] = [];
  if (s.proxy) {
    const overhead = s.proxy.proxied.p50 - s.proxy.direct.p50;
    proxyRows.push({ id: 'server.proxy', label: `proxy overhead, p50 (direct ${s.proxy.direct.p50.toFixed(2)} ms, proxied ${s.proxy.proxied.p50.toFixed(2)} ms)`,
      unit: 'ms', ours: overhead, deepChat: null, goal: '≤ 1 ms', met: overhead <= 1 });
  }
  return [
    ...(s.throughput ? throughputRows('pglite', s.throughput.pglite) : []),
    ...(s.throughput?.postgres ? throughputRows('postgres', s.throughput.postgres) : []),
    ...(s.throughput && !s.throughput.postgres
      ? [{ id: 'server.postgres.skipped', label: 'PostgreSQL throughput rows skipped: set AI_CHAT_BENCH_DATABASE_URL (or AI_CHAT_TEST_DATABASE_URL)',
          unit: 'req/s' as const, ours: null, deepChat: null, note: 'no PostgreSQL server configured' }]
      : []),
    ...(s.instances ? instancesRows(s.instances) : []),
    ...sizes.map((size, i): Row => ({
      id: `server.search.${i + 1}`,
      label: `GET /v1/knowledge/search, ${n(size)} entries: p99 (p50 ${s.search[size]!.p50.toFixed(2)} ms)`,
      unit: 'ms',
      ours: s.search[size]!.p99,
      deepChat: null,
      ...(i === sizes.length - 1 && { goal: '≤ 10 ms p99', met: s.search[size]!.p99 <= 10 }),
    })),
    ...knowledgeWriteRows(s),
    ...proxyRows,
  ];
}

function knowledgeWriteRows(s: ServerResults): Row[] {
  const w = s.knowledgeWrites;
  if (!w) return [];
  const at = `at ${n(w.entries)} entries`;
  return [
    { id: 'server.knowledge.write', label: `knowledge write → searchable ${at}: p99 (p50 ${w.writeToSearchable.p50.toFixed(2)} ms)`, unit: 'ms',
      ours: w.writeToSearchable.p99, deepChat: null, goal: '≤ 50 ms', met: w.writeToSearchable.p99 <= 50,
      note: `${w.writeToSearchable.count} writes (create, update, delete), each timed until a search sees it` },
    { id: 'server.knowledge.block', label: `knowledge writes ${at}: longest event-loop block`, unit: 'ms', ours: w.longestBlockDuringWritesMs,
      deepChat: null, goal: '≤ 50 ms', met: w.longestBlockDuringWritesMs <= 50 },
    { id: 'server.knowledge.cold', label: `cold index build ${at} (${(w.coldBuildMs / 1000).toFixed(1)} s): longest event-loop block`, unit: 'ms',
      ours: w.longestBlockDuringColdBuildMs, deepChat: null, goal: '≤ 50 ms', met: w.longestBlockDuringColdBuildMs <= 50 },
    { id: 'server.knowledge.search', label: `GET /v1/knowledge/search ${at} after the writes: p99 (p50 ${w.searchAfterWrites.p50.toFixed(2)} ms)`,
      unit: 'ms', ours: w.searchAfterWrites.p99, deepChat: null, goal: '≤ 10 ms p99', met: w.searchAfterWrites.p99 <= 10 },
  ];
}

/**
 * The conversation list and the analytics reports with N stored messages: p95 per endpoint and
 * database (p50 and p99 in the label). PostgreSQL rows exist only when a server was configured;
 * otherwise one row without a value says why.
 */
export function analyticsRows(a: AnalyticsResults): Row[] {
  const rowsFor = (database: 'pglite' | 'postgres', name: string, results: Record<string, ReportLatency>): Row[] =>
    Object.entries(results).map(([endpoint, r], i) => ({
      id: `analytics.${database}.${i + 1}`,
      label: `${name}, ${n(a.messages)} messages: ${endpoint} p95 (p50 ${r.p50.toFixed(1)}, p99 ${r.p99.toFixed(1)} ms)`,
      unit: 'ms',
      ours: r.p95,
      deepChat: null,
      goal: '≤ 100 ms p95',
      met: r.p95 <= 100,
    }));
  return [
    ...rowsFor('pglite', 'PGlite', a.pglite),
    ...(a.postgres
      ? rowsFor('postgres', 'PostgreSQL', a.postgres)
      : [{ id: 'analytics.postgres.skipped', label: 'PostgreSQL rows skipped: set AI_CHAT_BENCH_DATABASE_URL (or AI_CHAT_TEST_DATABASE_URL)', unit: 'ms' as const,
          ours: null, deepChat: null, note: 'no PostgreSQL server configured' }]),
  ];
}
