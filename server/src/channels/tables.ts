/** Table types of migration 020 (channels), joined with `withChannelTables(db)` so only channels/ knows them. */
import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Database, Json } from '../db/schema.ts';
import type { ChannelType } from './adapter.ts';
import type { Sealed } from '../db/secrets.ts';

type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type OptionalText = ColumnType<string | null, string | null | undefined, string | null>;

export interface ChannelsTable {
  id: string;
  account_id: string;
  bot_id: string;
  type: ChannelType;
  settings: Json<Record<string, string>>;
  secrets: Json<Sealed>;
  last_received_at: NullableTimestamp;
  last_sent_at: NullableTimestamp;
  last_error: OptionalText;
  last_error_at: NullableTimestamp;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface ChannelInboundTable {
  id: Generated<string>;
  channel_id: string;
  external_id: string;
  chat: string;
  event: Json<unknown>;
  status: ColumnType<'pending' | 'done' | 'failed', 'pending' | 'done' | 'failed' | undefined>;
  attempts: Generated<number>;
  locked_until: NullableTimestamp;
  next_attempt_at: NullableTimestamp;
  last_error: OptionalText;
  created_at: Generated<Date>;
}

export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'unconfirmed';

export interface ChannelOutboxTable {
  id: Generated<string>;
  channel_id: string;
  chat: string;
  message_id: string;
  reply: Json<unknown>;
  status: ColumnType<OutboxStatus, OutboxStatus | undefined>;
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  sending_since: NullableTimestamp;
  external_id: OptionalText;
  delivery_status: OptionalText;
  last_error: OptionalText;
  created_at: Generated<Date>;
  sent_at: NullableTimestamp;
}

export interface ChannelConversationsTable {
  conversation_id: string;
  channel_id: string;
  chat: string;
}

export type ChannelDatabase = Database & {
  channels: ChannelsTable;
  channel_inbound: ChannelInboundTable;
  channel_outbox: ChannelOutboxTable;
  channel_conversations: ChannelConversationsTable;
};

/** The same connection, typed with the tables of migration 020. */
export function withChannelTables(db: Kysely<Database>): Kysely<ChannelDatabase> {
  return db as unknown as Kysely<ChannelDatabase>;
}
