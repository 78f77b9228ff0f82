/**
 * The gate in front of every /v1 resource: Bearer authentication, then the rate limit of that
 * account (or of the client IP when there is no valid key), with `X-RateLimit-*` on every answer.
 * The limit is charged before the auth error is raised, so guessing keys is rate limited too.
 */
import type { MiddlewareHandler } from 'hono';
import type { AccountService, AuthenticatedKey, RateLimitPlan } from '../accounts/service.ts';
import type { RateLimits } from '../rate-limit/limiter.ts';
import { clientAddress } from './client-ip.ts';
import type { AppContext, AppEnv } from './context.ts';
import { ServiceError } from './errors.ts';

export interface GateDeps {
  accounts: AccountService;
  rateLimits: RateLimits;
  defaultRateLimit: RateLimitPlan;
  /** See `ServiceOptions.trustedProxies`. */
  trustedProxies: number;
}

const WWW_AUTHENTICATE = { 'WWW-Authenticate': 'Bearer realm="ai-chat"' };

async function resolveAccount(c: AppContext, accounts: AccountService): Promise<AuthenticatedKey | ServiceError> {
  const header = c.req.header('authorization');
  if (!header) {
    return new ServiceError('authentication_required', 'Send your API key as "Authorization: Bearer <key>".', {
      headers: WWW_AUTHENTICATE,
    });
  }
  const match = /^Bearer[ ]+([\x21-\x7e]{1,512})[ ]*$/i.exec(header);
  if (!match) {
    return new ServiceError('authentication_required', 'The Authorization header must be "Bearer <key>".', {
      headers: WWW_AUTHENTICATE,
    });
  }
  const account = await accounts.authenticate(match[1]!);
  return account ?? new ServiceError('invalid_api_key', 'The API key is not valid.', { headers: WWW_AUTHENTICATE });
}

/**
 * `requireAuth: false` never refuses a key (public routes such as the OpenAPI document, other API
 * versions): a valid key is still charged to its account, anything else to the client IP.
 */
export function gate(deps: GateDeps, options: { requireAuth: boolean }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const account = options.requireAuth || c.req.header('authorization') ? await resolveAccount(c, deps.accounts) : null;
    const known = account && !(account instanceof ServiceError) ? account : null;
    const plan = known?.rateLimit ?? deps.defaultRateLimit;
    const ip = clientAddress(c.req.raw.headers, c.env, deps.trustedProxies) ?? 'unknown';
    const result = await deps.rateLimits.consume(known ? `acct:${known.id}` : `ip:${ip}`, plan);
    c.header('X-RateLimit-Limit', String(result.info.limit));
    c.header('X-RateLimit-Remaining', String(result.info.remaining));
    c.header('X-RateLimit-Reset', String(result.info.reset));
    c.set('rateLimit', result.info);
    if (!result.allowed) {
      throw new ServiceError('rate_limited', `Rate limit exceeded; retry in ${result.retryAfterSeconds} s.`, {
        headers: { 'Retry-After': String(result.retryAfterSeconds) },
      });
    }
    if (account instanceof ServiceError && options.requireAuth) throw account;
    if (known) c.set('principal', { accountId: known.id, kind: 'api_key' });
    // After the principal is set, so the refusal counts in the account's usage report.
    if (known?.scope === 'read_only' && c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      throw new ServiceError('insufficient_scope', `This API key is read-only: it may send GET requests only, not ${c.req.method}.`);
    }
    await next();
  };
}
