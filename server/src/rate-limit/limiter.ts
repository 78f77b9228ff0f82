/**
 * Fixed-window request limits per account (API key) or per client IP, in memory by default and in
 * Redis when `REDIS_URL` is set (so several processes share one budget). rate-limiter-flexible does
 * the counting; this file only maps its answer onto the spec's headers.
 */
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateLimitInfo } from '../../../src/client/types.ts';

/** A budget: `points` requests per `durationSeconds` window (an account's, or the service default). */
export interface RateLimitPlan {
  points: number;
  durationSeconds: number;
}

export interface ConsumeResult {
  allowed: boolean;
  info: RateLimitInfo;
  /** Whole seconds until a request may succeed again (0 when allowed). */
  retryAfterSeconds: number;
}

/** Anything with the ioredis client shape that rate-limiter-flexible accepts. */
export type RedisClient = object;

export class RateLimits {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(private readonly redis?: RedisClient) {}

  private limiterFor(plan: RateLimitPlan): RateLimiterAbstract {
    const id = `${plan.points}/${plan.durationSeconds}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      const options = { points: plan.points, duration: plan.durationSeconds, keyPrefix: `aicw:rl:${id}` };
      limiter = this.redis
        ? new RateLimiterRedis({
            ...options,
            storeClient: this.redis,
            // If Redis is unreachable, keep limiting per process rather than failing every request.
            insuranceLimiter: new RateLimiterMemory(options),
          })
        : new RateLimiterMemory(options);
      this.limiters.set(id, limiter);
    }
    return limiter;
  }

  async consume(key: string, plan: RateLimitPlan): Promise<ConsumeResult> {
    const limiter = this.limiterFor(plan);
    try {
      const res = await limiter.consume(key);
      return { allowed: true, info: toInfo(plan, res), retryAfterSeconds: 0 };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return {
        allowed: false,
        info: toInfo(plan, rejection),
        retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)),
      };
    }
  }

  /**
   * Charges each `[key, plan]` in turn and answers the tightest (fewest remaining), so
   * `X-RateLimit-*` tells the budget that will run out first. The first refusal is the answer, and
   * the budgets after it are not charged (a visitor over its own limit spends none of the account's).
   */
  async consumeEach(budgets: readonly (readonly [key: string, plan: RateLimitPlan])[]): Promise<ConsumeResult> {
    let tightest: ConsumeResult | undefined;
    for (const [key, plan] of budgets) {
      const result = await this.consume(key, plan);
      if (!result.allowed) return result;
      if (!tightest || result.info.remaining < tightest.info.remaining) tightest = result;
    }
    if (!tightest) throw new Error('consumeEach() needs at least one budget');
    return tightest;
  }

  /** Gives `points` back to a key's window (a sign-in that turned out right is not counted). */
  async reward(key: string, plan: RateLimitPlan, points = 1): Promise<void> {
    await this.limiterFor(plan).reward(key, points);
  }

  /** Ends a key's window: it starts again from a full budget. */
  async reset(key: string, plan: RateLimitPlan): Promise<void> {
    await this.limiterFor(plan).delete(key);
  }

  /**
   * This window's use of a key without charging it (the dashboard's plan page): `used` counts every
   * request of the window, refused ones included. Null when the key has no window running.
   */
  async peek(key: string, plan: RateLimitPlan): Promise<(RateLimitInfo & { used: number }) | null> {
    const res = await this.limiterFor(plan).get(key);
    if (!res || res.msBeforeNext <= 0) return null;
    return { ...toInfo(plan, res), used: res.consumedPoints };
  }
}

function toInfo(plan: RateLimitPlan, res: RateLimiterRes): RateLimitInfo {
  return {
    limit: plan.points,
    remaining: Math.max(0, res.remainingPoints),
    reset: Math.ceil((Date.now() + res.msBeforeNext) / 1000),
  };
}
