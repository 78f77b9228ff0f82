/**
 * Table types of migration 016 (human handoff), kept apart from `db/schema.ts` and joined with
 * `withHandoffTables(db)` (as `db/dashboard-schema.ts` does for the dashboard's tables), so only the
 * handoff code knows these tables. The columns it added to conversations and messages (status,
 * author) belong to those tables, in `db/schema.ts`.
 */
import type { ColumnType, Generated, Kysely, RawBuilder } from 'kysely';
import type { DashboardDatabase } from '../db/dashboard-schema.ts';
import type { Database, Json } from '../db/schema.ts';

type OptionalText = ColumnType<string | null, string | null | undefined, string | null>;

export interface HandoffEventsTable {
  seq: Generated<string>;
  account_id: string;
  conversation_id: string;
  type: string;
  data: Json<unknown>;
  created_at: Generated<Date>;
}

export interface BotHandoffTable {
  bot_id: string;
  account_id: string;
  enabled: boolean;
  after_fallbacks: number | null;
  intents: Json<string[]>;
  hours: Json<unknown> | null;
  updated_at: Generated<Date>;
}

export interface OfflineMessagesTable {
  id: string;
  account_id: string;
  conversation_id: string;
  bot_id: string | null;
  user_id: string | null;
  email: string;
  message: string;
  created_at: Generated<Date>;
  /** Migration 035: who answered it by email from the inbox, and when (null: not answered). */
  answered_by: ColumnType<string | null, string | null | undefined, string | null>;
  answered_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** Migrations 016 and 027: an operator's chosen status, last activity, and last sign of an open dashboard. */
export interface OperatorPresenceTable {
  user_id: string;
  account_id: string;
  status: ColumnType<'online' | 'away' | 'offline', 'online' | 'away' | 'offline' | undefined, 'online' | 'away' | 'offline'>;
  active_at: ColumnType<Date, Date | undefined, Date>;
  seen_at: ColumnType<Date | null, Date | null | RawBuilder<Date> | undefined, Date | null | RawBuilder<Date>>;
}

/** Migration 030: an email claimed (and sent) for one waiting spell of a conversation. */
export interface WaitingEmailsTable {
  conversation_id: string;
  waiting_since: ColumnType<Date, Date | string, never>;
  account_id: string;
  sent_at: Generated<Date>;
}

/** Migration 031: an account's automatic assignment; the row is also its assignment lock. */
export interface AssignmentSettingsTable {
  account_id: string;
  auto: boolean;
  updated_at: Generated<Date>;
}

export type HandoffDatabase = Omit<DashboardDatabase, 'users'> & {
  users: DashboardDatabase['users'] & {
    display_name: OptionalText;
    avatar_url: OptionalText;
    /** Migration 031: open conversations automatic assignment gives them at most, and when they last got one. */
    assign_capacity: ColumnType<number, number | undefined, number>;
    last_assigned_at: ColumnType<Date | null, never, RawBuilder<Date>>;
  };
  assignment_settings: AssignmentSettingsTable;
  handoff_events: HandoffEventsTable;
  bot_handoff: BotHandoffTable;
  offline_messages: OfflineMessagesTable;
  operator_presence: OperatorPresenceTable;
};

/** The same connection, typed with the handoff's tables (migrations 016 to 031). */
export function withHandoffTables(db: Kysely<Database>): Kysely<HandoffDatabase> {
  return db as unknown as Kysely<HandoffDatabase>;
}
