/** Settings of the dashboard surface (`ServiceOptions.dashboard`). */
import { fileURLToPath } from 'node:url';
import type { RateLimitPlan } from '../rate-limit/limiter.ts';

/** Where `vite build --mode dashboard` writes (the repository's dist/dashboard). */
export const DEFAULT_DASHBOARD_DIST = fileURLToPath(new URL('../../../dist/dashboard/', import.meta.url));

/**
 * Who may sign up after the first person (who always may, and owns the existing account):
 * `open` anyone (a new, empty account of their own), `invite` only with an owner's invite link,
 * `closed` nobody (invites cannot be created either).
 */
export type SignupPolicy = 'open' | 'invite' | 'closed';

export const SIGNUP_POLICIES: readonly SignupPolicy[] = ['open', 'invite', 'closed'];

export interface DashboardOptions {
  /** `AI_CHAT_SIGNUP`; default `invite`. */
  signup?: SignupPolicy;
  /**
   * Failed sign-in attempts (users/routes.ts) per client address (an IPv6 /64), per email and
   * address, and per email from devices not signed in from before (`perAccount`; a known device is
   * counted per device instead, with the per-email-and-address size). Shared across instances
   * through Redis like every limit. Sign-up has a per-address budget of `perAddress`'s size, a
   * password change a per-user one of `perAccount`'s. Default 20 per address, 10 per email and
   * address, 10 per email per 15 minutes.
   */
  signInLimits?: { perAddress?: RateLimitPlan; perEmailAddress?: RateLimitPlan; perAccount?: RateLimitPlan };
  /** The built dashboard UI (`npm run build`); default the repository's `dist/dashboard/`. */
  distDir?: string;
}

export interface ResolvedDashboardOptions {
  signup: SignupPolicy;
  perAddress: RateLimitPlan;
  perEmailAddress: RateLimitPlan;
  perAccount: RateLimitPlan;
  distDir: string;
}

export function resolveDashboardOptions(options: DashboardOptions = {}): ResolvedDashboardOptions {
  return {
    signup: options.signup ?? 'invite',
    perAddress: options.signInLimits?.perAddress ?? { points: 20, durationSeconds: 900 },
    perEmailAddress: options.signInLimits?.perEmailAddress ?? { points: 10, durationSeconds: 900 },
    perAccount: options.signInLimits?.perAccount ?? { points: 10, durationSeconds: 900 },
    distDir: options.distDir ?? DEFAULT_DASHBOARD_DIST,
  };
}

/** `AI_CHAT_SIGNUP` → a policy; anything else is ignored (the default applies). */
export function signupPolicyFromEnv(value: string | undefined): SignupPolicy | undefined {
  return SIGNUP_POLICIES.find((policy) => policy === value?.trim().toLowerCase());
}
