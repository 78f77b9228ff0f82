/**
 * Table types of migration 028 (satisfaction), kept apart from `db/schema.ts` and joined with
 * `withCsatTables(db)` (as handoff/tables.ts does), so only this folder knows these tables. The
 * handoff's tables come along: the report reads `handoff_events` and the operators' names.
 */
import type { Generated, Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { withHandoffTables, type HandoffDatabase } from '../handoff/tables.ts';

export interface ConversationCsatTable {
  conversation_id: string;
  account_id: string;
  bot_id: string | null;
  agent_id: string | null;
  user_id: string | null;
  operator_id: string | null;
  rating: number;
  comment: string | null;
  created_at: Generated<Date>;
}

export interface BotCsatTable {
  bot_id: string;
  account_id: string;
  after_handoff: boolean;
  after_bot: boolean;
  updated_at: Generated<Date>;
}

export type CsatDatabase = HandoffDatabase & {
  conversation_csat: ConversationCsatTable;
  bot_csat: BotCsatTable;
};

/** The same connection, typed with the tables of migration 028. */
export function withCsatTables(db: Kysely<Database>): Kysely<CsatDatabase> {
  return withHandoffTables(db) as unknown as Kysely<CsatDatabase>;
}
