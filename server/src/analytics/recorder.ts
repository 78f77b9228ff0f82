/**
 * Records every /v1 request (account, method, route pattern, status, latency) for the usage report.
 * Writes happen after the response is produced and are not awaited by the request; `flush()` lets a
 * report (and a test) wait until everything recorded so far is in the database.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Logger } from '../logger.ts';

export interface RequestRecord {
  accountId: string | null;
  method: string;
  route: string;
  status: number;
  latencyMs: number;
}

export class UsageRecorder {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly logger: Logger,
  ) {}

  record(entry: RequestRecord): void {
    const write = this.db
      .insertInto('api_requests')
      .values({
        account_id: entry.accountId,
        method: entry.method,
        route: entry.route,
        status: entry.status,
        latency_ms: Math.round(entry.latencyMs),
      })
      .execute()
      .then(
        () => undefined,
        (error: unknown) => this.logger.error('usage record failed', { error: String(error) }),
      )
      .finally(() => this.pending.delete(write));
    this.pending.add(write);
  }

  async flush(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}
