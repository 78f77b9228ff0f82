/** 405 with an `Allow` header for a known path used with another method. */
import type { Hono } from 'hono';
import type { AppEnv } from './context.ts';
import { ServiceError } from './errors.ts';

/** Call after a router's real routes: `allowOnly(router, '/:bot_id', ['GET', 'PUT'])`. */
export function allowOnly(router: Hono<AppEnv>, path: string, methods: string[]): void {
  router.all(path, (c) => {
    throw new ServiceError('method_not_allowed', `${c.req.method} is not supported here; use ${methods.join(' or ')}.`, {
      headers: { Allow: methods.join(', ') },
    });
  });
}
