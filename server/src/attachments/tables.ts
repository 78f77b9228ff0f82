/**
 * The table of migration 017 (attachments), kept apart from `db/schema.ts` and joined with
 * `withAttachmentTables(db)` as the handoff tables are, so only attachment code knows its columns.
 */
import { sql, type ColumnType, type Generated, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/schema.ts';

type OptionalText = ColumnType<string | null, string | null | undefined, string | null>;

export interface AttachmentsTable {
  id: string;
  account_id: string;
  bot_id: OptionalText;
  user_id: OptionalText;
  conversation_id: OptionalText;
  message_id: OptionalText;
  filename: string;
  content_type: string;
  size: number;
  width: number | null;
  height: number | null;
  data: Buffer;
  /** The client address of a visitor's upload (migration 018), for the per-address quota. */
  client_ip: OptionalText;
  created_at: Generated<Date>;
}

export type AttachmentDatabase = Database & { attachments: AttachmentsTable };

export function withAttachmentTables(db: Kysely<Database>): Kysely<AttachmentDatabase> {
  return db as unknown as Kysely<AttachmentDatabase>;
}

/**
 * The statement that gives `ids` to a message just written: its message and conversation, and
 * the conversation's visitor as reader (an operator's file becomes readable by that visitor only
 * now). Only files no message took yet change hands; `forMessage` checked them before.
 */
export function linkAttachments(accountId: string, messageId: string, conversationId: string, ids: readonly string[]): RawBuilder<unknown> {
  return sql`update attachments set message_id = ${messageId}, conversation_id = ${conversationId},
      user_id = coalesce(user_id, (select user_id from conversations where account_id = ${accountId} and id = ${conversationId}))
    where account_id = ${accountId} and id = any(${ids}::text[]) and message_id is null`;
}
