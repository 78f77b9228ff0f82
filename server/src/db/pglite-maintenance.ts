/**
 * What PostgreSQL's autovacuum does for a server's statistics, done for embedded PGlite, which runs
 * no background workers: every so often the table whose rows changed most past autovacuum's default
 * threshold since its last ANALYZE is analyzed. Without it the planner keeps the statistics of an
 * empty database for good: with thousands of conversations in an account it still guessed nine, and
 * a batched bot turn read all of them to find its twenty.
 *
 * PGlite runs in the service's thread, so this work blocks every request while it runs. Hence one
 * table a tick, sampled at a tenth of the default (`default_statistics_target` 10: 3,000 rows, about
 * 20 ms for a table of 100,000 knowledge entries here, against 300 ms at the default), and no VACUUM,
 * whose scan of a whole table would block for longer; heap pruning keeps the updated rows' pages.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** autovacuum's default: a table is due past `base + scale × its live rows` changed rows. */
const ANALYZE = { base: 50, scale: 0.1 };
/** The sample's size: 300 × this rows (PostgreSQL's default target is 100). */
const STATISTICS_TARGET = 10;
/** How often a table may be analyzed (autovacuum_naptime is 60 s; a fresh database grows fastest). */
export const MAINTENANCE_INTERVAL_MS = 15_000;

export class PgliteMaintenance {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Looks at the tables every `intervalMs` from now on (the timer does not keep the process alive). */
  start(intervalMs = MAINTENANCE_INTERVAL_MS): void {
    this.timer = setInterval(() => {
      this.running ??= this.run()
        .catch(this.onError)
        .finally(() => (this.running = undefined));
    }, intervalMs);
    this.timer.unref();
  }

  /** Analyzes the table that is most overdue, if any is due now; names it. */
  async run(): Promise<string | undefined> {
    // A session reports its counts at most once a second; this one's (all of PGlite's) now.
    await sql`select pg_stat_force_next_flush()`.execute(this.db);
    const threshold = sql`${sql.lit(ANALYZE.base)} + ${sql.lit(ANALYZE.scale)} * n_live_tup::float8`;
    const due = await sql<{ name: string }>`
      select relname as name from pg_stat_user_tables
      where schemaname = 'public' and n_mod_since_analyze > ${threshold}
      order by n_mod_since_analyze / (${threshold}) desc, relname
      limit 1`.execute(this.db);
    const table = due.rows[0]?.name;
    if (table === undefined) return undefined;
    await this.db.transaction().execute(async (trx) => {
      await sql`set local default_statistics_target = ${sql.lit(STATISTICS_TARGET)}`.execute(trx);
      await sql`analyze ${sql.id(table)}`.execute(trx);
    });
    return table;
  }

  /** Stops the timer and waits for a run going on. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
