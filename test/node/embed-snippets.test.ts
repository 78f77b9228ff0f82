/// <reference types="node" />
// The bot editor's embed snippets, exactly as src/dashboard/pages/embed-snippet.ts renders them for
// a real bot, run as pasted: the Express proxy is a site's server of its own (a child process on
// loopback) serving a page that holds the script tag, on another origin than the service; real
// chromium opens that page, and the widget in it answers a message and, reloaded, reads its history
// through the proxy. The Next.js route handler is imported and called as Next calls it: its
// exported GET and POST with real `Request`s. Needs `npm run build` (the package as installed).
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import type { Bot } from '../../src/client/index.js';
import { proxySnippet, scriptTagSnippet } from '../../src/dashboard/pages/embed-snippet.js';
import { createBot, startService, type RunningService } from './proxy-harness.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const SECRET = 'an-embed-snippet-secret-of-at-least-32-bytes';

let service: RunningService;
let apiKey = '';
let bot: Bot;
let work = '';

/** A site's project: the package (this repository) and what the snippets import, installed as links. */
function siteProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ai-chat-embed-snippets-'));
  const link = (name: string, target = join(root, 'node_modules', name)) => {
    mkdirSync(dirname(join(dir, 'node_modules', name)), { recursive: true });
    symlinkSync(target, join(dir, 'node_modules', name));
  };
  link('ai-chat-widget', root);
  for (const name of ['@types/node', 'tsx', 'express', '@types/express']) link(name);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'a-site', private: true, type: 'module' }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'bundler', strict: true, skipLibCheck: true, noEmit: true, types: ['node'] },
      include: ['server.ts', 'app'],
    }),
  );
  // Reports the port the site's server listens on (it is started with PORT=0), as an event.
  writeFileSync(
    join(dir, 'report-port.mjs'),
    `import net from 'node:net';
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  this.once('listening', () => process.send({ port: this.address().port }));
  return listen.apply(this, args);
};
`,
  );
  return dir;
}

/** Starts `server.ts` of the site as its own program; its origin once it listens. */
async function startSite(): Promise<{ origin: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', './report-port.mjs', 'server.ts'], {
    cwd: work,
    env: { ...process.env, PORT: '0', AI_CHAT_API_KEY: apiKey, AI_CHAT_PROXY_SECRET: SECRET },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`the site's server exited (${code}) before it listened`)));
  });
  // `localhost`: another origin than the service's `127.0.0.1:<port>`
  return { origin: `http://localhost:${port}`, child };
}

describe('embed snippets, as the bot editor renders them', () => {
  before(async () => {
    const { mountStatic } = (await import(new URL('../../server/src/static.ts', import.meta.url).href)) as {
      mountStatic(app: unknown, repoRoot: string): void;
    };
    // the service serves the built widget at /dist, as `npm start` does: the script tag loads it from there
    service = await startService({ mount: (app: unknown) => mountStatic(app, root) });
    apiKey = (await service.service.createAccount({ name: 'embed snippets' })).apiKey;
    const id = await createBot(service.url, apiKey);
    const read = await fetch(`${service.url}/v1/bots/${id}`, { headers: { authorization: `Bearer ${apiKey}` } });
    bot = ((await read.json()) as { data: Bot }).data;
    work = siteProject();
  });
  after(async () => {
    await service?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('type-check as a TypeScript project that installed the package', async () => {
    writeFileSync(join(work, 'server.ts'), proxySnippet(bot, service.url, 'express'));
    mkdirSync(join(work, 'app/ai/[...path]'), { recursive: true });
    writeFileSync(join(work, 'app/ai/[...path]/route.ts'), proxySnippet(bot, service.url, 'nextjs'));
    try {
      await promisify(execFile)(join(root, 'node_modules', '.bin', 'tsc'), ['-p', work], { encoding: 'utf8' });
    } catch (error) {
      assert.fail(`tsc:\n${(error as { stdout?: string }).stdout ?? error}`);
    }
  });

  it('the script tag on a page of the Express proxy snippet\'s server: the widget answers and reads its history', { timeout: 120_000 }, async () => {
    writeFileSync(join(work, 'server.ts'), proxySnippet(bot, service.url, 'express'));
    mkdirSync(join(work, 'public'), { recursive: true });
    writeFileSync(
      join(work, 'public/index.html'),
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A site</title></head><body>\n${scriptTagSnippet(bot, service.url)}\n</body></html>\n`,
    );
    const site = await startSite();
    let browser: Browser | undefined;
    try {
      assert.notEqual(new URL(site.origin).origin, new URL(service.url).origin, 'the page is on another origin than the service');
      browser = await chromium.launch({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
      const page = await browser.newPage();
      const calls: string[] = [];
      page.on('request', (request) => calls.push(`${request.method()} ${request.url()}`));
      await page.goto(`${site.origin}/`);

      const widget = page.locator('ai-chat-widget');
      await widget.locator('[part~="launcher"]').click();
      await widget.locator('[part~="input"]').fill('hello');
      await widget.locator('[part~="input"]').press('Enter');
      await widget.locator('[part~="message-assistant"]', { hasText: 'Hello!' }).waitFor();
      assert.ok(calls.includes(`POST ${site.origin}/ai/token`), `the widget got its token from the proxy: ${calls.join(', ')}`);
      assert.ok(!calls.some((c) => c.includes(`${service.url}/v1`)), 'the page never calls the service itself');

      await page.reload();
      await widget.locator('[part~="launcher"]').click();
      await widget.locator('[part~="message-user"]', { hasText: 'hello' }).waitFor();
      await widget.locator('[part~="message-assistant"]', { hasText: 'Hello!' }).waitFor();
      assert.ok(
        calls.some((c) => c.startsWith(`GET ${site.origin}/ai/v1/chat/history`)),
        `the reloaded widget read its history through the proxy: ${calls.join(', ')}`,
      );
    } finally {
      await browser?.close();
      site.child.kill();
    }
  });

  it('the Next.js route handler: its GET and POST mint a token, chat, and read the history', async () => {
    const file = join(work, 'app/ai/[...path]/route.ts');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, proxySnippet(bot, service.url, 'nextjs'));
    const saved = { ...process.env };
    Object.assign(process.env, { AI_CHAT_API_KEY: apiKey, AI_CHAT_PROXY_SECRET: SECRET });
    // Next calls an exported method unbound, with the request and the route's context
    type RouteHandler = (request: Request, context: { params: Promise<{ path: string[] }> }) => Promise<Response>;
    let module: Record<string, RouteHandler>;
    try {
      module = (await import(pathToFileURL(file).href)) as typeof module;
    } finally {
      process.env = saved;
    }
    const route = {
      GET: (request: Request) => module.GET!(request, { params: Promise.resolve({ path: new URL(request.url).pathname.split('/').slice(2) }) }),
      POST: (request: Request) => module.POST!(request, { params: Promise.resolve({ path: new URL(request.url).pathname.split('/').slice(2) }) }),
    };
    const site = 'https://app.example'; // the page is on the Next app's own origin
    const minted = await route.POST(new Request(`${site}/ai/token`, { method: 'POST', headers: { origin: site, 'content-type': 'application/json' }, body: '{}' }));
    const token = ((await minted.json()) as { data?: { token: string; api_base: string } }).data;
    assert.equal(minted.status, 200, 'POST /ai/token mints a token');
    assert.equal(token!.api_base, '/ai/v1', "the script tag's base-url");
    const headers = { origin: site, authorization: `Bearer ${token!.token}`, 'content-type': 'application/json' };
    const chat = await route.POST(new Request(`${site}/ai/v1/bots/${bot.id}/messages`, { method: 'POST', headers, body: JSON.stringify({ message: 'hello' }) }));
    const reply = (await chat.json()) as { data?: { conversation_id: string; message: { content: string } } };
    assert.equal(chat.status, 200, JSON.stringify(reply));
    assert.equal(reply.data!.message.content, 'Hello!');
    const history = await route.GET(new Request(`${site}/ai/v1/chat/history?conversation_id=${reply.data!.conversation_id}`, { headers }));
    const messages = ((await history.json()) as { data?: { items: { content: string }[] } }).data;
    assert.equal(history.status, 200, 'GET /ai/v1/chat/history is exported and answers');
    assert.deepEqual(messages!.items.map((m) => m.content), ['hello', 'Hello!']);
  });
});
