/**
 * Time ranges of the analytics reports: parsing, defaults, validation and bucket arithmetic. A
 * report's days are those of its time zone (`tz`, an IANA zone; default UTC): a date-only `from` /
 * `to` is that zone's midnight, and day (or hour) buckets start at the zone's midnights (or hours).
 */
import { sql, type RawBuilder } from 'kysely';
import type { Granularity } from '../../../src/client/types.ts';
import { invalid } from '../http/errors.ts';
import { isTimeZone, offsetAt, wallClock, zonedTime } from '../time-zones.ts';

/** Series longer than this are refused: ask for a coarser granularity or a shorter range. */
export const MAX_BUCKETS = 1000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const BUCKET_MS: Record<Granularity, number> = { hour: HOUR_MS, day: DAY_MS };
const UTC = 'UTC';

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
  /** The IANA zone whose days the report counts in. */
  timeZone: string;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * An ISO date or date-time (already shape-checked by the query schema); a date is midnight in
 * `timeZone`, and a date `to` means the end of that day. A date-time carries its own offset.
 */
export function parseInstant(value: string, param: 'from' | 'to', timeZone = UTC): Date {
  const day = DATE_ONLY.exec(value);
  const date = day ? new Date(`${value}T00:00:00Z`) : new Date(value);
  // The pattern already passed; this catches impossible dates such as 2026-02-31 or 25:00.
  if (Number.isNaN(date.getTime()) || (day && date.toISOString().slice(0, 10) !== value)) {
    throw invalid(param, `${param} is not a valid ISO date or date-time.`);
  }
  if (!day) return date;
  const [year, month, dayOfMonth] = [Number(day[1]), Number(day[2]), Number(day[3])];
  if (param === 'from') return zonedTime(year, month, dayOfMonth, 0, timeZone);
  return new Date(zonedTime(year, month, dayOfMonth + 1, 0, timeZone).getTime() - 1); // the whole day
}

/** `to` defaults to now, `from` to 7 days before `to`; `from` must not be after `to`; `tz` a known zone. */
export function resolveRange(query: { from?: string; to?: string; tz?: string }, now = new Date()): TimeRange {
  const timeZone = query.tz ?? UTC;
  if (!isTimeZone(timeZone)) throw invalid('tz', 'tz must be an IANA time zone, e.g. "Europe/Berlin".');
  const to = query.to ? parseInstant(query.to, 'to', timeZone) : now;
  const from = query.from ? parseInstant(query.from, 'from', timeZone) : new Date(to.getTime() - 7 * DAY_MS);
  if (from.getTime() > to.getTime()) throw invalid('from', 'from must not be after to.');
  return { from, to, before: new Date(to.getTime() + 1), timeZone };
}

/** Start of the hour or day containing `date`, in `timeZone`. */
export function bucketStart(date: Date, granularity: Granularity, timeZone = UTC): Date {
  if (timeZone === UTC) return new Date(Math.floor(date.getTime() / BUCKET_MS[granularity]) * BUCKET_MS[granularity]);
  const wall = wallClock(date, timeZone);
  if (granularity === 'day') return zonedTime(Number(wall.year), Number(wall.month), Number(wall.day), 0, timeZone);
  // an hour starts where its minutes and seconds were zero, whatever the zone's offset
  return new Date(Math.floor(date.getTime() / 1000) * 1000 - (Number(wall.minute) * 60 + Number(wall.second)) * 1000);
}

/** The start of every bucket touching the range, oldest first; 400 beyond `MAX_BUCKETS`. */
export function bucketStarts(range: TimeRange, granularity: Granularity): Date[] {
  const size = BUCKET_MS[granularity];
  // a day of a zone is 23 to 25 hours: the count is known to ±1 before any bucket is made
  const estimate = Math.floor((range.to.getTime() - range.from.getTime()) / size) + 1;
  if (estimate > MAX_BUCKETS) {
    throw invalid(
      'from',
      `The range spans ${estimate} ${granularity} buckets; at most ${MAX_BUCKETS} are allowed. Use a shorter range or granularity=day.`,
    );
  }
  const starts: Date[] = [];
  const last = bucketStart(range.to, granularity, range.timeZone).getTime();
  // the next bucket's start is that of the instant a little more than a bucket later (a zone's day is 23 to 25 h)
  for (let start = bucketStart(range.from, granularity, range.timeZone); start.getTime() <= last; ) {
    starts.push(start);
    start = range.timeZone === UTC ? new Date(start.getTime() + size) : nextStart(start, granularity, range.timeZone);
  }
  return starts;
}

function nextStart(start: Date, granularity: Granularity, timeZone: string): Date {
  if (granularity === 'hour') return bucketStart(new Date(start.getTime() + HOUR_MS), 'hour', timeZone);
  const wall = wallClock(new Date(start.getTime() + 12 * HOUR_MS), timeZone); // surely inside this day
  return zonedTime(Number(wall.year), Number(wall.month), Number(wall.day) + 1, 0, timeZone);
}

/** SQL: the start of the bucket of the `column` timestamp, in the range's zone. */
export function bucketOf(column: string, granularity: Granularity, timeZone: string): RawBuilder<Date> {
  return sql<Date>`date_trunc(${sql.lit(granularity)}, ${sql.ref(column)} at time zone ${timeZone}) at time zone ${timeZone}`;
}

/**
 * Whether every UTC hour of the range falls in one bucket of its zone (the zone's offset is whole
 * hours throughout), so hourly rollups can be bucketed exactly; false for zones such as Asia/Kolkata.
 */
export function hoursFitBuckets(range: TimeRange, starts: readonly Date[]): boolean {
  if (range.timeZone === UTC) return true;
  return [...starts, range.to].every((instant) => offsetAt(instant, range.timeZone) % HOUR_MS === 0);
}
