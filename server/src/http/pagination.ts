/** Opaque cursors: base64url JSON of the last item's sort key. Forged or stale cursors answer 400. */
import { ServiceError } from './errors.ts';

export function encodeCursor(key: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
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
  throw new ServiceError('validation_failed', 'The cursor is not one this API returned.', { param: 'cursor' });
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
