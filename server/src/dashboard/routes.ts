/**
 * `/dashboard`: the session-authenticated surface the dashboard UI is built on (`/dashboard/api/…`,
 * JSON in the same envelope and error codes as /v1, documented in docs/dashboard-api.md), and the
 * dashboard UI at `/dashboard/` (page.ts). Every answer here carries a strict CSP with
 * `frame-ancestors 'none'` (no framing, so no clickjacking), `no-store`, and no CORS headers: only
 * pages of this origin can read it.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from '../http/body-limit.ts';
import type { AppEnv } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import type { AccountService } from '../accounts/service.ts';
import type { ServiceConfig } from '../config.ts';
import { inboxRoutes, type InboxRouteDeps } from '../handoff/inbox-routes.ts';
import { inboxVisitorRoutes, type InboxVisitorRouteDeps } from '../handoff/inbox-visitor-routes.ts';
import { presenceRoutes } from '../handoff/presence-routes.ts';
import { keyRoutes, type KeyRouteDeps } from '../keys/routes.ts';
import type { RateLimits } from '../rate-limit/limiter.ts';
import { requireSession, sameOriginWrites, signedIn } from '../sessions/middleware.ts';
import { authRoutes, type AuthRouteDeps } from '../users/routes.ts';
import { teamRoutes, type TeamRouteDeps } from '../users/team-routes.ts';
import { mountDashboardPage } from './page.ts';
import { planOf } from './plan.ts';

/** No inline script or style, nothing from another origin, never inside a frame. */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': DASHBOARD_CSP,
  'X-Frame-Options': 'DENY', // for browsers without frame-ancestors
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

/** Dashboard requests are small JSON objects. */
const MAX_BODY_BYTES = 16 * 1024;


/** The headers of every answer under /dashboard. */
export const dashboardHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.header(name, value);
  await next();
};

/** What the dashboard surface uses: its own routes' needs, and the plan's. */
export type DashboardRouteDeps = AuthRouteDeps &
  TeamRouteDeps &
  KeyRouteDeps &
  InboxRouteDeps &
  InboxVisitorRouteDeps & { accounts: AccountService; rateLimits: RateLimits; config: Pick<ServiceConfig, 'rateLimit'> };

export function dashboardRoutes(deps: DashboardRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();

  // Mounted at the root with full paths: a router mounted at '/dashboard' cannot serve '/dashboard/'.
  router.use('/dashboard/*', dashboardHeaders);
  mountDashboardPage(router, deps.dashboard.options.distDir);

  router.use('/dashboard/api/*', bodyLimit(MAX_BODY_BYTES), sameOriginWrites(deps.config.trustedProxies));
  router.route('/dashboard/api', authRoutes(deps));
  router.route('/dashboard/api', teamRoutes(deps));
  router.route('/dashboard/api/keys', keyRoutes(deps));
  // before the inbox's own routes, whose session check would otherwise run a second time
  router.route('/dashboard/api/inbox', inboxVisitorRoutes(deps));
  router.route('/dashboard/api/inbox', inboxRoutes(deps));
  router.route('/dashboard/api/me/presence', presenceRoutes(deps));

  router.use('/dashboard/api/plan', requireSession(deps.dashboard.sessions));
  router.get('/dashboard/api/plan', async (c) => {
    const session = signedIn(c);
    return ok(c, await planOf(deps.accounts, deps.rateLimits, deps.config.rateLimit, session.accountId));
  });
  return router;
}
