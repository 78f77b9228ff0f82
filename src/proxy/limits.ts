/**
 * Fixed-window rate limits of the proxy (per token subject, per client IP). Counts live in a
 * `RateLimitStore`; the default keeps them in this process's memory, which is right for one
 * instance. Several instances (or Workers isolates) need a shared store, e.g. one over Redis or KV.
 */
import { ProxyError } from './errors.js';

/** Counts hits per key in fixed windows. */
export interface RateLimitRule {
  /** Requests allowed per window. */
  points: number;
  windowSeconds: number;
}

export interface RateLimitStore {
  /**
   * Adds one hit to `key` in the window of `windowSeconds` that contains now, and answers the count
   * so far (this hit included) and when that window ends (epoch ms).
   */
  hit(key: string, windowSeconds: number): Promise<{ count: number; resetAt: number }> | { count: number; resetAt: number };
}

/** The default store: a Map with lazy expiry (no timers, so it runs in any runtime and never keeps a process alive). */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private nextSweepAt = 0;

  constructor(private readonly maxKeys = 100_000) {}

  hit(key: string, windowSeconds: number): { count: number; resetAt: number } {
    const now = Date.now();
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowSeconds * 1000 };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetAt: window.resetAt };
  }

  /** Drops ended windows now and then, and everything if an attacker floods us with keys. */
  private sweep(now: number): void {
    if (now < this.nextSweepAt && this.windows.size < this.maxKeys) return;
    this.nextSweepAt = now + 10_000;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    if (this.windows.size >= this.maxKeys) this.windows.clear();
  }
}

/** The state of one limit after a hit, as `X-RateLimit-*` reports it. */
export interface LimitState {
  limit: number;
  remaining: number;
  /** Epoch seconds when the window ends. */
  reset: number;
  /** Seconds to wait when over the limit. */
  retryAfter: number;
  allowed: boolean;
}

export class RateLimiter {
  constructor(private readonly store: RateLimitStore) {}

  /**
   * Counts a hit against every `[key, rule]` pair and answers the tightest state; throws 429
   * `rate_limited` (with the headers) when any limit is exceeded.
   */
  async consume(checks: [key: string, rule: RateLimitRule | null][]): Promise<LimitState | null> {
    let tightest: LimitState | null = null;
    for (const [key, rule] of checks) {
      if (!rule) continue;
      const { count, resetAt } = await this.store.hit(key, rule.windowSeconds);
      const state: LimitState = {
        limit: rule.points,
        remaining: Math.max(0, rule.points - count),
        reset: Math.ceil(resetAt / 1000),
        retryAfter: Math.max(1, Math.ceil((resetAt - Date.now()) / 1000)),
        allowed: count <= rule.points,
      };
      if (!state.allowed) {
        throw new ProxyError('rate_limited', `Rate limit exceeded; retry in ${state.retryAfter} s.`, {
          headers: { ...limitHeaders(state), 'Retry-After': String(state.retryAfter) },
        });
      }
      if (!tightest || state.remaining < tightest.remaining) tightest = state;
    }
    return tightest;
  }
}

export function limitHeaders(state: LimitState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(state.reset),
  };
}
