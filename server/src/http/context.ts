/** What every handler can read from the request context. */
import type { Context } from 'hono';
import type { RateLimitInfo } from '../../../src/client/types.ts';

export interface Principal {
  accountId: string;
  /**
   * `api_key`: a Bearer key on /v1. `session`: a dashboard session cookie on the dashboard's
   * passthrough `/dashboard/api/v1` (the same routes, for the session's account). `widget`: a
   * visitor token the service minted itself (widget-tokens/), on the widget's routes only.
   */
  kind: 'api_key' | 'session' | 'widget';
}

export interface AppEnv {
  Variables: {
    requestId: string;
    startedAt: number;
    principal: Principal | undefined;
    rateLimit: RateLimitInfo | undefined;
  };
}

export type AppContext = Context<AppEnv>;

/** The authenticated account of this request; the auth middleware guarantees it on /v1 resources. */
export function accountId(c: AppContext): string {
  const principal = c.get('principal');
  if (!principal) throw new Error('accountId() used on a route without authentication');
  return principal.accountId;
}
