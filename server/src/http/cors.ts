/**
 * CORS for browsers calling the API directly, with hono/cors. An origin is allowed when it is
 * configured (`corsOrigins`, `*` for any), or — on a bot's own routes only — listed in THAT bot's
 * website channel. A bot's own routes are the ones that name it: `/v1/bots/{bot_id}` and below, and
 * `/v1/chat/history?bot_id=…`. So the origins one tenant lists for its bot never open another
 * tenant's routes (or the account-wide ones, like `GET /v1/bots`) to that origin.
 * Rate-limit, request-id and replay headers are exposed so the widget can read them.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { cors as honoCors } from 'hono/cors';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { ID_PATTERN } from '../ids.ts';
import type { AppEnv } from './context.ts';

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

  async function botAllows(botId: string, origin: string): Promise<boolean> {
    const key = `${botId} ${origin}`;
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.allowed;
    const channel = JSON.stringify([{ type: 'website', allowed_origins: [origin] }]);
    const row = await sql<{ one: number }>`select 1 as one from bots where id = ${botId} and channels @> ${channel}::jsonb`.execute(db);
    const allowed = row.rows.length > 0;
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(key, { allowed, at: Date.now() });
    return allowed;
  }

  const middleware = honoCors({
    origin: async (origin, c) => {
      if (origin === new URL(c.req.url).origin) return null; // same origin: no CORS needed
      if (anyOrigin || configured.includes(origin)) return origin;
      const botId = botOfRequest(c);
      return botId && (await botAllows(botId, origin)) ? origin : null;
    },
    allowMethods: ALLOWED_METHODS,
    allowHeaders: ALLOWED_HEADERS,
    exposeHeaders: EXPOSED,
    maxAge: 600,
  });
  // Without an Origin it is no browser's cross-origin call: an OPTIONS then reaches the routes (405).
  return (c, next) => (c.req.header('origin') ? middleware(c, next) : next());
}
