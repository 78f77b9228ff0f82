/**
 * Named statements for embedded PGlite. PGlite runs in this process's one thread, so parsing and
 * planning every statement anew is the service's own CPU time: a bot turn, one request at a time,
 * spent about a quarter of it re-planning the same few statements. With a name per statement
 * text, PGlite's one session parses each text once and keeps its plan (PostgreSQL's plan cache:
 * custom plans for the first five runs, then a generic one where that costs no more).
 *
 * Only for PGlite, whose session belongs to this process alone. A PostgreSQL server may sit behind
 * a transaction pooler (PgBouncer), which does not keep a session's named statements between
 * transactions, and its statements are planned by the server's cores, not this thread.
 */
import type pg from 'pg';

/** Statement texts given a name, at most: a text past this many runs unnamed, as before. */
export const NAMED_STATEMENTS_LIMIT = 500;

type QueryArgs = [text: unknown, values?: unknown, callback?: unknown];

/**
 * Names each parameterised statement the pool's clients run, by its text. The names belong to the
 * pool, not to a client: PGlite's pool shares one connection (and so its session's statements)
 * between the clients it opens over time, and one name must always mean one text.
 */
export function nameStatements(pool: pg.Pool, limit = NAMED_STATEMENTS_LIMIT): void {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined && names.size < limit) names.set(text, (name = `aicw_${names.size + 1}`));
    return name;
  };
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: QueryArgs) => unknown;
    // Kysely's form only, `query(text, values)` answered by a promise; anything else runs as it came.
    (client as { query: unknown }).query = (...args: QueryArgs) => {
      const [text, values, callback] = args;
      if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0 || callback !== undefined) return query(...args);
      const name = nameOf(text);
      return name ? query({ name, text, values }) : query(text, values);
    };
  });
}
