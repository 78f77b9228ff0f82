/**
 * `ai-chat-widget/proxy`: keep the API key on your server and give the widget short-lived,
 * narrowly scoped tokens instead. Web-standard only (`Request` → `Response`): runs in Node (see
 * `ai-chat-widget/proxy/node`), Express, Hono, Next.js route handlers, Bun, Deno and Workers.
 *
 * ```ts
 * const proxy = createProxy({ apiKey, upstream: 'https://api.example.com', secret, botId, authorize });
 * export default { fetch: proxy.fetch };
 * ```
 */
export { createProxy, type Proxy, type ProxyRequestContext } from './proxy.js';
export type { ProxyIdentity, ProxyOptions, ProxyRateLimitOptions, ProxyScope, RateLimitRule } from './options.js';
export type { TokenResponseData } from './mint.js';
export { MemoryRateLimitStore, type RateLimitStore } from './limits.js';
export { ProxyError } from './errors.js';
