/**
 * Browser measurements: playwright-core drives Debian's chromium; both widgets load into the same
 * page shell from the same loopback server, and every metric is taken `iterations` times on a fresh
 * page (the median is reported).
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { median, sleep } from './lib/stats.ts';
import { startStaticServer, type StaticServer } from './static-server.ts';

export type WidgetName = 'ours' | 'deep';

export interface BrowserConfig {
  iterations: number;
  /** Transcript sizes for the render rows (ascending); the largest is also used for the heap row. */
  transcriptSizes: number[];
  /** Transcript the append is measured on. */
  appendAt: number;
  tokens: number;
  tokenIntervalMs: number;
  /** The streamed-markdown rows: reply size, fresh pages per widget, and how long to wait for it. */
  markdown: { bytes: number; iterations: number; deadlineMs: number; deltasPerWrite: number; writeIntervalMs: number };
  /** `widgets`: every row but the markdown stream; `markdown`: that one alone (both by default). */
  parts?: { widgets: boolean; markdown: boolean };
  paths: { iife: string; deepChat: string };
  executablePath: string;
}

export interface MarkdownStreamResults {
  longestTaskMs: number;
  /**
   * The longest task in main-thread CPU time (Chromium trace, `tdur`): what the page asked of the
   * processor, without the time it waited for a core on a busy machine. Null when not measured.
   */
  longestTaskCpuMs: number | null;
  /** The longest task of each page, in order. */
  longestTaskSamplesMs: number[];
  /** Null when the reply did not finish (CDP would wait for the page's busy main thread). */
  mainThreadMs: number | null;
  /** Fresh pages on which the whole reply showed before the deadline. */
  completed: number;
  warnings: string[];
}

export interface WidgetResults {
  bootMs: number;
  openFocusMs: number;
  renderMs: Record<number, number>;
  appendMs: number;
  streamLongestTaskMs: number;
  streamMainThreadMs: number;
  heapBytes: number;
  /** Anything that looked wrong (a message count off, focus not in the input). */
  warnings: string[];
}

/** The toolchain's flags: no sandbox as root, and nothing that calls out to the network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--enable-precise-memory-info',
];

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

async function freshPage(browser: Browser, server: StaticServer, widget: WidgetName): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 800, height: 800 } });
  // Loopback only: deep-chat asks Google Fonts for Inter; refused at once, as on an offline machine.
  await page.route((url) => url.hostname !== '127.0.0.1', (route) => route.abort());
  await page.goto(`${server.url}/?w=${widget}`);
  return page;
}

/** Main-thread task time of the page so far (CDP `TaskDuration`, seconds). */
async function mainThreadSeconds(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  return metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0;
}

async function measureWidget(browser: Browser, server: StaticServer, widget: WidgetName, config: BrowserConfig): Promise<WidgetResults> {
  const warnings: string[] = [];
  const samples = { boot: [] as number[], open: [] as number[], append: [] as number[], longest: [] as number[], main: [] as number[], heap: [] as number[] };
  const render: Record<number, number[]> = Object.fromEntries(config.transcriptSizes.map((n) => [n, []]));
  const largest = Math.max(...config.transcriptSizes);
  const lastToken = `tok${config.tokens - 1}`;

  for (let i = 0; i < config.iterations; i++) {
    const page = await freshPage(browser, server, widget);
    const cdp = await page.context().newCDPSession(page);
    try {
      samples.boot.push(await page.evaluate(() => (window as any).bench.boot()));

      const open = await page.evaluate(() => (window as any).bench.openFocus());
      samples.open.push(open.ms);
      if (i === 0 && !open.focused) warnings.push(`${widget}: focus was not inside the widget after opening`);

      for (const n of config.transcriptSizes) {
        const r = await page.evaluate((count) => (window as any).bench.renderTranscript(count), n);
        render[n]!.push(r.ms);
        if (i === 0 && r.rendered < n) warnings.push(`${widget}: ${r.rendered} of ${n} messages in the DOM after the first paint`);
        if (n === largest) {
          await cdp.send('HeapProfiler.collectGarbage');
          const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
          samples.heap.push(heap.usedSize);
        }
      }

      await page.evaluate((n) => (window as any).bench.renderTranscript(n), config.appendAt);
      const appended = await page.evaluate(() => (window as any).bench.append());
      samples.append.push(appended.ms);
      if (i === 0 && appended.added !== 1) warnings.push(`${widget}: append added ${appended.added} messages to the DOM`);

      await page.evaluate(() => (window as any).bench.mount({}));
      await cdp.send('Performance.enable');
      const done = new Promise<void>((resolve) => server.streamDone.once('done', () => resolve()));
      const before = await mainThreadSeconds(cdp);
      await page.evaluate(() => (window as any).bench.startStream());
      await done;
      await sleep(300); // the last chunks still travel and render
      const stream = await page.evaluate((t) => (window as any).bench.endStream(t), lastToken);
      const after = await mainThreadSeconds(cdp);
      samples.main.push((after - before) * 1000);
      samples.longest.push(Math.max(0, ...stream.longtasks));
      if (!stream.complete) warnings.push(`${widget}: the last streamed token did not reach the page`);
    } finally {
      await page.close();
    }
  }
  return {
    bootMs: median(samples.boot),
    openFocusMs: median(samples.open),
    renderMs: Object.fromEntries(Object.entries(render).map(([n, s]) => [n, median(s)])),
    appendMs: median(samples.append),
    streamLongestTaskMs: median(samples.longest),
    streamMainThreadMs: median(samples.main),
    heapBytes: median(samples.heap),
    warnings: [...new Set(warnings)],
  };
}

/**
 * The page's main-thread tasks in a Chromium trace (`RunTask` on `CrRendererMain`): the longest in
 * thread CPU time, and all of them in wall time (what CDP's `TaskDuration` counts), so this row
 * needs no CDP Performance domain in the page while it is measured.
 */
function rendererTasks(trace: Buffer): { longestCpuMs: number; totalMs: number } {
  type TraceEvent = { name: string; ph: string; pid: number; tid: number; dur?: number; tdur?: number; args?: { name?: string } };
  const { traceEvents } = JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] };
  const rendererMain = new Set(
    traceEvents.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`),
  );
  let longestCpuMs = 0;
  let totalMs = 0;
  for (const e of traceEvents) {
    if (e.name !== 'RunTask' || e.ph !== 'X' || !rendererMain.has(`${e.pid}:${e.tid}`)) continue;
    longestCpuMs = Math.max(longestCpuMs, (e.tdur ?? 0) / 1000);
    totalMs += (e.dur ?? 0) / 1000;
  }
  return { longestCpuMs, totalMs };
}

/** The marker that ends the markdown reply: the page knows it has the whole reply when it shows. */
const MARKDOWN_MARKER = 'end-of-the-streamed-markdown';

/**
 * One widget receives the long markdown reply on `iterations` fresh pages: the longest task while it
 * streams in and is rendered (PerformanceObserver `longtask`), and from a trace the longest task's
 * CPU time and the main-thread time. Long
 * tasks are reported through the console as they end, so a widget still busy at the deadline can be
 * cut off: its row is then the longest task seen, or the time the page has not answered for.
 */
async function measureMarkdownStream(browser: Browser, server: StaticServer, widget: WidgetName, config: BrowserConfig): Promise<MarkdownStreamResults> {
  const longest: number[] = [];
  const main: number[] = [];
  const cpu: number[] = [];
  const warnings: string[] = [];
  let completed = 0;
  for (let i = 0; i < config.markdown.iterations; i++) {
    const page = await freshPage(browser, server, widget);
    const seen: number[] = [];
    let lastBeat = Date.now();
    page.on('console', (message) => {
      const text = message.text();
      if (text.startsWith('bench:longtask ')) seen.push(Number(text.slice(15)));
      else if (text === 'bench:beat') lastBeat = Date.now();
    });
    let complete = false;
    try {
      await page.evaluate(() => (window as any).bench.boot());
      await page.evaluate(() => (window as any).bench.mount({ markdown: true }));
      // RunTask events with their CPU time. Both categories: with the second alone, this Chromium
      // ran a 25–35 ms task every half second. A trace left running by a page cut off at the
      // deadline makes this throw, and that page then has no CPU-time figure.
      const tracing = await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] }).then(() => true, () => false);
      await page.evaluate(() => (window as any).bench.startReportedStream());
      const shown = page.evaluate((marker) => (window as any).bench.awaitReply(marker), MARKDOWN_MARKER).then(() => true);
      complete = await Promise.race([shown, sleep(config.markdown.deadlineMs).then(() => false)]);
      shown.catch(() => {}); // rejected when the page closes at the deadline
      if (complete) {
        await sleep(100); // the last long-task entries are reported
        if (tracing) {
          const tasks = rendererTasks(await browser.stopTracing());
          cpu.push(tasks.longestCpuMs);
          main.push(tasks.totalMs);
        }
        completed++;
      } else {
        if (tracing) await Promise.race([browser.stopTracing().catch(() => null), sleep(10_000)]);
        const stuck = Date.now() - lastBeat; // the task running now has lasted at least this long
        if (stuck > 50) seen.push(stuck);
      }
      longest.push(Math.max(0, ...seen));
    } finally {
      await page.close();
    }
    if (!complete) {
      // a widget this slow is not measured again: it would only repeat the deadline
      warnings.push(`${widget}: the ${Math.round(config.markdown.bytes / 1024)} KB markdown reply was not all shown after ${config.markdown.deadlineMs / 1000} s; its longest task is a lower bound, its main-thread time not measured`);
      break;
    }
  }
  return {
    longestTaskMs: median(longest),
    longestTaskSamplesMs: longest,
    longestTaskCpuMs: cpu.length ? median(cpu) : null,
    mainThreadMs: main.length ? median(main) : null,
    completed,
    warnings,
  };
}

export interface BrowserResults {
  ours?: WidgetResults;
  deep?: WidgetResults;
  markdown?: { ours: MarkdownStreamResults; deep: MarkdownStreamResults };
  chromiumVersion: string;
}

export async function measureBrowser(config: BrowserConfig): Promise<BrowserResults> {
  const server = await startStaticServer({
    tokens: config.tokens,
    tokenIntervalMs: config.tokenIntervalMs,
    markdown: {
      bytes: config.markdown.bytes,
      marker: MARKDOWN_MARKER,
      deltasPerWrite: config.markdown.deltasPerWrite,
      writeIntervalMs: config.markdown.writeIntervalMs,
    },
    files: {
      '/': { path: here('./page/index.html'), type: 'text/html; charset=utf-8' },
      '/harness.js': { path: here('./page/harness.js'), type: 'text/javascript' },
      '/ours.js': { path: config.paths.iife, type: 'text/javascript' },
      '/deep.js': { path: config.paths.deepChat, type: 'text/javascript' },
      // the IIFE's add-ons (streamed replies, …), which it loads from beside itself
      ...Object.fromEntries(
        readdirSync(dirname(config.paths.iife))
          .filter((name) => /^ai-chat-widget\.[a-z-]+\.js$/.test(name) && !name.endsWith('.iife.js'))
          .map((name) => [`/${name}`, { path: join(dirname(config.paths.iife), name), type: 'text/javascript' }]),
      ),
    },
  });
  const browser = await chromium.launch({ executablePath: config.executablePath, headless: true, args: CHROMIUM_ARGS });
  try {
    const parts = config.parts ?? { widgets: true, markdown: true };
    const results: BrowserResults = { chromiumVersion: browser.version() };
    // interleaved order would be fairer against drift, but one widget at a time keeps pages isolated
    if (parts.widgets) {
      results.ours = await measureWidget(browser, server, 'ours', config);
      results.deep = await measureWidget(browser, server, 'deep', config);
    }
    if (parts.markdown) {
      const ours = await measureMarkdownStream(browser, server, 'ours', config);
      const deep = await measureMarkdownStream(browser, server, 'deep', config);
      results.markdown = { ours, deep };
    }
    return results;
  } finally {
    await browser.close();
    await server.close();
  }
}
