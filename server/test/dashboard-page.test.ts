// The dashboard UI at /dashboard/: the built files of dist/dashboard with the strict CSP of every
// /dashboard answer, hashed assets cacheable, nothing outside the build reachable, and a page that
// says to run the build when there is none (instead of a 404).
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../src/index.ts';
import { createTestService } from './support/test-database.ts';

const ORIGIN = 'http://127.0.0.1';
const get = (service: Service, path: string) => service.fetch(new Request(`${ORIGIN}${path}`));

describe('the dashboard page', () => {
  let dist: string;
  let built: Service;
  let unbuilt: Service;

  before(async () => {
    dist = mkdtempSync(join(tmpdir(), 'aicw-dashboard-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Dashboard · ai-chat-widget</title><script type="module" src="/dashboard/assets/main-abc123.js"></script>');
    writeFileSync(join(dist, 'assets', 'main-abc123.js'), 'export const built = true;');
    writeFileSync(join(dist, 'assets', 'main-abc123.css'), 'body{margin:0}');
    writeFileSync(join(dist, '..', 'secret.txt'), 'outside the build');
    built = await createTestService({ dashboard: { distDir: dist } });
    unbuilt = await createTestService({ dashboard: { distDir: join(dist, 'missing') } });
  });
  after(async () => {
    await built.close();
    await unbuilt.close();
    rmSync(dist, { recursive: true, force: true });
    rmSync(join(dist, '..', 'secret.txt'), { force: true });
  });

  it('serves the built page and its assets with the strict CSP', async () => {
    const page = await get(built, '/dashboard/');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await page.text(), /main-abc123\.js/);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'; style-src 'self'/);
    assert.equal(page.headers.get('cache-control'), 'no-store', 'the page always asks for the newest build');

    const script = await get(built, '/dashboard/assets/main-abc123.js');
    assert.equal(script.status, 200);
    assert.match(script.headers.get('content-type') ?? '', /javascript/);
    assert.equal(await script.text(), 'export const built = true;');
    assert.match(script.headers.get('cache-control') ?? '', /immutable/, 'hashed assets may be cached');
    assert.match(script.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.match((await get(built, '/dashboard/assets/main-abc123.css')).headers.get('content-type') ?? '', /text\/css/);
  });

  it('answers 404 (the envelope) for anything that is not in the build', async () => {
    for (const path of ['/dashboard/assets/nope.js', '/dashboard/assets/../../secret.txt', '/dashboard/assets/%2e%2e/%2e%2e/secret.txt', '/dashboard/secret.txt']) {
      const res = await get(built, path);
      assert.equal(res.status, 404, path);
      assert.doesNotMatch(await res.text(), /outside the build/, path);
    }
  });

  it('without a build, says to run npm run build (200, same headers)', async () => {
    const page = await get(unbuilt, '/dashboard/');
    assert.equal(page.status, 200);
    assert.match(await page.text(), /npm run build/);
    assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.equal((await get(unbuilt, '/dashboard/assets/main-abc123.js')).status, 404);
  });
});
