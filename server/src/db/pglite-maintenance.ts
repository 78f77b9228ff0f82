/**
 * What PostgreSQL's autovacuum does for a server, done for embedded PGlite, which runs no background
 * workers: every so often, each table whose rows changed enough since its last ANALYZE is analyzed,
 * and each that holds enough dead rows is vacuumed, by autovacuum's default thresholds. Without it
 * the planner keeps the statistics of an empty database for good: with thousands of conversations
 * in an account it still guessed nine, and a batched bot turn read all of them to find its twenty.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** autovacuum's defaults: a table is due past `base + scale × its live rows` changes (or dead rows). */
const ANALYZE = { base: 50, scale: 0.1 };
const VACUUM = { base: 50, scale: 0.2 };
/** How often the tables are looked at (autovacuum_naptime is 60 s; a fresh database grows fastest). */
export const MAINTENANCE_INTERVAL_MS = 30_000;

export interface MaintenanceRun {
  analyzed: string[];
  vacuumed: string[];
}

interface TableActivity {
  name: string;
  live: number;
  dead: number;
  changed: number;
}

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

  /** Analyzes and vacuums the tables that are due now; says which. */
  async run(): Promise<MaintenanceRun> {
    // A session reports its counts at most once a second; this one's (all of PGlite's) now.
    await sql`select pg_stat_force_next_flush()`.execute(this.db);
    const tables = await sql<TableActivity>`
      select relname as name, n_live_tup::float8 as live, n_dead_tup::float8 as dead, n_mod_since_analyze::float8 as changed
      from pg_stat_user_tables where schemaname = 'public' order by relname`.execute(this.db);
    const done: MaintenanceRun = { analyzed: [], vacuumed: [] };
    for (const table of tables.rows) {
      const vacuum = table.dead > VACUUM.base + VACUUM.scale * table.live;
      const analyze = table.changed > ANALYZE.base + ANALYZE.scale * table.live;
      if (vacuum) await sql`vacuum (analyze ${sql.raw(analyze ? 'true' : 'false')}) ${sql.id(table.name)}`.execute(this.db);
      else if (analyze) await sql`analyze ${sql.id(table.name)}`.execute(this.db);
      if (vacuum) done.vacuumed.push(table.name);
      if (analyze) done.analyzed.push(table.name);
    }
    return done;
  }

  /** Stops the timer and waits for a run going on. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
