/**
 * Opaque cursors: base64url JSON of the last item's sort key. A cursor this API did not hand out
 * answers 400 `invalid_cursor`: every value is checked here, before it reaches SQL, so a forged one
 * can never become a database error.
 */
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Page } from '../../../src/client/types.ts';
import { ServiceError } from './errors.ts';

export function encodeCursor(key: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

function invalidCursor(): ServiceError {
  return new ServiceError('invalid_cursor', 'The cursor is not one this API returned.', { param: 'cursor' });
}

export function decodeCursor<T extends Record<string, string | number>>(cursor: string, fields: (keyof T)[]): T {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as T;
    if (value && typeof value === 'object' && fields.every((f) => ['string', 'number'].includes(typeof value[f]))) {
      return value;
    }
  } catch {
    // fall through to the one error below
  }
  throw invalidCursor();
}

/** Builds a page from `limit + 1` fetched rows: the extra row only says whether there is more. */
export function toPage<Row, Item>(
  rows: Row[],
  limit: number,
  toItem: (row: Row) => Item,
  keyOf: (row: Row) => Record<string, string | number>,
) {
  const has_more = rows.length > limit;
  const pageRows = has_more ? rows.slice(0, limit) : rows;
  const last = pageRows.at(-1);
  return {
    items: pageRows.map(toItem),
    next_cursor: has_more && last ? encodeCursor(keyOf(last)) : null,
    has_more,
  };
}

/**
 * `created_at` as PostgreSQL prints it, at full microsecond precision: a JS Date would round to
 * milliseconds and repeat or skip rows at a page boundary. Select it for `newestFirstPage`.
 */
export const createdKey = sql<string>`created_at::text`.as('created_key');

/** PostgreSQL's text form of a timestamptz, the only thing a cursor's time may be. */
const PG_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?[+-](\d{2})(?::(\d{2}))?$/;

/** True for a real instant in PostgreSQL's text form: the shape AND every field in its range. */
function isPgTimestamp(text: string): boolean {
  const match = PG_TIMESTAMP.exec(text);
  if (!match) return false;
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = match.slice(1).map((field) => Number(field ?? 0));
  // Date.UTC rolls an out-of-range field over (month 13 → next year): a round trip must keep every field.
  const date = new Date(Date.UTC(year!, month! - 1, day!, hour, minute, second));
  return (
    year! >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month! - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second &&
    offsetHours! <= 15 && // PostgreSQL's UTC offsets reach ±15:59
    offsetMinutes < 60
  );
}

/** PostgreSQL's bigint range: a `seq` cursor beyond it would be a database error. */
const MAX_BIGINT = 2n ** 63n - 1n;

/** The `seq` of a cursor over a bigint sequence (e.g. messages), checked to be one. */
export function decodeSeqCursor(cursor: string): string {
  const { seq } = decodeCursor<{ seq: string }>(cursor, ['seq']);
  if (!/^\d{1,19}$/.test(seq) || BigInt(seq) > MAX_BIGINT) throw invalidCursor();
  return seq;
}

/** `select` after the cursor's row (all of it without one), newest first on (created_at, id). */
export function newestFirst<DB, TB extends keyof DB, Row>(select: SelectQueryBuilder<DB, TB, Row>, cursor?: string): SelectQueryBuilder<DB, TB, Row> {
  let query = select;
  if (cursor) {
    const { at, id } = decodeCursor<{ at: string; id: string }>(cursor, ['at', 'id']);
    if (typeof id !== 'string' || typeof at !== 'string' || !isPgTimestamp(at)) throw invalidCursor();
    query = query.where(sql<boolean>`(created_at, id) < (${at}::timestamptz, ${id})`);
  }
  return query.orderBy(sql.ref('created_at'), 'desc').orderBy(sql.ref('id'), 'desc');
}

/**
 * One page of a list, newest first, keyset-paginated on (created_at, id). The cursor is checked
 * before it reaches SQL, so a forged one is a 400, never a database error.
 */
export async function newestFirstPage<DB, TB extends keyof DB, Row extends { id: string; created_key: string }, Item>(
  select: SelectQueryBuilder<DB, TB, Row>,
  page: { limit: number; cursor?: string },
  toItem: (row: Row) => Item,
): Promise<Page<Item>> {
  const rows = await newestFirst(select, page.cursor).limit(page.limit + 1).execute();
  return toPage(rows, page.limit, toItem, (row) => ({ at: row.created_key, id: row.id }));
}
