/**
 * The token proxy as `npm start` (and the browser tests) mount it at `/proxy`: the demo pages get
 * short-lived widget tokens and never see an API key. The proxy calls the service in-process (its
 * `fetch` option), holding a labelled key of the development account that is re-issued on every
 * start — the development key itself is stored only as a hash and cannot be recovered.
 */
import { randomBytes } from 'node:crypto';
import { createProxy } from '../../src/proxy/index.ts';
import { clientAddress } from './http/client-ip.ts';
import type { Service } from './index.ts';

export const DEMO_PROXY_PATH = '/proxy';

export interface DemoProxyOptions {
  /** HS256 secret (`AI_CHAT_PROXY_SECRET`); default: random per start (widgets renew on 401). */
  secret?: string;
  /**
   * Pages on other origins that may use the demo proxy, e.g. a Vite or Next dev server on another
   * port (`AI_CHAT_PROXY_ORIGINS`, see `originsFromEnv`). The demo's own origin is always allowed.
   */
  allowedOrigins?: string[];
}

/** `AI_CHAT_PROXY_ORIGINS`: origins separated by commas or spaces (`http://localhost:5173`). */
export function originsFromEnv(value: string | undefined): string[] {
  return (value ?? '').split(/[\s,]+/).filter(Boolean);
}

/** The demo proxy as a handler of the Node adapter: `env` carries the socket the client address comes from. */
export interface DemoProxy {
  fetch(request: Request, env?: unknown): Promise<Response>;
}

export async function createDemoProxy(service: Service, options: DemoProxyOptions = {}): Promise<DemoProxy> {
  const accountId = service.devAccountId;
  const apiKey = await service.deps.accounts.issueLabelledKey(accountId, 'demo-proxy');
  const demoBot = await service.deps.db
    .selectFrom('bots')
    .select('id')
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  const proxy = createProxy({
    apiKey,
    // In process, but under a loopback name: the service answers no other Host (DNS rebinding).
    upstream: 'http://localhost',
    fetch: (input, init) => service.fetch(new Request(input, init)),
    secret: options.secret ?? randomBytes(32),
    allowAnonymous: true,
    botId: demoBot?.id,
    basePath: DEMO_PROXY_PATH,
    allowedOrigins: options.allowedOrigins,
  });
  const { trustedProxies } = service.deps.config;
  return {
    // The per-IP limit counts the same client address as the service's own (AI_CHAT_TRUSTED_PROXIES).
    fetch: (request, env) => proxy.handle(request, { clientIp: clientAddress(request.headers, env, trustedProxies) }),
  };
}
