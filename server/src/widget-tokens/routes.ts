/**
 * The one-snippet install: `POST /v1/widget/tokens` mints a visitor token for a bot whose website
 * channel lists the page's origin, and `widgetTokenCalls` serves the calls made with such a token.
 *
 * A token call goes exactly the way the token proxy forwards one (src/proxy/: the same allowlist,
 * the same rewriting to the token's user and bot, the same body limits and idempotency keys), only
 * in process: into this app again, as the bot's account with the visitor's budgets (http/auth.ts),
 * never with an API key. Everything off the allowlist is 403 `permission_denied`.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { ProxyError } from '../../../src/proxy/errors.ts';
import { forward, viaFetch } from '../../../src/proxy/forward.ts';
import { anonymousId, type TokenResponseData } from '../../../src/proxy/mint.ts';
import { planForward, projectResponse } from '../../../src/proxy/policy.ts';
import { MAX_BODY_BYTES, readFile, readJsonObject } from '../../../src/proxy/request.ts';
import { charge, clientGroup, widgetBudgets } from '../http/auth.ts';
import type { AppContext, AppEnv } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { ServiceError } from '../http/errors.ts';
import { checkBody } from '../http/validate.ts';
import { widgetBearer } from '../http/widget-bearer.ts';
import type { RateLimitPlan, RateLimits } from '../rate-limit/limiter.ts';
import { widgetTokenRequestSchema } from './schema.ts';
import { WIDGET_CALL, widgetCallOf, type WidgetBot, type WidgetCall, type WidgetTokens } from './service.ts';

export interface WidgetTokenDeps {
  widgetTokens: WidgetTokens;
  rateLimits: RateLimits;
  config: { rateLimit: RateLimitPlan; trustedProxies: number; maxAttachmentBytes: number };
  accounts: { rateLimitOf(accountId: string): Promise<RateLimitPlan | null> };
}

/** Where the widget sends its calls with such a token: relative, so it resolves against the token URL. */
const API_BASE = '/v1';
/** Time the in-process answer may take (a chat turn with an LLM), as the proxy's default. */
const ANSWER_TIMEOUT_MS = 30_000;

/** A refusal by the proxy's shared code, as the service's own error (same code, status and headers). */
function asServiceError(error: unknown): unknown {
  return error instanceof ProxyError ? new ServiceError(error.code, error.message, { param: error.param, headers: error.headers }) : error;
}

/**
 * The bot, when it lets pages on `origin` mint tokens: listed in its website channel. Refused with
 * `origin_not_allowed` naming the origin and where to list it (no origin listed: self-minted tokens are off).
 */
function checkOrigin(bot: WidgetBot, botId: string, origin: string | undefined): void {
  const where = `Add it in the dashboard: the bot ${botId} → Website channel → allowed origins.`;
  if (!origin || origin === 'null') {
    throw new ServiceError('origin_not_allowed', `Widget tokens are for web pages: the request names no origin. ${where}`);
  }
  if (!bot.origins.includes(origin)) {
    const none = bot.origins.length === 0 ? ' The bot lists no website origin, so it gives no widget tokens yet.' : '';
    throw new ServiceError('origin_not_allowed', `Pages on ${origin} may not chat with this bot.${none} ${where}`, { param: 'Origin' });
  }
}

/** `POST /v1/widget/tokens` `{bot_id, user_id?}`, mounted before the auth gate: it needs no key. */
export function widgetTokenRoutes(deps: WidgetTokenDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.post('/tokens', async (c) => {
    const group = clientGroup(c, deps.config.trustedProxies);
    // First the address's anonymous budget, before any read: anyone may call this.
    await charge(c, deps.rateLimits, [[`ip:${group}`, deps.config.rateLimit]]);
    const body = await readJsonObject(c.req.raw, { maxBytes: 4096, optional: true }).catch((error) => {
      throw asServiceError(error);
    });
    const { bot_id: botId, user_id: heldId } = checkBody<{ bot_id: string; user_id?: string }>(body, widgetTokenRequestSchema);
    const bot = await deps.widgetTokens.bot(botId);
    if (!bot) throw new ServiceError('resource_not_found', 'No bot with that bot_id exists.', { param: 'bot_id' });
    const origin = c.req.header('origin');
    checkOrigin(bot, botId, origin);
    const plan = (await deps.accounts.rateLimitOf(bot.accountId)) ?? deps.config.rateLimit;
    await charge(c, deps.rateLimits, widgetBudgets(bot.accountId, null, group, plan));
    // The anon_… id the widget keeps is reused, so the visitor keeps its history across renewals.
    const userId = anonymousId(heldId);
    const { token, expiresAt } = await deps.widgetTokens.mint(userId, botId, origin!);
    const data: TokenResponseData = {
      token,
      expires_at: new Date(expiresAt * 1000).toISOString(),
      user_id: userId,
      bot_id: botId,
      api_base: API_BASE,
    };
    c.header('Cache-Control', 'no-store');
    return ok(c, data);
  });
  return routes;
}

/**
 * Serves `/v1/*` calls carrying a token the service minted (any other credential goes on to the
 * gate): the token, its origin and its bot's origins are checked, the call is planned as the
 * proxy would forward it, then `dispatch`ed into the app as a `WidgetCall`. A refused call is
 * charged to the client address's anonymous budget, as a refused API key is.
 */
export function widgetTokenCalls(
  deps: WidgetTokenDeps,
  dispatch: (request: Request, env: unknown) => Response | Promise<Response>,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = widgetBearer(c.req.header('authorization'));
    if (!token || widgetCallOf(c.env)) return next();
    try {
      const answer = await serve(c, token);
      return c.newResponse(answer.body, answer);
    } catch (error) {
      const refusal = asServiceError(error);
      if (refusal instanceof ServiceError && (refusal.status === 401 || refusal.status === 403)) {
        await charge(c, deps.rateLimits, [[`ip:${clientGroup(c, deps.config.trustedProxies)}`, deps.config.rateLimit]]);
      }
      throw refusal;
    }
  };

  async function serve(c: AppContext, token: string): Promise<Response> {
    const grant = await deps.widgetTokens.verify(token);
    const bot = grant.botId ? await deps.widgetTokens.bot(grant.botId) : null;
    if (!bot) throw new ServiceError('invalid_token', 'The token is not valid.');
    const origin = c.req.header('origin');
    if (origin !== grant.origin) {
      throw new ServiceError('origin_not_allowed', `This token was issued for pages on ${grant.origin}, not ${origin ?? 'a request without an Origin'}.`);
    }
    checkOrigin(bot, grant.botId!, origin); // still listed: removing an origin ends its tokens too
    const url = new URL(c.req.url);
    const plan = planForward(c.req.method, url.pathname, url.searchParams, grant, deps.widgetTokens.now);
    let body: string | Uint8Array<ArrayBuffer> | null = null;
    if (plan.hasBody === 'file') body = await readFile(c.req.raw, deps.config.maxAttachmentBytes);
    else if (plan.hasBody) body = JSON.stringify(plan.rewriteBody(await readJsonObject(c.req.raw, { maxBytes: MAX_BODY_BYTES })));
    const call: WidgetCall = { accountId: bot.accountId, visitor: grant.userId };
    const env = { ...(c.env as object), [WIDGET_CALL]: call };
    const forwarded = c.req.header('x-forwarded-for');
    const inProcess = viaFetch(async (input, init) => {
      const request = new Request(input, init);
      request.headers.delete('authorization'); // the WidgetCall is the credential in here
      // the same client address in here, for per-address budgets and quotas
      if (forwarded !== undefined) request.headers.set('x-forwarded-for', forwarded);
      return dispatch(request, env);
    });
    const upstream = { apiKey: '', upstream: url.origin, upstreamTimeoutMs: ANSWER_TIMEOUT_MS };
    const request = { method: c.req.method, path: plan.path, query: plan.query, body, incoming: c.req.raw, userId: grant.userId };
    const answer = await forward(request, upstream, null, inProcess);
    return plan.projectData ? projectResponse(answer, plan.projectData) : answer;
  }
}
