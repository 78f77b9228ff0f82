/**
 * The two ways to put a bot on a website, filled in for one bot: the script tag (the widget asks a
 * token proxy for a short-lived token) and the token proxy itself, which holds the API key on the
 * site's server. These are the forms README.md and docs/proxy.md document; the API key is never
 * part of a snippet, only the name of the variable that holds it.
 */
import type { Bot } from '../../client/index.js';

/** The snippet is HTML the user pastes: a bot name with quotes or tags must stay an attribute value. */
function attribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

export function scriptTagSnippet(bot: Pick<Bot, 'id' | 'name'>, origin: string): string {
  return [
    `<script src="${attribute(origin)}/dist/ai-chat-widget.iife.js" defer></script>`,
    `<ai-chat-widget bot-id="${attribute(bot.id)}" token-url="/ai/token" base-url="/ai/v1" title="${attribute(bot.name)}"></ai-chat-widget>`,
  ].join('\n');
}

export function proxySnippet(bot: Pick<Bot, 'id' | 'channels'>, origin: string): string {
  const website = bot.channels.find((c) => c.type === 'website');
  const origins = website && 'allowed_origins' in website && website.allowed_origins.length ? website.allowed_origins : ['https://your.site'];
  return `// Serve this at /ai on your site's server (Next.js: export const POST = proxy.fetch).
import { createProxy } from 'ai-chat-widget/proxy';

/** Your own session check: the signed-in visitor from the request's cookies, or null. */
async function sessionFromCookie(cookie: string | null): Promise<{ id: string } | null> {
  return null;
}

const proxy = createProxy({
  apiKey: process.env.AI_CHAT_API_KEY!,        // a key from the API keys page: it never reaches a browser
  upstream: ${JSON.stringify(origin)},
  secret: process.env.AI_CHAT_PROXY_SECRET!,   // ≥ 32 bytes, e.g. \`openssl rand -base64 48\`
  botId: ${JSON.stringify(bot.id)},
  allowedOrigins: ${JSON.stringify(origins)},
  authorize: async (request) => {
    const user = await sessionFromCookie(request.headers.get('cookie'));
    return user ? { userId: user.id } : null;
  },
  allowAnonymous: true,                         // logged-out visitors chat as anon_…
});
`;
}
