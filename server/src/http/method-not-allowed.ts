/**
 * What a request no route answered gets: 405 `method_not_allowed` with an `Allow` header when its
 * path has routes for other methods, else 404 `route_not_found`. The methods are read from the
 * app's own routes at request time, so a route added anywhere (a new DELETE, say) takes over at
 * once and shows up in `Allow` without a list to keep in step.
 */
import type { Hono } from 'hono';
import type { AppEnv } from './context.ts';
import { ServiceError } from './errors.ts';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** True when `app` has a route (not a middleware: those are registered for every method) for `method` at `path`. */
function hasRoute(app: Hono<AppEnv>, method: string, path: string): boolean {
  const [handlers] = app.router.match(method, path);
  return handlers.some(([[, route]]) => route.method !== 'ALL');
}

export function unmatchedRoute(app: Hono<AppEnv>, method: string, path: string): ServiceError {
  const allowed = METHODS.filter((m) => m !== method && hasRoute(app, m, path));
  if (allowed.length === 0) return new ServiceError('route_not_found', `No route ${method} ${path}.`);
  return new ServiceError('method_not_allowed', `${method} is not supported here; use ${allowed.join(' or ')}.`, {
    headers: { Allow: allowed.join(', ') },
  });
}

/**
 * Not needed any more: the app answers 405 for every path by itself (`unmatchedRoute`). Kept only
 * while routers still call it; a router that does must list every method the path has, and must
 * call it after all of them (it answers any method that reaches it).
 */
export function allowOnly(router: Hono<AppEnv>, path: string, methods: string[]): void {
  router.all(path, (c) => {
    throw new ServiceError('method_not_allowed', `${c.req.method} is not supported here; use ${methods.join(' or ')}.`, {
      headers: { Allow: methods.join(', ') },
    });
  });
}
