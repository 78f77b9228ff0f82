// A second loopback origin for the browser tests (test-only, never part of the product): the same
// reference service behind token proxies on `http://localhost:<another port>`, while the test page
// stays on the dev server's origin. It stands for `https://api.example.com` serving a page on
// `https://www.example.com`: another origin, the same site (ports do not make another site), so a
// `SameSite=Lax` login cookie of the API origin goes with a credentialed cross-origin fetch.
//
//   POST /__test__/login?user=<id>[&samesite=none]   sets the login cookie `aicw_session=<id>`
//                    (HttpOnly; SameSite=Lax, or None; Secure, which Chromium accepts on loopback)
//   POST /__test__/logout            clears it
//   /proxy/*         a token proxy whose authorize() reads that cookie; allows the page's origin (CORS
//                    with credentials); no anonymous tokens
//   /strict-proxy/*  a token proxy that allows no other origin (anonymous tokens)
//
// `viaDevServer` answers `/__test__/via-dev-server/<path>` on the page's origin by passing the request
// on to `<second origin>/<path>` with the Host rewritten and the browser's Origin kept, as a Vite or
// Next dev server's proxy (`changeOrigin`) does: the browser sees a same-origin answer.
import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { tsImport } from 'tsx/esm/api';

const SESSION_COOKIE = 'aicw_session';
const VIA_DEV_SERVER = '/__test__/via-dev-server/';
const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'expect', 'content-length']);

function sessionUser(request) {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === SESSION_COOKIE && value) return decodeURIComponent(value);
  }
  return null;
}

/**
 * Starts the second origin for `service` (the dev server's), allowing `pageOrigin`.
 * @returns {Promise<{ url: string, viaDevServer(ctx, next): Promise<void>, close(): Promise<void> }>}
 */
export async function startCrossOrigin(service, pageOrigin) {
  const { createProxy } = await tsImport('../../src/proxy/index.ts', import.meta.url);
  const apiKey = await service.deps.accounts.issueLabelledKey(service.devAccountId, 'cross-origin-test-proxy');
  const demoBot = await service.deps.db
    .selectFrom('bots')
    .select('id')
    .where('account_id', '=', service.devAccountId)
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  const common = {
    apiKey,
    // In process, but under a loopback name: the service answers no other Host (DNS rebinding).
    upstream: 'http://localhost',
    fetch: (input, init) => service.fetch(new Request(input, init)),
    secret: crypto.getRandomValues(new Uint8Array(32)),
    botId: demoBot?.id,
    rateLimit: { perToken: false, perIp: false },
  };
  const proxy = createProxy({
    ...common,
    basePath: '/proxy',
    allowedOrigins: [pageOrigin],
    authorize: (request) => {
      const userId = sessionUser(request);
      return userId ? { userId } : null;
    },
  });
  const strictProxy = createProxy({ ...common, basePath: '/strict-proxy', allowAnonymous: true });

  const cors = { 'Access-Control-Allow-Origin': pageOrigin, 'Access-Control-Allow-Credentials': 'true', Vary: 'Origin' };
  const handle = async (request) => {
    const { pathname, searchParams } = new URL(request.url);
    if (pathname === '/__test__/login' && request.method === 'POST') {
      const user = encodeURIComponent(searchParams.get('user') ?? '');
      const sameSite = searchParams.get('samesite') === 'none' ? 'None; Secure' : 'Lax';
      return new Response(null, {
        status: 204,
        headers: { ...cors, 'Set-Cookie': `${SESSION_COOKIE}=${user}; Path=/; HttpOnly; SameSite=${sameSite}` },
      });
    }
    if (pathname === '/__test__/logout' && request.method === 'POST') {
      return new Response(null, { status: 204, headers: { ...cors, 'Set-Cookie': `${SESSION_COOKIE}=; Path=/; Max-Age=0` } });
    }
    if (proxy.matches(pathname)) return proxy.fetch(request);
    if (strictProxy.matches(pathname)) return strictProxy.fetch(request);
    return Response.json({ success: false, data: null, error: { code: 'route_not_found', message: pathname } }, { status: 404 });
  };

  const server = createServer(getRequestListener(handle, { overrideGlobalObjects: false }));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  // `localhost`, like the page: another origin (port), the same site
  const url = `http://localhost:${port}`;

  /** The dev server's own proxy to the second origin (see the header). */
  async function viaDevServer(ctx, next) {
    if (!ctx.path.startsWith(VIA_DEV_SERVER)) return next();
    const target = `http://127.0.0.1:${port}/${ctx.url.slice(VIA_DEV_SERVER.length)}`;
    // the target's own Host (changeOrigin), hop-by-hop headers dropped; Origin and cookies kept
    const headers = Object.fromEntries(
      Object.entries(ctx.req.headers).filter(([name]) => !HOP_BY_HOP.has(name)),
    );
    let body;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      const chunks = [];
      for await (const chunk of ctx.req) chunks.push(chunk);
      body = Buffer.concat(chunks);
    }
    const answer = await fetch(target, { method: ctx.method, headers, body });
    ctx.status = answer.status;
    answer.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'content-encoding' && name !== 'transfer-encoding') ctx.set(name, value);
    });
    ctx.body = Buffer.from(await answer.arrayBuffer());
  }

  return {
    url,
    /** The same server as another site: `127.0.0.1` is not `localhost`. */
    crossSiteUrl: `http://127.0.0.1:${port}`,
    viaDevServer,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
