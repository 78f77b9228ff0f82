/** `npm start` serves the demo pages at `/` and the built widget under `/dist/` beside the API. */
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';
import { relative } from 'node:path';
import type { AppEnv } from './http/context.ts';

/** The policy `demo/strict-csp.html` is served with: the strictest one the widget runs under. */
export const STRICT_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'";

export function mountStatic(app: Hono<AppEnv>, repoRoot: string): void {
  // serveStatic resolves `root` against the working directory, so pass a relative path.
  const root = relative(process.cwd(), repoRoot) || '.';
  app.use('/strict-csp.html', async (c, next) => {
    await next();
    c.res.headers.set('Content-Security-Policy', STRICT_CSP);
  });
  app.use('/dist/*', serveStatic({ root }));
  // Browsers ask for /favicon.ico on every page that names no icon: the demo's SVG icon answers it.
  app.get(
    '/favicon.ico',
    serveStatic({ root: `${root}/demo`, rewriteRequestPath: () => '/favicon.svg' }),
  );
  app.use(
    '/*',
    serveStatic({
      root: `${root}/demo`,
      rewriteRequestPath: (path) => (path === '/' ? '/index.html' : path),
    }),
  );
}
