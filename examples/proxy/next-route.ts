// Next.js App Router: save as app/api/ai/[...path]/route.ts, then
// <ai-chat-widget token-url="/api/ai/token" base-url="/api/ai/v1" bot-id="…">.
import { createProxy } from 'ai-chat-widget/proxy';

const proxy = createProxy({
  apiKey: process.env.AI_CHAT_API_KEY!,
  secret: process.env.AI_CHAT_PROXY_SECRET!,
  upstream: process.env.AI_CHAT_UPSTREAM!,
  botId: process.env.AI_CHAT_BOT_ID,
  basePath: '/api/ai',
  // Replace with your session check, e.g. reading your auth cookie from request.headers.
  allowAnonymous: true,
});

export const GET = proxy.fetch;
export const POST = proxy.fetch;
export const OPTIONS = proxy.fetch;
