/// <reference types="node" />
// The demo pages in chromium against the real demo server (`npm start`'s pages, proxy and dist/):
// the screenshot gallery (scripts/screenshots.ts), written to a temporary directory so a test run
// never dirties docs/ (`npm run screenshots -- --docs` writes docs/screenshots for the README), where every
// image must be a real picture of the widget, not a blank or a broken frame; and the try-it page,
// whose controls must drive the widget's attributes.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  inspectPng,
  launchChromium,
  SCENES,
  startDemoServer,
  takeScreenshots,
  type DemoServer,
} from '../../scripts/screenshots.js';

const outDir = mkdtempSync(join(tmpdir(), 'ai-chat-screenshots-'));
let server: DemoServer | undefined;
before(async () => {
  server = await startDemoServer();
});
after(async () => {
  await server?.stop();
  rmSync(outDir, { recursive: true, force: true });
});

describe('screenshot gallery', () => {
  it('renders light, dark, RTL, mobile and error scenes as non-trivial images', { timeout: 120_000 }, async () => {
    const files = await takeScreenshots(outDir, server);
    assert.deepEqual(files.map((f) => basename(f, '.png')), SCENES.map((s) => s.name));
    for (const file of files) {
      const scene = SCENES.find((s) => s.name === basename(file, '.png'))!;
      const { width, height, colours, dominantShare } = inspectPng(readFileSync(file));
      if (scene.capture === 'page') {
        assert.equal(width, scene.viewport.width, `${file} width`);
        assert.equal(height, scene.viewport.height, `${file} height`);
      } else {
        // the inline widget: most of the page's column, and its 600 px default height
        assert.ok(width >= 320 && width <= scene.viewport.width, `${file} is ${width} px wide`);
        assert.ok(height >= 400, `${file} is ${height} px high`);
      }
      // text, bubbles and anti-aliasing give hundreds of colours; a blank frame has one or two
      assert.ok(colours >= 200, `${file} has only ${colours} colours`);
      assert.ok(dominantShare < 0.9, `${file} is ${(dominantShare * 100).toFixed(0)} % one colour`);
    }
  });

  it('the PNG check tells a blank image from a picture', async () => {
    // a 4×2 RGB image of one colour, encoded by hand with filter 0 rows
    const { deflateSync } = await import('node:zlib');
    const row = Buffer.from([0, ...Array.from({ length: 4 }, () => [250, 250, 250]).flat()]);
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(4, 0);
    ihdr.writeUInt32BE(2, 4);
    ihdr.set([8, 2, 0, 0, 0], 8);
    const chunk = (type: string, body: Buffer) => {
      const head = Buffer.alloc(8);
      head.writeUInt32BE(body.length, 0);
      head.write(type, 4, 'latin1');
      return Buffer.concat([head, body, Buffer.alloc(4)]); // the decoder does not check CRCs
    };
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(Buffer.concat([row, row]))),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    assert.deepEqual(inspectPng(png), { width: 4, height: 2, colours: 1, dominantShare: 1 });
  });
});

describe('try-it page', () => {
  it('sets every attribute from its control, shows the markup and keeps the URL', { timeout: 60_000 }, async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      await page.goto(`${server!.url}/try-it.html?theme=dark&lang=ar`);
      await page.waitForFunction(() => customElements.get('ai-chat-widget') !== undefined);
      const widget = page.locator('#try-it-widget');
      // from the query string
      assert.equal(await widget.getAttribute('theme'), 'dark');
      assert.equal(await widget.getAttribute('lang'), 'ar');
      assert.equal(await widget.getAttribute('token-url'), '/proxy/token');

      await page.selectOption('select[name=lang]', 'de');
      assert.equal(await widget.getAttribute('lang'), 'de');
      assert.equal(await widget.getAttribute('dir'), null, 'leaving Arabic drops the automatic rtl');
      // the German strings are an add-on: the widget renders once they have loaded
      await page.waitForFunction(() => document.querySelector('#try-it-widget')?.shadowRoot?.querySelector('.send')?.getAttribute('aria-label') === 'Senden', null, { timeout: 5000 });
      await page.selectOption('select[name=lang]', 'ar');
      assert.equal(await widget.getAttribute('dir'), 'rtl');
      await page.selectOption('select[name=dir]', 'ltr');
      assert.equal(await widget.getAttribute('dir'), 'ltr');
      await page.selectOption('select[name=theme]', 'light');
      assert.equal(await widget.getAttribute('theme'), 'light');
      await page.selectOption('select[name=storage]', 'none');
      assert.equal(await widget.getAttribute('storage'), 'none');
      await page.check('input[name=stream]');
      assert.equal(await widget.getAttribute('stream'), '');
      await page.fill('input[name=title]', 'Help & "more"');
      assert.equal(await widget.getAttribute('title'), 'Help & "more"');
      assert.equal((await page.locator('ai-chat-widget .title').textContent())?.trim(), 'Help & "more"');
      await page.fill('input[name=placeholder]', 'Ask away');
      assert.equal(await page.locator('ai-chat-widget textarea').getAttribute('placeholder'), 'Ask away');
      await page.fill('textarea[name="welcome-message"]', 'Hello **there**');
      assert.equal(await page.locator('ai-chat-widget .bubble strong').textContent(), 'there');
      await page.fill('input[name=title]', '');
      assert.equal(await widget.getAttribute('title'), null, 'an empty text removes the attribute');

      await page.selectOption('select[name=mode]', 'launcher');
      await page.check('input[name=open]');
      assert.equal(await widget.getAttribute('open'), '');
      await page.locator('ai-chat-widget [part="close-button"]').click();
      assert.equal(await page.isChecked('input[name=open]'), false, 'closing the panel unticks "open"');

      const markup = await page.textContent('#markup');
      assert.match(markup ?? '', /^<ai-chat-widget\n/);
      for (const attribute of ['mode="launcher"', 'lang="ar"', 'dir="ltr"', 'storage="none"', 'placeholder="Ask away"']) {
        assert.ok(markup?.includes(`  ${attribute}\n`), `markup lacks ${attribute}:\n${markup}`);
      }
      assert.ok(markup?.includes('\n  stream\n'), 'boolean attributes appear bare');
      const query = new URLSearchParams(new URL(page.url()).search);
      assert.equal(query.get('mode'), 'launcher');
      assert.equal(query.get('dir'), 'ltr');
      assert.equal(query.get('title'), '');

      await page.reload();
      await page.waitForFunction(() => customElements.get('ai-chat-widget') !== undefined);
      assert.equal(await widget.getAttribute('dir'), 'ltr', 'a reload keeps the settings');
      assert.equal(await widget.getAttribute('mode'), 'launcher');
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
});
