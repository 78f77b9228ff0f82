/**
 * CORS for browsers calling the API directly: an origin is allowed when it is configured
 * (`corsOrigins`, `*` for any) or listed in a bot's website channel. Preflights are answered here.
 * Rate-limit, request-id and replay headers are exposed so the widget can read them.
 */
import type { MiddlewareHandler } from 'hono';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AppEnv } from './context.ts';

const EXPOSED = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-Request-Id, Idempotent-Replayed';
const ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key, X-Request-Id, Accept';
const CACHE_MS = 10_000;

export function cors(db: Kysely<Database>, configured: string[]): MiddlewareHandler<AppEnv> {
  const anyOrigin = configured.includes('*');
  const cache = new Map<string, { allowed: boolean; at: number }>();

  async function isAllowed(origin: string): Promise<boolean> {
    if (anyOrigin || configured.includes(origin)) return true;
    const hit = cache.get(origin);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.allowed;
    const channel = JSON.stringify([{ type: 'website', allowed_origins: [origin] }]);
    const row = await sql<{ one: number }>`select 1 as one from bots where channels @> ${channel}::jsonb limit 1`.execute(db);
    const allowed = row.rows.length > 0;
    if (cache.size > 1000) cache.clear();
    cache.set(origin, { allowed, at: Date.now() });
    return allowed;
  }

  return async (c, next) => {
    const origin = c.req.header('origin');
    const sameOrigin = origin !== undefined && origin === new URL(c.req.url).origin;
    if (!origin || sameOrigin) return next();
    const allowed = await isAllowed(origin);
    if (c.req.method === 'OPTIONS' && c.req.header('access-control-request-method')) {
      if (!allowed) return c.body(null, 204, { Vary: 'Origin' });
      return c.body(null, 204, {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Methods': 'GET, POST, PUT, OPTIONS',
        'Access-Control-Allow-Headers': ALLOWED_HEADERS,
        'Access-Control-Max-Age': '600',
        Vary: 'Origin',
      });
    }
    await next();
    c.header('Vary', 'Origin');
    if (allowed) {
      c.header('Access-Control-Allow-Origin', origin);
      c.header('Access-Control-Expose-Headers', EXPOSED);
    }
  };
}
