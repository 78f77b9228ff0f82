/**
 * What PostgreSQL's autovacuum does for a server's statistics, done for embedded PGlite, which runs
 * no background workers: every so often each table whose rows changed past autovacuum's default
 * threshold since its last ANALYZE is analyzed. Without it the planner keeps the statistics of an
 * empty database for good: with thousands of conversations in an account it still guessed nine, and
 * a batched bot turn read all of them to find its twenty.
 *
 * PGlite runs in the service's thread, so each statement here blocks every request while it runs.
 * Hence one ANALYZE per table, requests served between them, each sampled at a tenth of the default
 * (`default_statistics_target` 10: 3,000 rows, about 20 ms for a table of 100,000 knowledge entries
 * here, against 300 ms at the default), and no VACUUM, whose scan of a whole table would block for
 * longer; heap pruning keeps the updated rows' pages. Every due table in each run, not only the most
 * overdue: the tiny, hot rollup tables are always the most overdue by ratio, and analyzing only them
 * left the conversations and messages, whose statistics the turn's plans hang on, never analyzed.
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

  /** Analyzes every table that is due now, the most changed first; names them in that order. */
  async run(): Promise<string[]> {
    // A session reports its counts at most once a second; this one's (all of PGlite's) now.
    await sql`select pg_stat_force_next_flush()`.execute(this.db);
    const due = await sql<{ name: string }>`
      select relname as name from pg_stat_user_tables
      where schemaname = 'public'
        and n_mod_since_analyze > ${sql.lit(ANALYZE.base)} + ${sql.lit(ANALYZE.scale)} * n_live_tup::float8
      order by n_mod_since_analyze desc, relname`.execute(this.db);
    for (const { name } of due.rows) {
      await this.db.transaction().execute(async (trx) => {
        await sql`set local default_statistics_target = ${sql.lit(STATISTICS_TARGET)}`.execute(trx);
        await sql`analyze ${sql.id(name)}`.execute(trx);
      });
    }
    return due.rows.map((row) => row.name);
  }

  /** Stops the timer and waits for a run going on. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
