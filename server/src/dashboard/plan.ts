/** The account's plan as the dashboard shows it: its request limit and this window's use. */
import type { AccountService } from '../accounts/service.ts';
import type { RateLimitPlan, RateLimits } from '../rate-limit/limiter.ts';
import type { Plan } from '../../../src/dashboard/types.ts';

/** The JSON shape, shared with the dashboard. */
export type { Plan };

export async function planOf(accounts: AccountService, rateLimits: RateLimits, defaultPlan: RateLimitPlan, accountId: string): Promise<Plan> {
  const own = await accounts.rateLimitOf(accountId);
  const plan = own ?? defaultPlan;
  // The same key and plan the /v1 gate charges (http/auth.ts), read without charging it.
  const window = await rateLimits.peek(`acct:${accountId}`, plan);
  return {
    rate_limit: { limit: plan.points, window_seconds: plan.durationSeconds, source: own ? 'account' : 'default' },
    current_window: window
      ? { used: window.used, remaining: window.remaining, reset: window.reset }
      : { used: 0, remaining: plan.points, reset: null },
  };
}
