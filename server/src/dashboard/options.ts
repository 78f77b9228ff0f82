/** Settings of the dashboard surface (`ServiceOptions.dashboard`). */
import type { RateLimitPlan } from '../accounts/service.ts';
import { DEFAULT_DASHBOARD_DIST } from './page.ts';

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
   * Sign-in attempts (right or wrong) per client address and per email address, shared across
   * instances through Redis like every limit. Sign-up has a per-address budget of the same size.
   * Default 20 per address and 10 per email per 15 minutes.
   */
  signInLimits?: { perAddress?: RateLimitPlan; perAccount?: RateLimitPlan };
  /** The built dashboard UI (`npm run build`); default the repository's `dist/dashboard/`. */
  distDir?: string;
}

export interface ResolvedDashboardOptions {
  signup: SignupPolicy;
  perAddress: RateLimitPlan;
  perAccount: RateLimitPlan;
  distDir: string;
}

export function resolveDashboardOptions(options: DashboardOptions = {}): ResolvedDashboardOptions {
  return {
    signup: options.signup ?? 'invite',
    perAddress: options.signInLimits?.perAddress ?? { points: 20, durationSeconds: 900 },
    perAccount: options.signInLimits?.perAccount ?? { points: 10, durationSeconds: 900 },
    distDir: options.distDir ?? DEFAULT_DASHBOARD_DIST,
  };
}

/** `AI_CHAT_SIGNUP` → a policy; anything else is ignored (the default applies). */
export function signupPolicyFromEnv(value: string | undefined): SignupPolicy | undefined {
  return SIGNUP_POLICIES.find((policy) => policy === value?.trim().toLowerCase());
}
