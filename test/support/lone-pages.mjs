// Test-only (never part of the product): what two kinds of sites serve, for the browser tests.
//
//   GET  /__test__/lone/<file>/<any name>  a folder holding only dist/<file> (a site that copied
//        `ai-chat-widget.iife.js`, or the all-in-one `ai-chat-widget.all.iife.js`, and nothing else):
//        that one file under its own name, 404 for anything else in the folder.
//   POST /__test__/proxies {api_key, bot_id}  -> {token_url}: a token proxy (anonymous visitors) that
//        holds that tenant's key and binds its tokens to that bot, mounted at the returned path, as
//        `npm start` mounts the demo's at /proxy for the seeded bot. A widget behind it needs no `bot-id`.
import { readFile } from 'node:fs/promises';
import { tsImport } from 'tsx/esm/api';

const LONE = /^\/__test__\/lone\/(ai-chat-widget(?:\.all)?\.iife\.js)\/([^/]+)$/;
const PROXIES = '/__test__/proxies';

async function readJson(req) {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  return raw ? JSON.parse(raw) : {};
}

/** @param {() => {fetch(request: Request): Promise<Response>}} service the running service */
export function lonePages(service) {
  const proxies = [];
  return async (ctx, next) => {
    const lone = LONE.exec(ctx.path);
    if (lone && ctx.method === 'GET') {
      ctx.set('Cache-Control', 'no-store');
      if (lone[2] !== lone[1]) {
        ctx.status = 404;
        ctx.type = 'text/plain';
        ctx.body = `only ${lone[1]} was copied here`;
        return;
      }
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.body = await readFile(new URL(`../../dist/${lone[1]}`, import.meta.url));
      return;
    }
    if (ctx.path === PROXIES && ctx.method === 'POST') {
      const { api_key: apiKey, bot_id: botId } = await readJson(ctx.req);
      const { createProxy } = await tsImport('../../src/proxy/index.ts', import.meta.url);
      const basePath = `${PROXIES}/${proxies.length}`;
      proxies.push(
        createProxy({
          apiKey,
          botId,
          basePath,
          upstream: 'http://localhost', // the service answers loopback names and its public URL only
          fetch: (input, init) => service().fetch(new Request(input, init)),
          secret: crypto.getRandomValues(new Uint8Array(32)),
          allowAnonymous: true,
          rateLimit: { perToken: false, perIp: false },
        }),
      );
      ctx.status = 201;
      ctx.type = 'application/json';
      ctx.body = JSON.stringify({ token_url: `${basePath}/token` });
      return;
    }
    const proxy = ctx.path.startsWith(`${PROXIES}/`) && proxies[Number(ctx.path.split('/')[3])];
    if (proxy) {
      ctx.respond = false; // the proxy writes the raw response itself (the events stream included)
      const { getRequestListener } = await import('@hono/node-server');
      await getRequestListener(proxy.fetch, { overrideGlobalObjects: false })(ctx.req, ctx.res);
      return;
    }
    return next();
  };
}
