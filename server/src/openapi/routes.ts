import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import type { Deps } from '../services.ts';

/** TODO(server helper): GET /v1/openapi.json (public). */
export function openapiRoutes(_deps: Deps): Hono<AppEnv> {
  return new Hono<AppEnv>();
}
