// Test-only: serves `/demo/*` and `/dist/*` from the repository with a strict Content-Security-Policy,
// the one documented in the README, so the browser tests can prove the widget runs under it
// (test/security/csp.test.ts). The dev server would serve these files too, but without the header.
import { readFile } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const STRICT_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'";

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** @returns {import('koa').Middleware} */
export function cspPages() {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' || !/^\/(demo|dist)\//.test(ctx.path)) return next();
    const file = resolve(repoRoot, '.' + decodeURIComponent(ctx.path));
    const dir = resolve(repoRoot, ctx.path.split('/')[1]);
    if (!file.startsWith(dir + sep)) {
      ctx.status = 404;
      return;
    }
    let body;
    try {
      body = await readFile(file);
    } catch {
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.body = `${ctx.path} not found: ${ctx.path.startsWith('/dist/') ? 'run `npm run build` first' : 'no such demo file'}`;
      return;
    }
    ctx.set('Content-Security-Policy', STRICT_CSP);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 200;
    ctx.type = TYPES[extname(file)] ?? 'application/octet-stream';
    ctx.body = body;
  };
}
