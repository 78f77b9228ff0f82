/**
 * Records every /v1 request (account, method, route pattern, status, latency) for the usage report.
 * Writes happen after the response is produced and are not awaited by the request; `flush()` lets a
 * report (and a test) wait until everything recorded so far is in the database.
 *
 * Records are batched: everything recorded in one turn of the event loop goes into the database as
 * one multi-row INSERT, and while that INSERT runs, what is recorded meanwhile waits for it and goes
 * in the next (one INSERT in flight at a time). With embedded PGlite every statement runs on this
 * thread (~0.2 ms each), so one statement per request was a visible share of a chat request; a row
 * in a batch costs ~0.02 ms.
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
  private inFlight: Promise<void> | null = null;
  private buffer: RequestRecord[] = [];
  /** Records so far, and how many of the first ones are written (or failed and logged): batches go in order. */
  private recorded = 0;
  private written = 0;
  private scheduled = false;
  /** `settled()` callers, told after each batch. */
  private readonly waiters: (() => void)[] = [];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly logger: Logger,
  ) {}

  record(entry: RequestRecord): void {
    this.buffer.push(entry);
    this.recorded++;
    if (this.inFlight || this.scheduled) return; // the write in flight takes it up when it ends
    this.scheduled = true;
    // setImmediate runs after the I/O of this turn: requests answered together share one INSERT.
    setImmediate(() => this.write());
  }

  /** Resolves once everything recorded before the call is in the database. */
  async flush(): Promise<void> {
    const target = this.recorded;
    while (this.written < target) {
      this.write();
      await this.inFlight;
    }
  }

  /**
   * Resolves once everything recorded before the call is in the database, written on the recorder's
   * own schedule: unlike `flush()` it starts no write, so a test can see that a lone record is written.
   */
  async settled(): Promise<void> {
    const target = this.recorded;
    while (this.written < target) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** At shutdown, once no request is answered any more: everything recorded, and no write left running. */
  async close(): Promise<void> {
    while (this.inFlight || this.buffer.length > 0) {
      this.write();
      await this.inFlight;
    }
  }

  private write(): void {
    this.scheduled = false;
    if (this.inFlight || this.buffer.length === 0) return;
    const batch = this.buffer.splice(0, MAX_BATCH);
    this.inFlight = this.db
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
      .finally(() => {
        this.written += batch.length;
        this.inFlight = null;
        for (const waiter of this.waiters.splice(0)) waiter();
        this.write();
      });
  }
}
