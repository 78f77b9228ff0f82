/** The account's plan as the dashboard shows it: its request limit and this window's use. */
import type { Kysely } from 'kysely';
import type { RateLimitPlan } from '../accounts/service.ts';
import type { Database } from '../db/schema.ts';
import type { RateLimits } from '../rate-limit/limiter.ts';

export interface Plan {
  rate_limit: {
    limit: number;
    window_seconds: number;
    /** `account`: this account's own plan; `default`: the service's default (`AI_CHAT_RATE_LIMIT`). */
    source: 'account' | 'default';
  };
  /** The fixed window now running, shared by every key of the account and every instance. */
  current_window: {
    /** Requests counted in this window, refused (429) ones included. */
    used: number;
    remaining: number;
    /** When the window ends (UTC epoch seconds), as in `X-RateLimit-Reset`; null when none is running. */
    reset: number | null;
  };
}

export async function planOf(db: Kysely<Database>, rateLimits: RateLimits, defaultPlan: RateLimitPlan, accountId: string): Promise<Plan> {
  const account = await db
    .selectFrom('accounts')
    .select(['rate_limit_points', 'rate_limit_duration_seconds'])
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  const own = account.rate_limit_points && account.rate_limit_duration_seconds;
  const plan = own ? { points: account.rate_limit_points!, durationSeconds: account.rate_limit_duration_seconds! } : defaultPlan;
  // The same key and plan the /v1 gate charges (http/auth.ts), read without charging it.
  const window = await rateLimits.peek(`acct:${accountId}`, plan);
  return {
    rate_limit: { limit: plan.points, window_seconds: plan.durationSeconds, source: own ? 'account' : 'default' },
    current_window: window
      ? { used: window.used, remaining: window.remaining, reset: window.reset }
      : { used: 0, remaining: plan.points, reset: null },
  };
}
