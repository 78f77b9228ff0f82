/**
 * Table types of migration 006 (the dashboard: users, sessions, invites, and the new API key
 * columns). Kept apart from `schema.ts` and joined with `withDashboardTables(db)`, so the dashboard
 * code reads typed rows without every resource's database type knowing these tables.
 */
import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Database, Timestamp } from './schema.ts';

type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export type KeyScope = 'full' | 'read_only';
export type Role = 'owner' | 'member';

/** The columns migration 006 adds to `api_keys`. */
export interface ApiKeyColumns006 {
  /** `full`, or `read_only` (GET and HEAD only). */
  scope: ColumnType<KeyScope, KeyScope | undefined, KeyScope>;
  /** Null: never expires. */
  expires_at: NullableTimestamp;
  /** Written at most once a minute per process (see accounts/service.ts). */
  last_used_at: NullableTimestamp;
  /** The dashboard user who created it; null for keys from config or the service itself. */
  created_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** Issued by the service for itself (`demo-proxy`) and re-issued by label on start. */
  managed: ColumnType<boolean, boolean | undefined, boolean>;
}

export interface UsersTable {
  id: string;
  account_id: string;
  /** Trimmed and lower-cased. */
  email: string;
  password_hash: string;
  role: Role;
  created_at: Generated<Date>;
  password_changed_at: Generated<Date>;
}

export interface SessionsTable {
  /** sha256 of the cookie's secret. */
  id: string;
  user_id: string;
  csrf_token: string;
  created_at: Generated<Date>;
  last_seen_at: Generated<Date>;
  expires_at: Timestamp;
}

export interface InvitesTable {
  id: string;
  account_id: string;
  token_hash: string;
  role: Role;
  created_by: string | null;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  used_by: string | null;
}

export interface DashboardTables {
  api_keys: Database['api_keys'] & ApiKeyColumns006;
  users: UsersTable;
  sessions: SessionsTable;
  invites: InvitesTable;
}

export type DashboardDatabase = Omit<Database, 'api_keys'> & DashboardTables;

/** The same connection, typed with the tables of migration 006. */
export function withDashboardTables(db: Kysely<Database>): Kysely<DashboardDatabase> {
  return db as unknown as Kysely<DashboardDatabase>;
}
