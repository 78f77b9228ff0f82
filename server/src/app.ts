/**
 * The HTTP application: cross-cutting middleware in a fixed order, then one router per resource.
 * Order matters: request id + timing first (every answer carries them), the Host check (DNS
 * rebinding), CORS before anything that can refuse, usage recording around everything under /v1,
 * the auth + rate-limit gate (so even a 413 carries X-RateLimit-*), then the body limit before any
 * handler parses a body.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { agentRoutes } from './agents/routes.ts';
import { attachmentRoutes, isAttachmentUploadPath } from './attachments/routes.ts';
import { analyticsRoutes } from './analytics/routes.ts';
import { botRoutes } from './bots/routes.ts';
import { botChannelRoutes } from './channels/routes.ts';
import { channelWebhookRoutes } from './channels/webhooks.ts';
import { chatRoutes } from './chat/routes.ts';
import { dashboardHeaders, dashboardRoutes } from './dashboard/routes.ts';
import { conversationRoutes } from './conversations/routes.ts';
import { conversationFeedbackRoutes, feedbackRoutes } from './feedback/routes.ts';
import { botCsatRoutes, conversationCsatRoutes } from './csat/routes.ts';
import { botHandoffRoutes, conversationHandoffRoutes } from './handoff/routes.ts';
import { assignmentRoutes, conversationAssignmentRoutes } from './handoff/assignment-routes.ts';
import { AllowedHosts, allowedHostsOnly } from './http/allowed-hosts.ts';
import { gate } from './http/auth.ts';
import { bodyLimit } from './http/body-limit.ts';
import type { AppEnv } from './http/context.ts';
import { cors } from './http/cors.ts';
import { errorResponse } from './http/error-handler.ts';
import { ServiceError } from './http/errors.ts';
import { unmatchedRoute } from './http/method-not-allowed.ts';
import { knowledgeRoutes } from './knowledge/routes.ts';
import { webhookRoutes } from './webhooks/routes.ts';
import { cannedReplyRoutes } from './canned-replies/routes.ts';
import { isUploadPath, uploadBodyBytes } from './knowledge/import/options.ts';
import { newId } from './ids.ts';
import { openapiRoutes } from './openapi/routes.ts';
import { sameOriginWrites } from './sessions/middleware.ts';
import { widgetTokenCalls, widgetTokenRoutes } from './widget-tokens/routes.ts';
import type { Deps } from './services.ts';

/** Any version but v1 (v0, v2…v9, v10…). */
const VERSION_PATH = '/:version{v(?:0|[2-9]|[1-9][0-9]+)}/*';

/** Routes anyone may read without a key (still rate-limited: per key when one is sent, else per IP). */
const PUBLIC_PATHS = new Set(['/v1/openapi.json']);

/** Where the dashboard reaches the /v1 routes with its session (docs/dashboard-api.md). */
export const DASHBOARD_V1 = '/dashboard/api/v1';

export function createApp(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const gateDeps = {
    accounts: deps.accounts,
    sessions: deps.dashboard.sessions,
    rateLimits: deps.rateLimits,
    defaultRateLimit: deps.config.rateLimit,
    trustedProxies: deps.config.trustedProxies,
  };

  app.use('*', async (c, next) => {
    c.set('requestId', newId('req', 16));
    c.set('startedAt', performance.now());
    c.header('X-Request-Id', c.get('requestId'));
    await next();
  });
  // Before anything else answers: a foreign Host is a DNS-rebinding page calling us as its own origin.
  app.use('*', allowedHostsOnly(new AllowedHosts(deps.config.publicUrls, deps.config.hostNames)));
  app.use('/v*', cors(deps.db, deps.config.corsOrigins));

  /** Records every request of a /v1 mount, by its /v1 route pattern, for the usage report. */
  const recordUsage =
    (mount: string): MiddlewareHandler<AppEnv> =>
    async (c, next) => {
      await next();
      // The matched route pattern, not the raw path: ids must not explode the report's cardinality.
      // The last one of this mount: /dashboard's own middleware also matches the passthrough's paths.
      const route = matchedRoutes(c).filter((r) => r.path.startsWith(`${mount}/`)).at(-1)?.path ?? '*';
      deps.usage.record({
        accountId: c.get('principal')?.accountId ?? null,
        method: c.req.method,
        route: route === '/*' || route === '*' || route.endsWith('/*') ? '(unmatched)' : `/v1${route.slice(mount.length)}`,
        status: c.res.status,
        latencyMs: performance.now() - c.get('startedAt'),
      });
    };

  // One router holds every /v1 resource; it is mounted twice, each mount with its own credentials.
  const v1 = new Hono<AppEnv>();
  v1.route('/', openapiRoutes());
  v1.route('/bots', botRoutes(deps));
  v1.route('/bots', botHandoffRoutes(deps));
  v1.route('/bots', botCsatRoutes(deps));
  v1.route('/bots', botChannelRoutes(deps));
  v1.route('/chat', chatRoutes(deps));
  v1.route('/conversations', conversationRoutes(deps));
  v1.route('/conversations', conversationHandoffRoutes(deps));
  v1.route('/conversations', conversationAssignmentRoutes(deps));
  v1.route('/conversations', conversationFeedbackRoutes(deps));
  v1.route('/conversations', conversationCsatRoutes(deps));
  v1.route('/messages', feedbackRoutes(deps));
  v1.route('/agents', agentRoutes(deps));
  v1.route('/knowledge', knowledgeRoutes(deps));
  v1.route('/analytics', analyticsRoutes(deps));
  v1.route('/attachments', attachmentRoutes(deps));
  v1.route('/webhooks', webhookRoutes(deps));
  v1.route('/canned-replies', cannedReplyRoutes(deps));
  v1.route('/assignment', assignmentRoutes(deps));

  // Knowledge imports and attachments take uploaded files: their own (larger) limits, the service's elsewhere.
  const uploadBytes = Math.max(deps.config.maxBodyBytes, uploadBodyBytes(deps.config.imports));
  const attachmentBytes = Math.max(deps.config.maxBodyBytes, deps.config.maxAttachmentBytes);
  const maxBodyBytes = (path: string) =>
    isUploadPath(path) ? uploadBytes : isAttachmentUploadPath(path) ? attachmentBytes : deps.config.maxBodyBytes;

  // The platforms' webhooks, before the gate: they carry no key and are not the account's API use
  // (channels/webhooks.ts bounds them itself: a body cap and a budget per channel).
  app.route('/v1/channels', channelWebhookRoutes(deps));
  // The one-snippet install: visitor tokens for a bot's listed origins need no key, and a call
  // with one is served as the token proxy would forward it, in process (widget-tokens/routes.ts).
  app.route('/v1/widget', widgetTokenRoutes(deps));
  app.use('/v1/*', widgetTokenCalls(deps, (request, env) => app.fetch(request, env)));

  const authenticated = gate(gateDeps, { requireAuth: true });
  const anonymous = gate(gateDeps, { requireAuth: false });
  app.use('/v1/*', recordUsage('/v1'));
  app.use('/v1/*', (c, next) => (PUBLIC_PATHS.has(c.req.path) ? anonymous(c, next) : authenticated(c, next)));
  app.use('/v1/*', bodyLimit(maxBodyBytes));
  app.route('/v1', v1);

  // The dashboard's passthrough: the same routes for the signed-in user's account, authenticated by
  // the session cookie (+ Origin and CSRF token on writes), so no API key ever reaches the browser.
  // Registered before the rest of /dashboard so its 16 KiB body limit does not apply here.
  app.use(`${DASHBOARD_V1}/*`, dashboardHeaders, recordUsage(DASHBOARD_V1), sameOriginWrites(deps.config.trustedProxies));
  app.use(`${DASHBOARD_V1}/*`, gate(gateDeps, { requireAuth: true, credentials: 'session' }));
  app.use(`${DASHBOARD_V1}/*`, bodyLimit(maxBodyBytes));
  app.route(DASHBOARD_V1, v1);

  // The dashboard's session-authenticated surface (cookies, CSRF, no CORS): outside /v1 on purpose.
  app.route('/', dashboardRoutes(deps));

  // Other versions: rate-limited like any caller, then a clear answer.
  app.use(VERSION_PATH, anonymous);
  app.all(VERSION_PATH, (c) => {
    throw new ServiceError('unsupported_version', `API version ${c.req.param('version')} is not supported; use /v1.`, {
      param: 'version',
    });
  });

  // No route answered: 405 when the path has routes for other methods, else 404 (both the envelope).
  app.notFound((c) => errorResponse(c, unmatchedRoute(app, c.req.method, c.req.path), deps.logger));
  app.onError((error, c) => errorResponse(c, error, deps.logger));
  return app;
}
