import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import type { Deps } from '../services.ts';

/** TODO(server helper): the /v1/agents routes. */
export function agentRoutes(_deps: Deps): Hono<AppEnv> {
  return new Hono<AppEnv>();
}
