/**
 * CORS for browsers calling the API directly, with hono/cors. An origin is allowed when it is
 * configured (`corsOrigins`, `*` for any), or — on a bot's own routes only — listed in THAT bot's
 * website channel. A bot's own routes are the ones that name it: `/v1/bots/{bot_id}` and below, and
 * `/v1/chat/history?bot_id=…`. So the origins one tenant lists for its bot never open another
 * tenant's routes (or the account-wide ones, like `GET /v1/bots`) to that origin.
 * The one-snippet install adds two: `POST /v1/widget/tokens` answers every origin (it sends no
 * cookies, and its refusal must reach the page to be shown), and the routes a widget token can
 * reach (the proxy's allowlist) answer a call carrying such a token (the token, bound to its
 * origin, decides it) and the preflight before it, for an origin some bot lists (a preflight
 * carries no token and may name no bot).
 * Rate-limit, request-id and replay headers are exposed so the widget can read them.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { cors as honoCors } from 'hono/cors';
import { sql, type Kysely } from 'kysely';
import { isWidgetRoute } from '../../../src/proxy/policy.ts';
import type { Database } from '../db/schema.ts';
import { ID_PATTERN } from '../ids.ts';
import type { AppEnv } from './context.ts';
import { widgetBearer } from './widget-bearer.ts';

const EXPOSED = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'X-Request-Id', 'Idempotent-Replayed'];
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id', 'Accept'];
const ALLOWED_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'];
const CACHE_MS = 10_000;
const CACHE_MAX = 1000;

const BOT_PATH = /^\/v1\/bots\/([^/]+)(?:\/|$)/;
const idShape = new RegExp(ID_PATTERN);

/** The bot a request is about, when its URL names one. */
function botOfRequest(c: Context): string | null {
  const id = BOT_PATH.exec(c.req.path)?.[1] ?? (c.req.path === '/v1/chat/history' ? c.req.query('bot_id') : undefined);
  return id && idShape.test(id) && id.startsWith('bot_') ? id : null;
}

export function cors(db: Kysely<Database>, configured: string[]): MiddlewareHandler<AppEnv> {
  const anyOrigin = configured.includes('*');
  const cache = new Map<string, { allowed: boolean; at: number }>();

  /** Whether the bot `botId` (null: any bot) lists `origin` in a website channel. */
  async function botAllows(botId: string | null, origin: string): Promise<boolean> {
    const key = `${botId ?? '*'} ${origin}`;
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.allowed;
    const channel = JSON.stringify([{ type: 'website', allowed_origins: [origin] }]);
    const bot = botId === null ? sql`true` : sql`id = ${botId}`;
    const row = await sql<{ one: number }>`select 1 as one from bots where ${bot} and channels @> ${channel}::jsonb limit 1`.execute(db);
    const allowed = row.rows.length > 0;
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(key, { allowed, at: Date.now() });
    return allowed;
  }

  const middleware = honoCors({
    origin: async (origin, c) => {
      if (origin === new URL(c.req.url).origin) return null; // same origin: no CORS needed
      if (anyOrigin || configured.includes(origin)) return origin;
      if (c.req.path === '/v1/widget/tokens') return origin;
      const botId = botOfRequest(c);
      if (botId) return (await botAllows(botId, origin)) ? origin : null;
      const preflight = c.req.method === 'OPTIONS' ? c.req.header('access-control-request-method') : undefined;
      if (!isWidgetRoute(preflight ?? c.req.method, c.req.path)) return null;
      if (!preflight) return widgetBearer(c.req.header('authorization')) ? origin : null;
      return (await botAllows(null, origin)) ? origin : null;
    },
    allowMethods: ALLOWED_METHODS,
    allowHeaders: ALLOWED_HEADERS,
    exposeHeaders: EXPOSED,
    maxAge: 600,
  });
  // Without an Origin it is no browser's cross-origin call: an OPTIONS then reaches the routes (405).
  return (c, next) => (c.req.header('origin') ? middleware(c, next) : next());
}
