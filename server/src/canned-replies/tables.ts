/** Table type of migration 025's canned replies, joined with `withCannedReplyTables(db)` so only canned-replies/ knows it. */
import type { Generated, Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface CannedRepliesTable {
  id: string;
  account_id: string;
  shortcut: string;
  text: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type CannedReplyDatabase = Database & { canned_replies: CannedRepliesTable };

/** The same connection, typed with the canned replies' table. */
export function withCannedReplyTables(db: Kysely<Database>): Kysely<CannedReplyDatabase> {
  return db as unknown as Kysely<CannedReplyDatabase>;
}
