// Mounts the real reference service (server/src, loaded through tsx) inside web-test-runner's dev
// server: `/v1/*` reaches the service's own fetch handler on the page's origin, and `/proxy/*` the
// token proxy exactly as `npm start` mounts it (anonymous visitors, the seeded demo bot), and
// `/dashboard/*` (the built page, `/dashboard/api` and its /v1 passthrough) of the same service.
//
// Test-only routes (never part of the product) live under `/__test__/`:
//   POST /__test__/accounts  {rate_limit?: {points, duration_seconds}}  -> {account_id, api_key}
//        a fresh tenant per test, so tests never see each other's data.
//   POST /__test__/llm/accounts  -> {account_id, api_key}, and /__test__/llm/v1/*: another instance of the service
//        whose LLM is fake-openai (server/test/support/fake-openai.ts) streaming four words 600 ms apart
//        (`slow-stream`), started on first use: for replies that are still being written (Stop).
//   GET  /__test__/cross-origin  -> {url, cross_site_url}: a second loopback origin serving the same service behind
//        token proxies (cross-origin.mjs), and /__test__/via-dev-server/* reaching it through this
//        server as a Vite or Next dev server's proxy would.
// Also test-only: `/demo/*` and `/dist/*` are served with a strict Content-Security-Policy
// (csp-pages.mjs), for test/security/csp.test.ts; `/__test__/lone/*` (a folder holding one built
// file) and `/__test__/proxies` (a token proxy bound to a test's own bot): lone-pages.mjs.
//   GET  /__test__/mails  -> {items: [{to, body}]}: the emails the service sent (answers to offline messages,
//        waiting-conversation emails), as a local SMTP test server (server/test/support/smtp.ts) took them.
// The service's channels talk to FAKE Telegram, WhatsApp and Slack APIs on loopback
// (server/test/support/fake-*.ts), with a secrets key of its own: the dashboard's Channels page connects for real.
import { randomBytes } from 'node:crypto';
import { tsImport } from 'tsx/esm/api';
import { getRequestListener } from '@hono/node-server';
import { faults } from './faults.mjs';
import { cspPages } from './csp-pages.mjs';
import { lonePages } from './lone-pages.mjs';
import { startCrossOrigin } from './cross-origin.mjs';

async function readJson(req) {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  return raw ? JSON.parse(raw) : {};
}

function sendJson(ctx, status, body) {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = JSON.stringify(body);
}

/**
 * The plugin creates the service in `serverStart`; its routes are served by `plugin.middleware`,
 * which the config must list in `middleware`: the dev server composes its middleware stack when it
 * is constructed, so an `app.use()` in `serverStart` would never be reached.
 */
export function testServicePlugin() {
  let service;
  let listener;
  let proxyListener;
  let crossOrigin;
  let slowLlm; // {service, listener, fake}, started by the first /__test__/llm request
  let platforms = []; // the fake messaging platforms the service's channels talk to
  let smtp; // the local SMTP server the service's emails go to
  // Both services start from the migrated database the server's tests use, instead of running initdb.
  const memoryDatabase = async () => {
    const { pgliteTemplate } = await tsImport('../../server/test/support/database-template.ts', import.meta.url);
    return { dataDir: 'memory://', pgliteTemplate: await pgliteTemplate() };
  };
  const startSlowLlm = async () => {
    const { createService } = await tsImport('../../server/src/index.ts', import.meta.url);
    const { startFakeOpenAi } = await tsImport('../../server/test/support/fake-openai.ts', import.meta.url);
    const fake = await startFakeOpenAi();
    const llmService = await createService({
      ...(await memoryDatabase()),
      logLevel: 'silent',
      llm: { baseUrl: fake.baseUrl, model: 'slow-stream', timeoutMs: 30_000 },
    });
    return { service: llmService, fake, listener: getRequestListener(llmService.fetch, { overrideGlobalObjects: false }) };
  };
  const routes = async (ctx, next) => {
    if (!service) return next();
    if (ctx.path.startsWith('/__test__/llm/')) {
      slowLlm ??= startSlowLlm();
      const llm = await slowLlm;
      if (ctx.path === '/__test__/llm/accounts' && ctx.method === 'POST') {
        const account = await llm.service.createAccount({});
        return sendJson(ctx, 201, { account_id: account.accountId, api_key: account.apiKey });
      }
      ctx.respond = false;
      ctx.req.url = ctx.req.url.replace('/__test__/llm', '');
      await llm.listener(ctx.req, ctx.res);
      return;
    }
    if (ctx.path === '/__test__/mails' && ctx.method === 'GET') return sendJson(ctx, 200, { items: smtp.mails });
    if (ctx.path === '/__test__/cross-origin' && ctx.method === 'GET') {
      return sendJson(ctx, 200, { url: crossOrigin.url, cross_site_url: crossOrigin.crossSiteUrl });
    }
    if (ctx.path.startsWith('/__test__/via-dev-server/')) return crossOrigin.viaDevServer(ctx, next);
    if (ctx.path === '/__test__/accounts' && ctx.method === 'POST') {
      const body = await readJson(ctx.req);
      const account = await service.createAccount({
        name: body.name,
        rateLimit: body.rate_limit
          ? { points: body.rate_limit.points, durationSeconds: body.rate_limit.duration_seconds }
          : undefined,
      });
      return sendJson(ctx, 201, { account_id: account.accountId, api_key: account.apiKey });
    }
    // The dashboard (its page, session API and /v1 passthrough) on this same origin, as `npm start` serves it.
    if (ctx.path.startsWith('/v1/') || ctx.path === '/v1' || ctx.path.startsWith('/dashboard/') || ctx.path === '/dashboard') {
      ctx.respond = false; // the service writes the raw response itself (streams included)
      await listener(ctx.req, ctx.res);
      return;
    }
    if (ctx.path.startsWith('/proxy/')) {
      ctx.respond = false;
      await proxyListener(ctx.req, ctx.res);
      return;
    }
    return next();
  };
  const faultRoutes = faults(); // /__test__/fault/* and /__test__/count/*, see faults.mjs
  const strictCspPages = cspPages(); // /demo/* and /dist/* with a strict CSP, see csp-pages.mjs
  const lone = lonePages(() => service);
  return {
    name: 'ai-chat-test-service',
    middleware: (ctx, next) => faultRoutes(ctx, () => strictCspPages(ctx, () => lone(ctx, () => routes(ctx, next)))),
    async serverStart({ config }) {
      const { createService } = await tsImport('../../server/src/index.ts', import.meta.url);
      const { createDemoProxy } = await tsImport('../../server/src/demo-proxy.ts', import.meta.url);
      const [{ startFakeTelegram }, { startFakeWhatsApp }, { startFakeSlack }] = await Promise.all(
        ['fake-telegram', 'fake-whatsapp', 'fake-slack'].map((name) => tsImport(`../../server/test/support/${name}.ts`, import.meta.url)),
      );
      const [telegram, whatsapp, slack] = (platforms = await Promise.all([startFakeTelegram(), startFakeWhatsApp(), startFakeSlack()]));
      const { startTestSmtp } = await tsImport('../../server/test/support/smtp.ts', import.meta.url);
      smtp = await startTestSmtp();
      service = await createService({
        ...(await memoryDatabase()),
        seed: true,
        logLevel: 'silent',
        // Dashboard tests sign up a fresh account each (open sign-up), many from this one address.
        dashboard: { signup: 'open', signInLimits: { perAddress: { points: 10_000, durationSeconds: 60 } } },
        // Knowledge imports may read this dev server's own pages (loopback is refused by default).
        imports: { allowPrivateHosts: ['127.0.0.0/8', '::1/128'] },
        // Webhook tests subscribe this dev server's own address: nothing leaves loopback.
        webhooks: { allowPrivateHosts: ['127.0.0.0/8', '::1/128'] },
        // Channels (the dashboard's Channels page) talk to the fake platforms, on loopback like everything here.
        channels: { telegramApiUrl: telegram.url, whatsappApiUrl: whatsapp.url, slackApiUrl: slack.apiUrl, secretsKey: randomBytes(32).toString('base64') },
        // Email (offline messages answered from the inbox) goes to a local SMTP server; no waiting emails in a test's time.
        waitingEmail: { smtpUrl: smtp.url, from: 'Support <support@example.test>', afterMinutes: 24 * 60 },
      });
      listener = getRequestListener(service.fetch, { overrideGlobalObjects: false });
      const proxy = await createDemoProxy(service);
      proxyListener = getRequestListener(proxy.fetch, { overrideGlobalObjects: false });
      crossOrigin = await startCrossOrigin(service, `http://${config.hostname}:${config.port}`);
    },
    async serverStop() {
      const llm = await slowLlm;
      await llm?.service.close();
      await llm?.fake.close();
      await crossOrigin?.close();
      await service?.close();
      await Promise.all(platforms.map((platform) => platform.close()));
      await smtp?.close();
    },
  };
}
