/**
 * The gate in front of every /v1 resource: authentication, then the rate limits of that account's
 * budget the caller belongs to (`budgetsOf`: API keys, dashboard, widget visitors; the client IP's
 * when there is no account), with `X-RateLimit-*` on every answer. The limit is charged
 * before the auth error is raised, so guessing keys is rate limited too.
 *
 * Two kinds of credentials, one per mount of the same routes:
 * - `api_key`: `Authorization: Bearer <key>` on `/v1`; or a visitor token the service minted itself,
 *   which `widget-tokens/routes.ts` checks and hands in as a `WidgetCall` (kind `widget`);
 * - `session`: the dashboard's session cookie on `/dashboard/api/v1`, so the dashboard runs the very
 *   same routes without any API key reaching the browser. Writes there also need the session's
 *   `X-CSRF-Token` (the Origin check runs before, as on all of /dashboard/api). The dashboard has a
 *   budget of the account's plan size of its own, beside the keys'.
 */
import type { MiddlewareHandler } from 'hono';
import type { AccountService } from '../accounts/service.ts';
import type { KeyScope } from '../db/dashboard-schema.ts';
import type { RateLimitPlan, RateLimits } from '../rate-limit/limiter.ts';
import { csrfTokenRefusal, sessionToken } from '../sessions/middleware.ts';
import type { SessionService } from '../sessions/service.ts';
import { widgetCallOf, type WidgetCall } from '../widget-tokens/service.ts';
import { CALLER_HEADER } from '../chat/routes.ts';
import { addressGroup, clientAddress } from './client-ip.ts';
import type { AppContext, AppEnv, Principal } from './context.ts';
import { ServiceError } from './errors.ts';

export interface GateDeps {
  accounts: AccountService;
  sessions: SessionService;
  rateLimits: RateLimits;
  defaultRateLimit: RateLimitPlan;
  /** See `ServiceOptions.trustedProxies`. */
  trustedProxies: number;
}

/** Who is calling, once the credentials checked out. */
interface Caller {
  accountId: string;
  kind: Principal['kind'];
  rateLimit: RateLimitPlan | null;
  scope: KeyScope;
}

/**
 * What the credentials say: no caller and an error (missing, unknown), a caller, or both — a
 * session's write without its CSRF token is charged to that account, then refused.
 */
interface Resolution {
  caller: Caller | null;
  error: ServiceError | null;
}

function refused(error: ServiceError): Resolution {
  return { caller: null, error };
}

const WWW_AUTHENTICATE = { 'WWW-Authenticate': 'Bearer realm="ai-chat"' };

async function resolveApiKey(c: AppContext, accounts: AccountService): Promise<Resolution> {
  const header = c.req.header('authorization');
  if (!header) {
    return refused(new ServiceError('authentication_required', 'Send your API key as "Authorization: Bearer <key>".', {
      headers: WWW_AUTHENTICATE,
    }));
  }
  const match = /^Bearer[ ]+([\x21-\x7e]{1,512})[ ]*$/i.exec(header);
  if (!match) {
    return refused(new ServiceError('authentication_required', 'The Authorization header must be "Bearer <key>".', {
      headers: WWW_AUTHENTICATE,
    }));
  }
  const key = await accounts.authenticate(match[1]!);
  if (!key) return refused(new ServiceError('invalid_api_key', 'The API key is not valid.', { headers: WWW_AUTHENTICATE }));
  return { caller: { accountId: key.id, kind: 'api_key', rateLimit: key.rateLimit, scope: key.scope }, error: null };
}

async function resolveWidget(call: WidgetCall, accounts: AccountService): Promise<Resolution> {
  const rateLimit = await accounts.rateLimitOf(call.accountId);
  return { caller: { accountId: call.accountId, kind: 'widget', rateLimit, scope: 'full' }, error: null };
}

async function resolveSession(c: AppContext, deps: GateDeps): Promise<Resolution> {
  const session = await deps.sessions.lookup(sessionToken(c));
  if (!session) return refused(new ServiceError('authentication_required', 'Sign in to the dashboard first.'));
  const caller: Caller = {
    accountId: session.accountId,
    kind: 'session',
    rateLimit: await deps.accounts.rateLimitOf(session.accountId),
    // Members may run bots, agents and knowledge too; what only owners may do (keys, teammates)
    // is not under /v1.
    scope: 'full',
  };
  return { caller, error: csrfTokenRefusal(c, session, { bearer: true }) };
}

/** Sent by the token proxy with `AI-Chat-Caller: widget`: the visitor (the token's user) it calls for. */
export const VISITOR_HEADER = 'AI-Chat-Visitor';
const VISITOR_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

/** The visitor a widget call names: its id, undefined when it names none (or is no widget call), null when malformed. */
function visitorOf(c: AppContext): string | null | undefined {
  if (c.req.header(CALLER_HEADER) !== 'widget') return undefined;
  const visitor = c.req.header(VISITOR_HEADER);
  return visitor === undefined || VISITOR_ID.test(visitor) ? visitor : null;
}

/**
 * The budgets a request is charged to. An account's plan is three separate budgets of its size, so
 * none can starve another: its API keys', its dashboard sessions', and its widget visitors' (calls
 * the token proxy makes with `AI-Chat-Caller: widget`). Each visitor also has a quarter of the plan
 * of its own, so one busy visitor cannot spend the others' budget. Without credentials: the client
 * address's budget of the default plan (an IPv6 client's per /64, as it can use any address in it).
 */
function budgetsOf(c: AppContext, known: Caller | null, deps: GateDeps): [string, RateLimitPlan][] {
  const plan = known?.rateLimit ?? deps.defaultRateLimit;
  if (!known) return [[`ip:${clientGroup(c, deps.trustedProxies)}`, plan]];
  const account = known.accountId;
  if (known.kind === 'session') return [[`dash:${account}`, plan]];
  const widget = widgetCallOf(c.env);
  if (known.kind === 'widget' && widget) return widgetBudgets(account, widget.visitor, clientGroup(c, deps.trustedProxies), plan);
  if (c.req.header(CALLER_HEADER) !== 'widget') return [[`acct:${account}`, plan]];
  const visitors: [string, RateLimitPlan] = [`visitors:${account}`, plan];
  const visitor = visitorOf(c);
  if (!visitor) return [visitors]; // a malformed one is refused after the charge
  return [[`visitor:${account}:${visitor}`, visitorPlan(plan)], visitors];
}

/** One visitor's share of its account's visitor budget. */
function visitorPlan(plan: RateLimitPlan): RateLimitPlan {
  return { points: Math.max(1, Math.floor(plan.points / 4)), durationSeconds: plan.durationSeconds };
}

/** The client's address block (an IPv6 client's /64), as per-address budgets count it. */
export function clientGroup(c: AppContext, trustedProxies: number): string {
  return addressGroup(clientAddress(c.req.raw.headers, c.env, trustedProxies) ?? 'unknown');
}

/**
 * The budgets of a visitor with a token the service minted (no proxy of the site's own stands in
 * front to count per address): its own share, its address's (half the plan: a whole office may
 * share one), then the account's visitors' budget. `visitor` null: minting, before there is one.
 */
export function widgetBudgets(accountId: string, visitor: string | null, group: string, plan: RateLimitPlan): [string, RateLimitPlan][] {
  const address: [string, RateLimitPlan] = [`visitor-ip:${accountId}:${group}`, { points: Math.max(1, Math.floor(plan.points / 2)), durationSeconds: plan.durationSeconds }];
  const budgets: [string, RateLimitPlan][] = [address, [`visitors:${accountId}`, plan]];
  return visitor ? [[`visitor:${accountId}:${visitor}`, visitorPlan(plan)], ...budgets] : budgets;
}

/** Charges `budgets` with `X-RateLimit-*` on the answer; over one of them: 429 `rate_limited`. */
export async function charge(c: AppContext, rateLimits: RateLimits, budgets: [string, RateLimitPlan][]): Promise<void> {
  const result = await rateLimits.consumeEach(budgets);
  c.header('X-RateLimit-Limit', String(result.info.limit));
  c.header('X-RateLimit-Remaining', String(result.info.remaining));
  c.header('X-RateLimit-Reset', String(result.info.reset));
  c.set('rateLimit', result.info);
  if (!result.allowed) {
    throw new ServiceError('rate_limited', `Rate limit exceeded; retry in ${result.retryAfterSeconds} s.`, {
      headers: { 'Retry-After': String(result.retryAfterSeconds) },
    });
  }
}

export interface GateOptions {
  /** `false` never refuses a missing or bad credential (public routes such as the OpenAPI document). */
  requireAuth: boolean;
  /** Default `api_key`. */
  credentials?: 'api_key' | 'session';
}

/**
 * `requireAuth: false` never refuses a key (public routes such as the OpenAPI document, other API
 * versions): a valid key is still charged to its account, anything else to the client IP.
 */
export function gate(deps: GateDeps, options: GateOptions): MiddlewareHandler<AppEnv> {
  const bySession = options.credentials === 'session';
  return async (c, next) => {
    const widget = bySession ? undefined : widgetCallOf(c.env);
    const { caller: known, error } = widget
      ? await resolveWidget(widget, deps.accounts)
      : bySession
        ? await resolveSession(c, deps)
        : options.requireAuth || c.req.header('authorization')
          ? await resolveApiKey(c, deps.accounts)
          : { caller: null, error: null };
    await charge(c, deps.rateLimits, budgetsOf(c, known, deps));
    if (known) c.set('principal', { accountId: known.accountId, kind: known.kind });
    // After the principal is set, so a known caller's refusal counts in the account's usage report.
    if (error && (known || options.requireAuth)) throw error;
    if (known && visitorOf(c) === null) {
      throw new ServiceError('validation_failed', `${VISITOR_HEADER} must be 1–128 characters of [A-Za-z0-9._:@-].`, { param: VISITOR_HEADER });
    }
    if (known?.scope === 'read_only' && c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      throw new ServiceError('insufficient_scope', `This API key is read-only: it may send GET requests only, not ${c.req.method}.`);
    }
    await next();
  };
}
