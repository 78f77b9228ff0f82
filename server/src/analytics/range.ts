/** Time ranges of the analytics reports: parsing, defaults, validation and bucket arithmetic. */
import type { Granularity } from '../../../src/client/types.ts';
import { invalid } from '../http/errors.ts';

/** Series longer than this are refused: ask for a coarser granularity or a shorter range. */
export const MAX_BUCKETS = 1000;
const DAY_MS = 86_400_000;
const BUCKET_MS: Record<Granularity, number> = { hour: 3_600_000, day: DAY_MS };

export interface TimeRange {
  /** Inclusive start. */
  from: Date;
  /** Inclusive end, to the millisecond. */
  to: Date;
  /**
   * Exclusive bound for queries: the end of `to`'s millisecond. The database keeps microseconds, so
   * a row written in the same millisecond as `to` (e.g. a request recorded just before a report
   * defaulting `to` to now) is after `to` itself but belongs in the range.
   */
  before: Date;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** An ISO date or date-time (already shape-checked by the query schema); a date `to` means the end of that day. */
export function parseInstant(value: string, param: 'from' | 'to'): Date {
  const date = DATE_ONLY.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(value);
  // The pattern already passed; this catches impossible dates such as 2026-02-31 or 25:00.
  if (Number.isNaN(date.getTime()) || (DATE_ONLY.test(value) && date.toISOString().slice(0, 10) !== value)) {
    throw invalid(param, `${param} is not a valid ISO date or date-time.`);
  }
  if (DATE_ONLY.test(value) && param === 'to') return new Date(date.getTime() + DAY_MS - 1); // the whole day
  return date;
}

/** `to` defaults to now, `from` to 7 days before `to`; `from` must not be after `to`. */
export function resolveRange(query: { from?: string; to?: string }, now = new Date()): TimeRange {
  const to = query.to ? parseInstant(query.to, 'to') : now;
  const from = query.from ? parseInstant(query.from, 'from') : new Date(to.getTime() - 7 * DAY_MS);
  if (from.getTime() > to.getTime()) throw invalid('from', 'from must not be after to.');
  return { from, to, before: new Date(to.getTime() + 1) };
}

/** Start of the UTC hour or day containing `date`. */
export function bucketStart(date: Date, granularity: Granularity): Date {
  return new Date(Math.floor(date.getTime() / BUCKET_MS[granularity]) * BUCKET_MS[granularity]);
}

/** The start of every bucket touching the range, oldest first; 400 beyond `MAX_BUCKETS`. */
export function bucketStarts(range: TimeRange, granularity: Granularity): Date[] {
  const first = bucketStart(range.from, granularity).getTime();
  const last = bucketStart(range.to, granularity).getTime();
  const size = BUCKET_MS[granularity];
  const count = (last - first) / size + 1;
  if (count > MAX_BUCKETS) {
    throw invalid(
      'from',
      `The range spans ${count} ${granularity} buckets; at most ${MAX_BUCKETS} are allowed. Use a shorter range or granularity=day.`,
    );
  }
  return Array.from({ length: count }, (_, i) => new Date(first + i * size));
}
