// The proxy as a Cloudflare Worker (wrangler: set AI_CHAT_API_KEY and AI_CHAT_PROXY_SECRET as secrets).
import { createProxy, type Proxy } from 'ai-chat-widget/proxy';

interface Env {
  AI_CHAT_API_KEY: string;
  AI_CHAT_PROXY_SECRET: string;
  AI_CHAT_UPSTREAM: string;
  AI_CHAT_BOT_ID: string;
}

let proxy: Proxy | undefined;

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    // secrets only exist per request in module Workers, so the proxy is built on the first one
    proxy ??= createProxy({
      apiKey: env.AI_CHAT_API_KEY,
      secret: env.AI_CHAT_PROXY_SECRET,
      upstream: env.AI_CHAT_UPSTREAM,
      botId: env.AI_CHAT_BOT_ID,
      allowAnonymous: true,
      trustProxyHeaders: true, // Cloudflare sets CF-Connecting-IP
    });
    return proxy.fetch(request);
  },
};
