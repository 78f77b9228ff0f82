/** Opaque cursors: base64url JSON of the last item's sort key. Forged or stale cursors answer 400. */
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Page } from '../../../src/client/types.ts';
import { ServiceError } from './errors.ts';

export function encodeCursor(key: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

function invalidCursor(): ServiceError {
  return new ServiceError('validation_failed', 'The cursor is not one this API returned.', { param: 'cursor' });
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
const PG_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;

/**
 * One page of a list, newest first, keyset-paginated on (created_at, id). The cursor is checked
 * before it reaches SQL, so a forged one is a 400, never a database error.
 */
export async function newestFirstPage<DB, TB extends keyof DB, Row extends { id: string; created_key: string }, Item>(
  select: SelectQueryBuilder<DB, TB, Row>,
  page: { limit: number; cursor?: string },
  toItem: (row: Row) => Item,
): Promise<Page<Item>> {
  let query = select;
  if (page.cursor) {
    const { at, id } = decodeCursor<{ at: string; id: string }>(page.cursor, ['at', 'id']);
    if (!PG_TIMESTAMP.test(at)) throw invalidCursor();
    query = query.where(sql<boolean>`(created_at, id) < (${at}::timestamptz, ${id})`);
  }
  const rows = await query.orderBy(sql.ref('created_at'), 'desc').orderBy(sql.ref('id'), 'desc').limit(page.limit + 1).execute();
  return toPage(rows, page.limit, toItem, (row) => ({ at: row.created_key, id: row.id }));
}
