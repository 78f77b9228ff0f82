/** `npm start`: the reference service, the demo pages and the built widget on one origin. */
import { fileURLToPath } from 'node:url';
import { optionsFromEnv } from './config.ts';
import { createDemoProxy, DEMO_PROXY_PATH, originsFromEnv } from './demo-proxy.ts';
import { startServer } from './index.ts';
import { bannerRow } from './banner.ts';
import { mountStatic } from './static.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const port = Number(process.env.PORT ?? 8787);
const host = process.env.HOST ?? '127.0.0.1';

const running = await startServer({
  ...optionsFromEnv(),
  dataDir: process.env.AI_CHAT_DATA_DIR ?? fileURLToPath(new URL('../../.data', import.meta.url)),
  port,
  host,
  mount: async (app, service) => {
    // The demo pages get widget tokens here and never see an API key.
    const proxy = await createDemoProxy(service, {
      secret: process.env.AI_CHAT_PROXY_SECRET,
      allowedOrigins: originsFromEnv(process.env.AI_CHAT_PROXY_ORIGINS),
    });
    app.all(`${DEMO_PROXY_PATH}/*`, (c) => proxy.fetch(c.req.raw, c.env)); // env: the client's socket address
    mountStatic(app, repoRoot);
  },
});

const { service } = running;
const lines = [
  '',
  `  ai-chat-widget reference service`,
  bannerRow('Demo', `${running.url}/`),
  bannerRow('Inline', `${running.url}/inline.html`),
  bannerRow('Try it', `${running.url}/try-it.html  (every attribute, live)`),
  bannerRow('API', `${running.url}/v1  (OpenAPI: ${running.url}/v1/openapi.json)`),
  bannerRow('Dashboard', `${running.url}/dashboard/  (sign up: the first account owns this install; bots, keys, team)`),
  bannerRow('Proxy', `${running.url}${DEMO_PROXY_PATH}/token  (widget tokens for the demo pages)`),
  bannerRow('Storage', process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${service.deps.config.dataDir}`),
];
// The oldest bot of the dev account is the seeded demo bot: print it for the demo pages' bot-id.
const demoBot = await service.deps.db
  .selectFrom('bots')
  .select(['id', 'name'])
  .where('account_id', '=', service.devAccountId)
  .orderBy('created_at', 'asc')
  .limit(1)
  .executeTakeFirst();
if (demoBot) lines.push(bannerRow('Demo bot', `${demoBot.id}  (${demoBot.name})`));
if (service.devApiKeyGenerated && service.devApiKey) {
  lines.push(bannerRow('API key', service.devApiKey), bannerRow('', '(shown once: only its hash is stored; set AI_CHAT_API_KEY to choose one)'));
} else if (service.devApiKey) {
  lines.push(bannerRow('API key', 'from AI_CHAT_API_KEY'));
} else {
  lines.push(bannerRow('API key', 'the one printed on first start (stored hashed), or set AI_CHAT_API_KEY'));
}
console.log(`${lines.join('\n')}\n`);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
