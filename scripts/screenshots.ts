/// <reference types="node" />
/**
 * The screenshot gallery: `npm run screenshots` renders the README's pictures from the real demo
 * server (`npm start`'s pages, the widget from dist/, the demo bot through the token proxy) in
 * Debian's chromium: light, dark, right-to-left (Arabic), a 375 px phone with the launcher open,
 * and a failed message with Retry. test/node/screenshots.test.ts runs the same code into a
 * temporary directory and checks every image.
 *
 * Usage: node --import tsx scripts/screenshots.ts [outDir | --docs]   (run `npm run build` first)
 * The default, out/screenshots, is ignored by git: a run never rewrites tracked files unless asked
 * with `--docs` (docs/screenshots, the README's gallery) or a folder.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { inflateSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const root = fileURLToPath(new URL('../', import.meta.url));
const executablePath = process.env.CHROME_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export interface DemoServer {
  url: string;
  stop(): Promise<void>;
}

interface Scene {
  /** File name without `.png`. */
  name: string;
  /** Page and query (the try-it page takes every attribute as a query parameter). */
  path: string;
  viewport: { width: number; height: number };
  /** Puts the widget into the state to capture. */
  act(page: Page, context: BrowserContext): Promise<void>;
  /** `element`: only the widget; `page`: the whole viewport. */
  capture: 'element' | 'page';
  /** False for pages without a widget (the dashboard). Default true. */
  widget?: boolean;
}

const DESKTOP = { width: 1100, height: 820 };

/** Sends `text` through the widget's input like a user, and waits for the assistant's answer. */
async function converse(page: Page, text: string): Promise<void> {
  const replies = () =>
    page.evaluate(() => (document.querySelector('ai-chat-widget') as unknown as { messages: Array<{ role: string }> }).messages.filter((m) => m.role === 'assistant').length);
  const before = await replies();
  await page.locator('ai-chat-widget textarea').fill(text);
  await page.locator('ai-chat-widget textarea').press('Enter');
  await page.waitForFunction(
    (count) => (document.querySelector('ai-chat-widget') as unknown as { messages: Array<{ role: string; status: string }> }).messages.filter((m) => m.role === 'assistant' && m.status === 'sent').length > count,
    before,
    { timeout: 15_000 },
  );
}

/** The widget is upgraded and has its token (the composer is usable). */
async function widgetReady(page: Page): Promise<void> {
  await page.waitForFunction(() => customElements.get('ai-chat-widget') !== undefined);
  await page.locator('ai-chat-widget').evaluate((el) => (el as unknown as { updateComplete: Promise<unknown> }).updateComplete);
}

export const SCENES: Scene[] = [
  {
    name: 'light',
    path: '/try-it.html',
    viewport: DESKTOP,
    capture: 'element',
    act: (page) => converse(page, 'What plans do you offer?'),
  },
  {
    name: 'dark',
    path: '/try-it.html?theme=dark',
    viewport: DESKTOP,
    capture: 'element',
    act: (page) => converse(page, 'How do I install it?'),
  },
  {
    name: 'rtl-arabic',
    path: `/try-it.html?lang=ar&dir=rtl&title=${encodeURIComponent('الدعم')}&welcome-message=${encodeURIComponent('مرحبًا! كيف يمكنني مساعدتك اليوم؟')}`,
    viewport: DESKTOP,
    capture: 'element',
    act: (page) => converse(page, 'مرحبا'),
  },
  {
    name: 'mobile-launcher-open',
    path: '/index.html',
    viewport: { width: 375, height: 740 },
    capture: 'page',
    act: async (page) => {
      await page.locator('ai-chat-widget .launcher').click();
      await converse(page, 'How much does billing cost?');
    },
  },
  {
    name: 'error-retry',
    path: '/try-it.html',
    viewport: DESKTOP,
    capture: 'element',
    act: async (page, context) => {
      // offline: the widget fails the message at once and keeps it with a Retry button
      await context.setOffline(true);
      await page.locator('ai-chat-widget textarea').fill('Is my invoice ready?');
      await page.locator('ai-chat-widget textarea').press('Enter');
      await page.locator('ai-chat-widget [part~="retry-button"]').waitFor({ timeout: 10_000 });
    },
  },
  {
    name: 'dashboard',
    path: '/dashboard/',
    viewport: { width: 1280, height: 860 },
    capture: 'page',
    widget: false,
    act: dashboardOverview,
  },
];

/**
 * The dashboard's overview on a fresh install: the first sign-up (the owner of the demo bot), a
 * few questions to the demo bot through the session, then the overview with its charts.
 */
async function dashboardOverview(page: Page): Promise<void> {
  await page.locator('aicd-sign-in input[name="email"]').fill('owner@example.com');
  await page.locator('aicd-sign-in input[name="password"]').fill('correct horse battery');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.locator('aicd-app nav').waitFor();
  await page.evaluate(async () => {
    const { csrf_token } = (await (await fetch('/dashboard/api/me')).json()).data;
    const headers = { 'content-type': 'application/json', 'x-csrf-token': csrf_token };
    const bots = (await (await fetch('/dashboard/api/v1/bots')).json()).data.items;
    let answered: string | undefined;
    for (const content of ['What plans do you offer?', 'How do I install it?', 'Can I pay by invoice?', 'Do you sell hats?']) {
      const res = await fetch('/dashboard/api/v1/chat', { method: 'POST', headers, body: JSON.stringify({ bot_id: bots[0].id, messages: [{ role: 'user', content }] }) });
      answered ??= (await res.json()).data.message.id;
    }
    // A thumbs down, so the feedback chart has data to draw (an empty chart says "No data yet").
    await fetch(`/dashboard/api/v1/messages/${answered}/feedback`, { method: 'POST', headers, body: JSON.stringify({ rating: 'down', bot_id: bots[0].id }) });
  });
  await page.goto(`${new URL(page.url()).origin}/dashboard/#/keys`);
  await page.locator('aicd-keys-page table').waitFor();
  await page.goto(`${new URL(page.url()).origin}/dashboard/#/overview`);
  await page.waitForFunction(() => {
    const overview = document.querySelector('aicd-app')?.shadowRoot?.querySelector('aicd-overview-page');
    const charts = [...(overview?.shadowRoot?.querySelectorAll('aicd-chart') ?? [])];
    return charts.length === 4 && charts.every((chart) => chart.shadowRoot?.querySelector('canvas'));
  });
}

/**
 * `npm start`'s server on a free port with a temporary database (scripts/demo-server.mjs);
 * `extraEnv` adds environment variables (e.g. `AI_CHAT_PROXY_ORIGINS`).
 */
export async function startDemoServer(options: { extraEnv?: Record<string, string> } = {}): Promise<DemoServer> {
  const serverModule = new URL('./demo-server.mjs', import.meta.url).href;
  const module = (await import(serverModule)) as { startDemoServer(o: typeof options): Promise<DemoServer> };
  return module.startDemoServer(options);
}

/** Debian's chromium with the flags this machine needs (see the toolchain notes). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}

/**
 * Renders every scene into `outDir` and returns the written files. Starts (and stops) its own demo
 * server unless one is given.
 */
export async function takeScreenshots(outDir: string, given?: DemoServer): Promise<string[]> {
  mkdirSync(outDir, { recursive: true });
  const server = given ?? (await startDemoServer());
  const browser = await launchChromium();
  const files: string[] = [];
  try {
    for (const scene of SCENES) {
      // reduced motion: no entry animations half-way through a frame
      const context = await browser.newContext({ viewport: scene.viewport, reducedMotion: 'reduce', colorScheme: 'light' });
      try {
        const page = await context.newPage();
        await page.goto(`${server.url}${scene.path}`);
        if (scene.widget !== false) await widgetReady(page);
        await scene.act(page, context);
        // the resting state: no focus ring on the input
        if (scene.widget !== false) await page.locator('ai-chat-widget textarea').blur();
        await page.evaluate(() => document.fonts.ready);
        const file = join(outDir, `${scene.name}.png`);
        const png =
          scene.capture === 'page'
            ? await page.screenshot({ animations: 'disabled', caret: 'hide' })
            : await page.locator('ai-chat-widget').screenshot({ animations: 'disabled', caret: 'hide' });
        writeFileSync(file, png);
        files.push(file);
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
    if (!given) await server.stop();
  }
  return files;
}

export interface PngSummary {
  width: number;
  height: number;
  /** Distinct RGB colours. */
  colours: number;
  /** Share of pixels that have the most common colour (1 = a blank image). */
  dominantShare: number;
}

/** Decodes an 8-bit, non-interlaced RGB or RGBA PNG (what chromium writes) and summarises it. */
export function inspectPng(data: Buffer): PngSummary {
  if (data.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (offset < data.length) {
    const length = data.readUInt32BE(offset);
    const type = data.toString('latin1', offset + 4, offset + 8);
    const body = data.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [bitDepth, colourType, , , interlace] = body.subarray(8, 13);
      if (bitDepth !== 8 || interlace !== 0 || (colourType !== 2 && colourType !== 6)) {
        throw new Error(`unsupported PNG: depth ${bitDepth}, colour type ${colourType}, interlace ${interlace}`);
      }
      channels = colourType === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? pixels[out + x - channels] : 0;
      const b = y > 0 ? pixels[out - stride + x] : 0;
      const c = x >= channels && y > 0 ? pixels[out - stride + x - channels] : 0;
      let predictor = 0;
      if (filter === 1) predictor = a;
      else if (filter === 2) predictor = b;
      else if (filter === 3) predictor = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      pixels[out + x] = (line[x] + predictor) & 0xff;
    }
  }
  const counts = new Map<number, number>();
  for (let i = 0; i < pixels.length; i += channels) {
    const rgb = (pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2];
    counts.set(rgb, (counts.get(rgb) ?? 0) + 1);
  }
  const dominant = Math.max(...counts.values());
  return { width, height, colours: counts.size, dominantShare: dominant / (width * height) };
}

/** Where the command line asks the pictures to go: a folder, `--docs` for the README's, else `out/screenshots`. */
export function screenshotsDir(args: readonly string[]): string {
  const [first] = args;
  if (first === '--docs') return join(root, 'docs', 'screenshots');
  return first ? resolve(first) : join(root, 'out', 'screenshots');
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const outDir = screenshotsDir(process.argv.slice(2));
  const started = Date.now();
  const files = await takeScreenshots(outDir);
  for (const file of files) {
    const { width, height, colours } = inspectPng((await import('node:fs')).readFileSync(file));
    console.log(`${file}: ${width}×${height}, ${colours} colours`);
  }
  console.log(`${files.length} screenshots in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
