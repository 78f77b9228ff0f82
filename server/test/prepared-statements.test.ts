// Embedded PGlite names each parameterised statement by its text (db/prepared-statements.ts), so its
// one session parses and plans a text once: the same text keeps one name, answers stay right, a
// failed run does not spoil the name, and past the limit a text runs unnamed as before.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { nameStatements } from '../src/db/prepared-statements.ts';
import { pgliteTemplate } from './support/database-template.ts';

describe('named statements on PGlite', () => {
  let handle: DatabaseHandle;
  before(async () => {
    handle = await openDatabase({ dataDir: 'memory://', pgliteTemplate: await pgliteTemplate() });
  });
  after(() => handle.close());

  const named = async () =>
    (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements order by name`.execute(handle.db)).rows;

  it('gives one text one name, however often and with whatever values it runs', async () => {
    for (const [id, name] of [['acc_a', 'A'], ['acc_b', 'B']]) {
      await handle.db.insertInto('accounts').values({ id, name, rate_limit_points: null, rate_limit_duration_seconds: null }).execute();
    }
    const nameOf = async (id: string) => (await handle.db.selectFrom('accounts').select('name').where('id', '=', id).executeTakeFirst())?.name;
    assert.deepEqual([await nameOf('acc_a'), await nameOf('acc_b'), await nameOf('acc_a'), await nameOf('acc_none')], ['A', 'B', 'A', undefined]);
    const lookups = (await named()).filter((s) => /from "accounts" where "id" = \$1/.test(s.statement));
    assert.equal(lookups.length, 1, JSON.stringify(await named()));
    assert.match(lookups[0]!.name, /^aicw_\d+$/);
  });

  it('keeps the name usable after a run of it fails', async () => {
    const insert = (id: string) => handle.db.insertInto('accounts').values({ id, name: 'C', rate_limit_points: null, rate_limit_duration_seconds: null }).execute();
    await insert('acc_c');
    await assert.rejects(insert('acc_c'), /duplicate key/);
    await insert('acc_d');
    assert.equal((await handle.db.selectFrom('accounts').select('id').where('name', '=', 'C').execute()).length, 2);
  });

  it('leaves statements without values unnamed, and texts past the limit', async () => {
    const pglite = await PGlite.create('memory://');
    const pool = new pg.Pool(createPgConfig(pglite));
    nameStatements(pool, 1);
    const client = await pool.connect(); // as Kysely runs them: `query(text, values)` on a pool's client
    try {
      assert.deepEqual((await client.query('select $1::int as n', [1])).rows, [{ n: 1 }]);
      assert.deepEqual((await client.query('select $1::int + 1 as n', [1])).rows, [{ n: 2 }]);
      assert.deepEqual((await client.query('select 3 as n')).rows, [{ n: 3 }]);
      const statements = (await client.query('select statement from pg_prepared_statements')).rows.map((r) => r.statement);
      assert.deepEqual(statements, ['select $1::int as n']);
    } finally {
      client.release();
      await pool.end();
      await pglite.close();
    }
  });
});
