/**
 * The service graph: core dependencies every resource gets, plus the resource services. Built once
 * per process in `index.ts`; routes receive `Deps` and never construct services themselves.
 */
import type { Kysely } from 'kysely';
import type { AccountService } from './accounts/service.ts';
import type { UsageRecorder } from './analytics/recorder.ts';
import type { ServiceConfig } from './config.ts';
import type { Database } from './db/schema.ts';
import type { Logger } from './logger.ts';
import type { RateLimits } from './rate-limit/limiter.ts';

export interface CoreDeps {
  config: ServiceConfig;
  logger: Logger;
  db: Kysely<Database>;
  accounts: AccountService;
  rateLimits: RateLimits;
  usage: UsageRecorder;
}

/** Resource services (each resource folder adds its own here). */
export interface Services {}

export type Deps = CoreDeps & Services;

export async function createServices(_core: CoreDeps): Promise<Services> {
  return {};
}

/** Stops background work (training workers, timers) before the database closes. */
export async function closeServices(_services: Services): Promise<void> {}
