// Test databases start as copies of one migrated template (support/database-template.ts), not from
// initdb and every migration: the copy must be the very schema a real start would have migrated, and a
// PGlite directory that already holds a database must reopen as it is.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { openDatabase, type DatabaseOptions } from '../src/db/database.ts';
import type { Database } from '../src/db/schema.ts';
import { databaseUrlFor, pgliteTemplate, withClient } from './support/database-template.ts';
import { dropDatabase, TEST_DATABASE_URL, testDatabase } from './support/test-database.ts';

/** Tables, columns, indexes, constraints, extensions and applied migrations, in a stable order. */
async function schemaOf(db: Kysely<Database>): Promise<unknown[][]> {
  const queries = [
    sql`select table_name, column_name, data_type, is_nullable, column_default, is_generated, generation_expression
      from information_schema.columns where table_schema = 'public' order by 1, 2`,
    sql`select indexname, indexdef from pg_indexes where schemaname = 'public' order by 1`,
    sql`select conrelid::regclass::text, conname, pg_get_constraintdef(oid) from pg_constraint
      where connamespace = 'public'::regnamespace order by 1, 2`,
    sql`select extname from pg_extension order by 1`,
    sql`select name from _migrations order by 1`,
  ];
  const results: unknown[][] = [];
  for (const query of queries) results.push((await query.execute(db)).rows);
  return results;
}

async function schemaAt(options: DatabaseOptions): Promise<unknown[][]> {
  const handle = await openDatabase(options);
  try {
    return await schemaOf(handle.db);
  } finally {
    await handle.close();
  }
}

/** A database migrated from nothing, as a first real start makes it; `cleanup` removes it. */
async function fromScratch(): Promise<{ options: DatabaseOptions; cleanup(): Promise<void> }> {
  if (!TEST_DATABASE_URL) return { options: { dataDir: 'memory://' }, cleanup: async () => {} };
  const name = `aicw_test_scratch_${process.pid}`;
  await withClient(TEST_DATABASE_URL, (client) => client.query(`CREATE DATABASE ${name}`));
  return {
    options: { databaseUrl: databaseUrlFor(TEST_DATABASE_URL, name), dataDir: 'memory://' },
    cleanup: () => dropDatabase(TEST_DATABASE_URL!, name),
  };
}

describe('test databases from the migrated template', () => {
  it('have the schema that migrating a new database gives', async () => {
    const copy = await testDatabase();
    const scratch = await fromScratch();
    try {
      const copied = await schemaAt({ dataDir: 'memory://', ...copy.options });
      assert.ok((copied[4] as unknown[]).length > 0, 'the copy has its migrations applied');
      assert.deepEqual(copied, await schemaAt(scratch.options));
    } finally {
      await copy.cleanup();
      await scratch.cleanup();
    }
  });

  it('leave a PGlite directory that already holds a database as it is', { skip: TEST_DATABASE_URL ? 'PGlite only' : false }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'aicw-template-test-'));
    const options = { dataDir, pgliteTemplate: await pgliteTemplate() };
    try {
      const first = await openDatabase(options);
      await first.db.insertInto('accounts').values({ id: 'acct_kept', name: 'Kept' }).execute();
      await first.close();
      const second = await openDatabase(options);
      try {
        assert.deepEqual(await second.db.selectFrom('accounts').select('name').where('id', '=', 'acct_kept').execute(), [{ name: 'Kept' }]);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
