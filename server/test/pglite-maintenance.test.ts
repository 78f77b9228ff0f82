// PGlite runs no autovacuum, so the service analyzes its tables itself (db/pglite-maintenance.ts),
// by autovacuum's threshold, every due table a run. Without it the planner kept an empty database's
// statistics, and a batched turn's lookup of its conversations by key read all of the account's
// conversations instead.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { PgliteMaintenance } from '../src/db/pglite-maintenance.ts';
import { pgliteTemplate } from './support/database-template.ts';

describe('PGlite maintenance', () => {
  let handle: DatabaseHandle;
  let maintenance: PgliteMaintenance;
  const errors: unknown[] = [];
  before(async () => {
    handle = await openDatabase({ dataDir: 'memory://', pgliteTemplate: await pgliteTemplate() });
    maintenance = new PgliteMaintenance(handle.db, (error) => errors.push(error));
    await sql`insert into accounts (id, name) values ('acc_m', 'M'), ('acc_other', 'Other')`.execute(handle.db);
    await sql`insert into conversations (id, account_id, user_id)
      select 'conv_' || g, case when g <= 4000 then 'acc_m' else 'acc_other' end, 'user_' || (g % 50)
      from generate_series(1, 4100) g`.execute(handle.db);
  });
  after(async () => {
    await maintenance.close();
    await handle.close();
    assert.deepEqual(errors, []);
  });

  const estimatedRows = async (table: string) =>
    Number((await sql<{ rows: number }>`select reltuples::float8 as rows from pg_class where relname = ${table}`.execute(handle.db)).rows[0]!.rows);
  /** The plan of the batched turn's lookup of twenty existing conversations (message-writer.ts). */
  const lookupPlan = async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `conv_${i * 97 + 1}`);
    const plan = await sql<{ 'QUERY PLAN': string }>`explain select c.id from conversations c
      where c.id = any(${ids}::text[]) and c.account_id = 'acc_m' order by c.id for update of c`.execute(handle.db);
    return plan.rows.map((row) => row['QUERY PLAN']).join('\n');
  };

  it('analyzes the table that changed, then nothing until it changes again', async () => {
    assert.deepEqual(await maintenance.run(), ['conversations'], 'two accounts are below the threshold');
    assert.equal(await estimatedRows('conversations'), 4100);
    assert.match(await lookupPlan(), /conversations_pkey/, 'the twenty are found by their key');
    assert.deepEqual(await maintenance.run(), [], 'nothing changed since');
  });

  it('analyzes a table again once enough of it changed', async () => {
    await sql`delete from conversations where account_id = 'acc_m' and id > 'conv_2'`.execute(handle.db);
    assert.deepEqual(await maintenance.run(), ['conversations']);
    const count = Number((await sql<{ n: number }>`select count(*)::float8 as n from conversations`.execute(handle.db)).rows[0]!.n);
    assert.equal(await estimatedRows('conversations'), count);
    assert.deepEqual(await maintenance.run(), []);
  });

  it('analyzes every due table in one run, the most changed first', async () => {
    // The tiny accounts table is the most overdue by ratio; the conversations changed most.
    await sql`insert into accounts (id, name) select 'acc_' || g, 'A' from generate_series(1, 60) g`.execute(handle.db);
    await sql`insert into conversations (id, account_id, user_id)
      select 'more_' || g, 'acc_other', 'user' from generate_series(1, 500) g`.execute(handle.db);
    assert.deepEqual(await maintenance.run(), ['conversations', 'accounts']);
    assert.equal(await estimatedRows('accounts'), 62);
    assert.deepEqual(await maintenance.run(), []);
  });
});
