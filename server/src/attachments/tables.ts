/**
 * The table of migration 017 (attachments), kept apart from `db/schema.ts` and joined with
 * `withAttachmentTables(db)` as the handoff tables are, so only attachment code knows its columns.
 */
import type { ColumnType, Generated, Kysely } from 'kysely';
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
