/**
 * Deletions, counted for the usage report. Each delete writes one row in the same transaction as
 * the delete itself (so a rolled-back delete is never counted): the kind of object and how many
 * conversations and messages went with it. No id and no content is kept.
 */
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { DeletionCounts } from '../../../src/client/types.ts';
import type { Database } from '../db/schema.ts';

export type DeletedResource = 'bot' | 'agent' | 'knowledge_entry' | 'conversation';

/** What a delete removed along with the object itself. */
export interface Removed {
  conversations: number;
  messages: number;
}

export const NOTHING_REMOVED: Removed = { conversations: 0, messages: 0 };

export async function recordDeletion(trx: Transaction<Database>, accountId: string, resource: DeletedResource, removed: Removed): Promise<void> {
  await trx
    .insertInto('deletions')
    .values({ account_id: accountId, resource, conversations: removed.conversations, messages: removed.messages })
    .execute();
}

export function noDeletions(): DeletionCounts {
  return { bots: 0, agents: 0, knowledge_entries: 0, conversations: 0, messages: 0 };
}

/** Deletions per bucket start (epoch ms) in `[from, before)`, bucketed like the rest of the usage report. */
export async function deletionsPerBucket(
  db: Kysely<Database>,
  accountId: string,
  range: { from: Date; before: Date },
  bucket: (column: string) => RawBuilder<Date>,
): Promise<Map<number, DeletionCounts>> {
  const rows = await db
    .selectFrom('deletions')
    .select([
      bucket('created_at').as('start'),
      sql<string>`count(*) filter (where resource = 'bot')`.as('bots'),
      sql<string>`count(*) filter (where resource = 'agent')`.as('agents'),
      sql<string>`count(*) filter (where resource = 'knowledge_entry')`.as('knowledge_entries'),
      sql<string>`coalesce(sum(conversations), 0)`.as('conversations'),
      sql<string>`coalesce(sum(messages), 0)`.as('messages'),
    ])
    .where('account_id', '=', accountId)
    .where('created_at', '>=', range.from)
    .where('created_at', '<', range.before)
    .groupBy(sql`1`)
    .execute();
  return new Map(
    rows.map((row) => [
      new Date(row.start).getTime(),
      {
        bots: Number(row.bots),
        agents: Number(row.agents),
        knowledge_entries: Number(row.knowledge_entries),
        conversations: Number(row.conversations),
        messages: Number(row.messages),
      },
    ]),
  );
}
