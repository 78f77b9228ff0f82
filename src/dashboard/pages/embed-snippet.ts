/**
 * The ways to put a bot on a website, filled in for one bot. The one snippet (`installSnippet`):
 * the widget gets its tokens from the service itself, on the origins the bot's website channel
 * lists (docs/install.md). For sites that sign their users in: the script tag (the widget asks a
 * token proxy at `/ai` on the page's own server for a short-lived token) and that token proxy, which
 * holds the API key, for a Node (Express) server or a Next.js app (docs/proxy.md). The API key is
 * never part of a snippet, only the name of the variable that holds it.
 * test/node/embed-snippets.test.ts and test/widget/one-snippet.test.ts run them as pasted.
 */
import type { Bot } from '../../client/index.js';

/** Where the proxy is served on the site, and so what the script tag's URLs name. */
const PROXY_PATH = '/ai';

/** The snippet is HTML the user pastes: a bot name with quotes or tags must stay an attribute value. */
function attribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** The origins the bot's website channels list: pages there may use `installSnippet`. */
export function websiteOrigins(bot: Pick<Bot, 'channels'>): string[] {
  return bot.channels.flatMap((c) => (c.type === 'website' && 'allowed_origins' in c ? c.allowed_origins : []));
}

/** The widget's script from the service at `origin`, and the element with `attributes` (already escaped). */
function widgetTag(bot: Pick<Bot, 'id'>, origin: string, attributes: string): string {
  return [
    `<script src="${attribute(origin)}/dist/ai-chat-widget.iife.js" defer></script>`,
    `<ai-chat-widget bot-id="${attribute(bot.id)}" ${attributes}></ai-chat-widget>`,
  ].join('\n');
}

/**
 * The one-snippet install: no key, no proxy; the service at `origin` mints the visitors' tokens.
 * Nothing else: the widget reads the bot's name and its Appearance section's settings from the
 * service, and an attribute added here would override them.
 */
export function installSnippet(bot: Pick<Bot, 'id'>, origin: string): string {
  return widgetTag(bot, origin, `base-url="${attribute(origin)}/v1"`);
}

/** The script tag of a site with its own token proxy at `/ai`. */
export function scriptTagSnippet(bot: Pick<Bot, 'id' | 'name'>, origin: string): string {
  return widgetTag(bot, origin, `token-url="${PROXY_PATH}/token" base-url="${PROXY_PATH}/v1" title="${attribute(bot.name)}"`);
}

export type ProxyHost = 'express' | 'nextjs';

const HEADERS: Record<ProxyHost, string> = {
  express: `// server.ts: your site's server, serving your pages (the script tag's page among them) and the
// token proxy at ${PROXY_PATH}. npm i ai-chat-widget express @hono/node-server
import express from 'express';
import { createProxy } from 'ai-chat-widget/proxy';
import { toNodeHandler } from 'ai-chat-widget/proxy/node';`,
  nextjs: `// app${PROXY_PATH}/[...path]/route.ts: the token proxy at ${PROXY_PATH} in a Next.js app (App Router).
import { createProxy } from 'ai-chat-widget/proxy';`,
};

const FOOTERS: Record<ProxyHost, string> = {
  express: `const app = express();
app.use(toNodeHandler(proxy));      // before any body parser: the proxy reads the raw body
app.use(express.static('public'));  // your pages
app.listen(Number(process.env.PORT ?? 3000));`,
  // the widget GETs (history, live events, files) and DELETEs (feedback, uploads) as well as POSTs
  nextjs: ['GET', 'POST', 'DELETE', 'OPTIONS'].map((method) => `export const ${method} = proxy.fetch;`).join('\n'),
};

export function proxySnippet(bot: Pick<Bot, 'id' | 'channels'>, origin: string, host: ProxyHost = 'express'): string {
  const listed = websiteOrigins(bot);
  const origins = listed.length ? listed : ['https://your.site'];
  return `${HEADERS[host]}

/** Your own session check: the signed-in visitor from the request's cookies, or null. */
async function sessionFromCookie(cookie: string | null): Promise<{ id: string } | null> {
  return null;
}

const proxy = createProxy({
  apiKey: process.env.AI_CHAT_API_KEY!,        // a key from the API keys page: it never reaches a browser
  upstream: ${JSON.stringify(origin)},
  secret: process.env.AI_CHAT_PROXY_SECRET!,   // ≥ 32 bytes, e.g. \`openssl rand -base64 48\`
  botId: ${JSON.stringify(bot.id)},
  basePath: ${JSON.stringify(PROXY_PATH)},  // the script tag calls ${PROXY_PATH}/token and ${PROXY_PATH}/v1/…
  allowedOrigins: ${JSON.stringify(origins)},  // only for pages on other origins than this server's
  authorize: async (request) => {
    const user = await sessionFromCookie(request.headers.get('cookie'));
    return user ? { userId: user.id } : null;
  },
  allowAnonymous: true,                         // logged-out visitors chat as anon_…
});

${FOOTERS[host]}
`;
}
