/** Plain SQL migrations, run in file-name order, each in its own transaction, recorded in `_migrations`. */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

const dir = fileURLToPath(new URL('./migrations/', import.meta.url));

export async function runMigrations(db: Kysely<Database>): Promise<string[]> {
  await sql`create table if not exists _migrations (
    name text primary key, applied_at timestamptz not null default now())`.execute(db);
  const applied = new Set(
    (await sql<{ name: string }>`select name from _migrations`.execute(db)).rows.map((r) => r.name),
  );
  const pending = readdirSync(dir).filter((f) => f.endsWith('.sql') && !applied.has(f)).sort();
  for (const name of pending) {
    const text = readFileSync(dir + name, 'utf8');
    await db.transaction().execute(async (trx) => {
      await sql.raw(text).execute(trx);
      await sql`insert into _migrations (name) values (${name})`.execute(trx);
    });
  }
  return pending;
}
