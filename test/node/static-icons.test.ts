/// <reference types="node" />
// The icon of every page `npm start` serves: `/favicon.ico`, which browsers ask for on a page that
// names no icon, answers (no 404 on every page), and the dashboard's page names an icon that exists.
// The dashboard's page is the built one: run `npm run build` first.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startService, type RunningService } from './proxy-harness.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
let service: RunningService;

describe('page icons', () => {
  before(async () => {
    const { mountStatic } = (await import(new URL('../../server/src/static.ts', import.meta.url).href)) as {
      mountStatic(app: unknown, repoRoot: string): void;
    };
    service = await startService({ mount: (app: unknown) => mountStatic(app, root) });
  });
  after(() => service?.close());

  it('/favicon.ico answers with an image', async () => {
    const res = await fetch(`${service.url}/favicon.ico`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^image\//);
    assert.match(await res.text(), /<svg/);
  });

  it("the dashboard's page names an icon that answers", async () => {
    const page = await (await fetch(`${service.url}/dashboard/`)).text();
    const href = /<link rel="icon" href="([^"]+)"/.exec(page)?.[1];
    assert.ok(href, 'the dashboard page has a <link rel=icon>');
    const icon = await fetch(new URL(href, `${service.url}/dashboard/`));
    assert.equal(icon.status, 200);
    assert.match(icon.headers.get('content-type') ?? '', /^image\//);
  });
});
