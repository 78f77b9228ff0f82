/**
 * The hourly rollups of migration 008 and how a report splits its range between them and the raw
 * rows: whole UTC hours inside the range come from the rollups, the partial hours at either end
 * (down to the millisecond `to` and its same-millisecond rows) from the raw rows. The two parts
 * never overlap and together are exactly `[from, before)`, so a report adds them up to the same
 * answer as a scan of the raw rows.
 */
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { TimeRange } from './range.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** A reply rollup row's period and dimensions; bot_id = agent_id = '*' is the whole account. */
interface Dimensions {
  account_id: string;
  grain: 'hour' | 'day';
  start: Date;
  bot_id: string;
  agent_id: string;
}

export interface RollupTables {
  request_rollups: { account_id: string; hour: Date; method: string; route: string; status: number; requests: string };
  usage_rollups: { account_id: string; hour: Date; messages: string; conversations: string };
  reply_rollups: Dimensions & { latency_ms: number; replies: string; fallbacks: string; confidence_sum: number; confidences: string };
  reply_conversation_rollups: { account_id: string; hour: Date; bot_id: string; agent_id: string; conversation_id: string; last_seq: string; last_fallback: boolean };
  intent_rollups: Dimensions & { intent: string; replies: string };
  unanswered_rollups: Dimensions & { question_key: string; asked: string; last_asked_at: Date; question: string };
}

export type RollupDatabase = Database & RollupTables;

/** The same connection, typed with the rollup tables of migration 008. */
export function withRollups(db: Kysely<Database>): Kysely<RollupDatabase> {
  return db as unknown as Kysely<RollupDatabase>;
}

/**
 * Rebuilds every rollup of one account from its stored rows in one set-based pass (migration 011's
 * `analytics_backfill`): after writes that bypassed the triggers (a bulk import with them disabled)
 * or to repair. Equals what the triggers keep (`server/test/analytics-rollups.test.ts`). Run it
 * while the account is not written to: a concurrent write may be counted twice or not at all.
 */
export async function rebuildRollups(db: Kysely<Database>, accountId: string): Promise<void> {
  await sql`select analytics_backfill(${accountId})`.execute(db);
}

export interface RangePlan {
  /** `[from, before)` spans read from the raw rows (none, one or two). */
  raw: [Date, Date][];
  /** Whole hours read from the hourly rollups, `[from, before)` on their `hour`; null when there are none. */
  hours: { from: Date; before: Date } | null;
  /** The same whole hours for the rollups with grains: whole UTC days as day rows, the rest as hour rows. */
  days: [Date, Date] | null;
  edgeHours: [Date, Date][];
}

/** Splits `range`; with `rollups: false` everything is raw (the reference the tests compare with). */
export function planRange(range: Pick<TimeRange, 'from' | 'before'>, rollups = true): RangePlan {
  const from = range.from.getTime();
  const before = range.before.getTime();
  const firstHour = Math.ceil(from / HOUR_MS) * HOUR_MS;
  const endHour = Math.floor(before / HOUR_MS) * HOUR_MS;
  if (!rollups || firstHour >= endHour) return { raw: [[range.from, range.before]], hours: null, days: null, edgeHours: [] };
  const raw: [Date, Date][] = [];
  if (from < firstHour) raw.push([range.from, new Date(firstHour)]);
  if (endHour < before) raw.push([new Date(endHour), range.before]);
  const hours = { from: new Date(firstHour), before: new Date(endHour) };
  const firstDay = Math.ceil(firstHour / DAY_MS) * DAY_MS;
  const endDay = Math.floor(endHour / DAY_MS) * DAY_MS;
  if (firstDay >= endDay) return { raw, hours, days: null, edgeHours: [[hours.from, hours.before]] };
  const edgeHours: [Date, Date][] = [];
  if (firstHour < firstDay) edgeHours.push([hours.from, new Date(firstDay)]);
  if (endDay < endHour) edgeHours.push([new Date(endDay), hours.before]);
  return { raw, hours, days: [new Date(firstDay), new Date(endDay)], edgeHours };
}

/** Rows of a rollup with grains that cover the plan's whole hours (false when there are none). */
export function inWholeHours(plan: RangePlan): RawBuilder<SqlBool> {
  const spans = [
    ...(plan.days ? [sql`(grain = 'day' and start >= ${plan.days[0]} and start < ${plan.days[1]})`] : []),
    ...plan.edgeHours.map(([from, before]) => sql`(grain = 'hour' and start >= ${from} and start < ${before})`),
  ];
  return spans.length ? sql<SqlBool>`(${sql.join(spans, sql` or `)})` : sql<SqlBool>`false`;
}

/** `column` falls in one of the plan's raw spans (false when there are none). */
export function inRawSpans(plan: RangePlan, column: string): RawBuilder<SqlBool> {
  const ref = sql.ref(column);
  if (plan.raw.length === 0) return sql<SqlBool>`false`;
  return sql<SqlBool>`(${sql.join(
    plan.raw.map(([from, before]) => sql`(${ref} >= ${from} and ${ref} < ${before})`),
    sql` or `,
  )})`;
}

/**
 * `percentile_cont(fraction)` over a histogram of integer values (value → how many), computed the
 * way PostgreSQL does: the value at position fraction × (n − 1), interpolated between its two
 * neighbours. Exact: the same float arithmetic as the database's own aggregate.
 */
export function percentileCont(histogram: Map<number, number>, fraction: number): number | null {
  const values = [...histogram.entries()].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
  const total = values.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return null;
  const position = fraction * (total - 1);
  const lowerRow = Math.floor(position);
  const upperRow = Math.ceil(position);
  let seen = 0;
  let lower: number | undefined;
  let upper: number | undefined;
  for (const [value, n] of values) {
    if (lower === undefined && lowerRow < seen + n) lower = value;
    if (upperRow < seen + n) {
      upper = value;
      break;
    }
    seen += n;
  }
  if (lower === undefined || upper === undefined) return null;
  return upperRow === lowerRow ? lower : lower + (upper - lower) * (position - lowerRow);
}
