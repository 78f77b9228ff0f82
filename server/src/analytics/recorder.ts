/**
 * Records every /v1 request (account, method, route pattern, status, latency) for the usage report.
 * Writes happen after the response is produced and are not awaited by the request; `flush()` lets a
 * report (and a test) wait until everything recorded so far is in the database.
 *
 * Records are batched: everything recorded in one turn of the event loop goes into the database as
 * one multi-row INSERT. With embedded PGlite every statement runs on this thread (~0.2 ms each), so
 * one statement per request was a visible share of a chat request; a row in a batch costs ~0.02 ms.
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

/** Rows per INSERT: keeps a statement's parameter count (5 per row) far below PostgreSQL's 65,535. */
const MAX_BATCH = 1000;

export class UsageRecorder {
  private readonly pending = new Set<Promise<void>>();
  private buffer: RequestRecord[] = [];
  private scheduled = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly logger: Logger,
  ) {}

  record(entry: RequestRecord): void {
    this.buffer.push(entry);
    if (this.buffer.length >= MAX_BATCH) this.write();
    else if (!this.scheduled) {
      this.scheduled = true;
      // setImmediate runs after the I/O of this turn: requests answered together share one INSERT.
      setImmediate(() => this.write());
    }
  }

  async flush(): Promise<void> {
    this.write();
    await Promise.all([...this.pending]);
  }

  private write(): void {
    this.scheduled = false;
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    const write = this.db
      .insertInto('api_requests')
      .values(
        batch.map((entry) => ({
          account_id: entry.accountId,
          method: entry.method,
          route: entry.route,
          status: entry.status,
          latency_ms: Math.round(entry.latencyMs),
        })),
      )
      .execute()
      .then(
        () => undefined,
        (error: unknown) => this.logger.error('usage record failed', { error: String(error), rows: batch.length }),
      )
      .finally(() => this.pending.delete(write));
    this.pending.add(write);
  }
}
