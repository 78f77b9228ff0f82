/**
 * The dashboard UI at `/dashboard/`: the files `npm run build` writes to `dist/dashboard/` (one
 * HTML page, hashed scripts and styles under `assets/`, no inline script or style, so the strict
 * CSP of every /dashboard answer holds). Without a build (server tests, a fresh checkout) the page
 * says how to make one instead of answering 404.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/context.ts';

const NOT_BUILT = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dashboard · ai-chat-widget</title>
</head>
<body>
<main>
<h1>The dashboard is not built yet</h1>
<p>Run <code>npm run build</code> in the repository (or <code>npm start</code>, which builds first), then reload
this page. The build writes the dashboard to <code>dist/dashboard/</code>.</p>
<p>Its API works already: <code>/dashboard/api/</code>, described in <code>docs/dashboard-api.md</code>.
The v1 API is at <a href="/v1/openapi.json"><code>/v1</code></a>.</p>
</main>
</body>
</html>
`;

/** Hashed file names never change content: browsers may keep them (everything else is `no-store`). */
const IMMUTABLE = 'public, max-age=31536000, immutable';

export function mountDashboardPage(router: Hono<AppEnv>, distDir: string): void {
  // Made on first use: serveStatic complains at once about a root that does not exist (yet).
  let page: MiddlewareHandler<AppEnv> | undefined;
  let assets: MiddlewareHandler<AppEnv> | undefined;
  const built = () => existsSync(join(distDir, 'index.html'));

  router.get('/dashboard', (c) => c.redirect('/dashboard/', 301)); // relative URLs of the page resolve under it
  // Checked per request, so a build made while the service runs is picked up without a restart.
  router.use('/dashboard/', async (c, next) => {
    if (!built()) return c.html(NOT_BUILT);
    page ??= serveStatic({ root: distDir, path: 'index.html' });
    return page(c, next);
  });
  router.use('/dashboard/assets/*', async (c, next) => {
    if (!built()) return next();
    assets ??= serveStatic({ root: distDir, rewriteRequestPath: (path) => path.slice('/dashboard'.length) });
    const found = await assets(c, next);
    if (found instanceof Response) found.headers.set('Cache-Control', IMMUTABLE);
    return found;
  });
}
