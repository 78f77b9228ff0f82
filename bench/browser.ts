/**
 * Browser measurements: playwright-core drives Debian's chromium; both widgets load into the same
 * page shell from the same loopback server, and every metric is taken `iterations` times on a fresh
 * page (the median is reported).
 */
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
  paths: { iife: string; deepChat: string };
  executablePath: string;
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

export interface BrowserResults {
  ours: WidgetResults;
  deep: WidgetResults;
  chromiumVersion: string;
}

export async function measureBrowser(config: BrowserConfig): Promise<BrowserResults> {
  const server = await startStaticServer({
    tokens: config.tokens,
    tokenIntervalMs: config.tokenIntervalMs,
    files: {
      '/': { path: here('./page/index.html'), type: 'text/html; charset=utf-8' },
      '/harness.js': { path: here('./page/harness.js'), type: 'text/javascript' },
      '/ours.js': { path: config.paths.iife, type: 'text/javascript' },
      '/deep.js': { path: config.paths.deepChat, type: 'text/javascript' },
    },
  });
  const browser = await chromium.launch({ executablePath: config.executablePath, headless: true, args: CHROMIUM_ARGS });
  try {
    // interleaved order would be fairer against drift, but one widget at a time keeps pages isolated
    const ours = await measureWidget(browser, server, 'ours', config);
    const deep = await measureWidget(browser, server, 'deep', config);
    return { ours, deep, chromiumVersion: browser.version() };
  } finally {
    await browser.close();
    await server.close();
  }
}
