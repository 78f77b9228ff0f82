/// <reference types="node" />
// The one-snippet install, as a new user does it: the bot lists the site's origin, and the bot
// editor's snippet (src/dashboard/pages/embed-snippet.ts `installSnippet`, the text the editor
// renders and copies: test/dashboard/bots.test.ts) is pasted into a page of that site, on another
// origin than the service, with nothing else: no key, no proxy. Real chromium opens the page; the
// widget answers and, reloaded, reads its history. On a site the bot does not list, the widget
// says it is not set up, and the console (once) names the origin and where to list it.
// Needs `npm run build` (the service serves the built widget at /dist).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { installSnippet } from '../../src/dashboard/pages/embed-snippet.js';
import { closeServer, createBot, listen, startService, type RunningService } from './proxy-harness.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

let service: RunningService;
let browser: Browser;
let apiKey = '';
let bot: { id: string; name: string };
const sites: Server[] = [];

/** A site of the user's own: one page holding `body`, on `http://localhost:<port>` (not the service's origin). */
async function site(body: string): Promise<string> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A site</title></head><body>\n${body}\n</body></html>\n`);
  });
  sites.push(server);
  const url = await listen(server);
  return `http://localhost:${new URL(url).port}`;
}

async function listOrigins(origins: string[]): Promise<void> {
  const res = await fetch(`${service.url}/v1/bots/${bot.id}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ channels: [{ type: 'website', allowed_origins: origins }] }),
  });
  assert.equal(res.status, 200, await res.text());
}

describe('the one-snippet install', () => {
  before(async () => {
    const { mountStatic } = (await import(new URL('../../server/src/static.ts', import.meta.url).href)) as {
      mountStatic(app: unknown, repoRoot: string): void;
    };
    service = await startService({ mount: (app: unknown) => mountStatic(app, root) });
    apiKey = (await service.service.createAccount({ name: 'one snippet' })).apiKey;
    bot = { id: await createBot(service.url, apiKey), name: 'Proxy test bot' };
    browser = await chromium.launch({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  });
  after(async () => {
    await browser?.close();
    await Promise.all(sites.map(closeServer));
    await service?.close();
  });

  it('pasted into a page of a listed origin, the widget answers and, reloaded, reads its history', { timeout: 120_000 }, async () => {
    const origin = await site(installSnippet(bot, service.url));
    assert.notEqual(origin, new URL(service.url).origin, 'the page is on another origin than the service');
    await listOrigins([origin]);
    const page = await browser.newPage();
    const calls: string[] = [];
    page.on('request', (request) => calls.push(`${request.method()} ${request.url()}`));
    await page.goto(`${origin}/`);

    const widget = page.locator('ai-chat-widget');
    await widget.locator('[part~="launcher"]').click();
    await widget.locator('[part~="input"]').fill('hello');
    await widget.locator('[part~="input"]').press('Enter');
    await widget.locator('[part~="message-assistant"]', { hasText: 'Hello!' }).waitFor();
    assert.ok(calls.includes(`POST ${service.url}/v1/widget/tokens`), `the widget got its token from the service: ${calls.join(', ')}`);

    await page.reload();
    await widget.locator('[part~="launcher"]').click();
    await widget.locator('[part~="message-user"]', { hasText: 'hello' }).waitFor();
    await widget.locator('[part~="message-assistant"]', { hasText: 'Hello!' }).waitFor();
    assert.ok(calls.some((c) => c.startsWith(`GET ${service.url}/v1/chat/history`)), `the reloaded widget read its history: ${calls.join(', ')}`);
    await page.close();
  });

  it('on a page of an origin the bot does not list, the widget says so, and the console tells the fix once', { timeout: 120_000 }, async () => {
    const origin = await site(installSnippet(bot, service.url));
    const page = await browser.newPage();
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' && message.text().includes('<ai-chat-widget>')) warnings.push(message.text());
    });
    await page.goto(`${origin}/`);
    const widget = page.locator('ai-chat-widget');
    await widget.locator('[part~="launcher"]').click();
    for (const text of ['hello', 'hello again']) {
      await widget.locator('[part~="input"]').fill(text);
      await widget.locator('[part~="input"]').press('Enter');
    }
    await widget.locator('[part~="error"]', { hasText: 'The chat is not set up correctly on this page.' }).first().waitFor();
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.ok(warnings[0]!.includes(`"${origin}"`) && warnings[0]!.includes('Website channel → allowed origins'), warnings[0]);
    await page.close();
  });
});
