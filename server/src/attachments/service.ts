/**
 * Attachments: files stored in the database, uploaded before the message that sends
 * them. An upload is checked against its bot's settings (on, types, size), by its bytes, and
 * belongs to its uploader: the visitor (`user_id`) or the account itself (an operator, for one
 * conversation). A message takes it (`forMessage` checks, `linkAttachments` of tables.ts records, in the same
 * statement as the message); from then on the conversation's visitor and the account may read it.
 * An upload no message took within the retention (an hour by default) is deleted by the next upload
 * of the account; the quotas of quotas.ts bound the bytes uploads hold.
 */
import { sql, type Kysely } from 'kysely';
import type { Attachment, AttachmentSettings, AttachmentType } from '../../../src/client/types.ts';
import type { Database } from '../db/schema.ts';
import { invalid, notFound, ServiceError } from '../http/errors.ts';
import { newId } from '../ids.ts';
import { ACCEPTED_TYPES, IMAGE_TYPES, sniff } from './content-type.ts';
import { imageSize, MAX_IMAGE_PIXELS } from './image-size.ts';
import { safeFileName } from './file-headers.ts';
import { MAX_FILES_PER_MESSAGE } from './schema.ts';
import { attachmentSettingsOf } from './settings.ts';
import { purgeExpiredUploads, quotaRefusal, usageOf, type AttachmentQuotas, type Uploader } from './quotas.ts';
import { withAttachmentTables, type AttachmentDatabase, type AttachmentsTable } from './tables.ts';

/** Files a visitor may have uploaded and not sent yet: enough for two full messages, not a storage service. */
export const MAX_PENDING_UPLOADS = 2 * MAX_FILES_PER_MESSAGE;

/** How an upload reads its bot's attachment settings (`BotService.getRow`; 404 for another account's bot). */
export interface BotLookup {
  getRow(accountId: string, botId: string): Promise<{ attachments: unknown }>;
}

/** How an upload finds the conversation it names (`ConversationService.find`). */
export interface ConversationLookup {
  find(accountId: string, conversationId: string): Promise<{ bot_id: string | null; user_id: string | null } | undefined>;
}

/** Who asks for a file: a visitor (`userId`, and `botId` when a token is bound to one), or the account (neither). */
export interface FileReader {
  userId?: string;
  botId?: string;
}

export interface UploadInput extends FileReader {
  conversationId?: string;
  /** The client address (http/client-ip.ts), counted by the per-address quota; null when unknown. */
  clientIp?: string | null;
  filename?: string;
  bytes: Uint8Array;
}

/** Whose message takes files: the visitor `userId` (null for the account's own), in a conversation with `botId`. */
export interface MessageSender {
  botId: string | null;
  userId: string | null;
  /** An operator's reply: the account's uploads for this conversation. */
  conversationId?: string;
  /** The bot's settings, when the sender is its visitor (their `max_files` applies). */
  settings?: AttachmentSettings;
}

type Row = Pick<AttachmentsTable, 'id' | 'filename' | 'content_type' | 'size' | 'width' | 'height'>;

export function toAttachment(row: Row): Attachment {
  return { id: row.id, filename: row.filename, content_type: row.content_type as AttachmentType, size: row.size, width: row.width, height: row.height };
}

export class AttachmentService {
  private readonly db: Kysely<AttachmentDatabase>;

  constructor(
    db: Kysely<Database>,
    private readonly bots: BotLookup,
    private readonly conversations: ConversationLookup,
    /** The service's own limit on a file (`AI_CHAT_MAX_ATTACHMENT_BYTES`). */
    private readonly maxBytes: number,
    private readonly quotas: AttachmentQuotas,
  ) {
    this.db = withAttachmentTables(db);
  }

  async upload(accountId: string, input: UploadInput): Promise<Attachment> {
    const { botId, conversationId, settings } = await this.target(accountId, input);
    const visitor = input.userId !== undefined;
    if (visitor && !settings.enabled) throw new ServiceError('permission_denied', 'This bot does not take attachments.', { param: 'bot_id' });
    const { bytes } = input;
    if (bytes.length === 0) throw invalid('body', 'The file is empty: send its bytes as the request body.');
    const limit = visitor ? this.visitorLimit(settings) : this.maxBytes;
    if (bytes.length > limit) throw new ServiceError('payload_too_large', `The file is larger than ${limit} bytes.`, { param: 'body' });
    const type = sniff(bytes);
    if (!(ACCEPTED_TYPES as readonly string[]).includes(type)) {
      throw new ServiceError('unsupported_media_type', `This file is ${type}; only images (PNG, JPEG, GIF, WebP), PDF and plain text are accepted.`, { param: 'body' });
    }
    if (visitor && !settings.types.includes(type as AttachmentType)) {
      throw new ServiceError('unsupported_media_type', `This bot takes only ${settings.types.join(', ')}; this file is ${type}.`, { param: 'body' });
    }
    const dimensions = IMAGE_TYPES.has(type) ? imageSize(bytes, type) : null;
    if (IMAGE_TYPES.has(type)) {
      if (!dimensions || dimensions.width === 0 || dimensions.height === 0) throw new ServiceError('unsupported_media_type', 'This image cannot be read.', { param: 'body' });
      if (dimensions.width * dimensions.height > MAX_IMAGE_PIXELS) {
        throw new ServiceError('payload_too_large', `This image has more than ${MAX_IMAGE_PIXELS} pixels.`, { param: 'body' });
      }
    }
    const uploader: Uploader = { accountId, botId, userId: input.userId ?? null, clientIp: visitor ? (input.clientIp ?? null) : null };
    // One upload of the account at a time from the check to the insert: two that each fit a quota
    // alone must not both pass it. A refusal still commits the purge.
    const row = await this.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`attachments:${accountId}`}, 0))`.execute(trx);
      await purgeExpiredUploads(trx, accountId, this.quotas.pendingRetentionSeconds);
      const refusal = quotaRefusal(this.quotas, uploader, await usageOf(trx, uploader), bytes.length, MAX_PENDING_UPLOADS);
      if (refusal) return refusal;
      return trx
        .insertInto('attachments')
        .values({
          id: newId('att'),
          account_id: accountId,
          bot_id: botId,
          user_id: uploader.userId,
          // an operator's upload is for one conversation; a visitor's joins one when sent
          conversation_id: visitor ? null : (conversationId ?? null),
          filename: safeFileName(input.filename),
          content_type: type,
          size: bytes.length,
          width: dimensions?.width ?? null,
          height: dimensions?.height ?? null,
          data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
          client_ip: uploader.clientIp,
        })
        .returning(['id', 'filename', 'content_type', 'size', 'width', 'height'])
        .executeTakeFirstOrThrow();
    });
    if (row instanceof ServiceError) throw row;
    return toAttachment(row);
  }

  /**
   * What a visitor of `botId` may send: whether the bot takes files, the largest, how many with one
   * message. A file read from elsewhere (a messaging platform) is bounded by it before it is read.
   */
  async visitorRules(accountId: string, botId: string): Promise<{ enabled: boolean; maxBytes: number; maxFiles: number }> {
    const settings = attachmentSettingsOf((await this.bots.getRow(accountId, botId)).attachments);
    return { enabled: settings.enabled, maxBytes: this.visitorLimit(settings), maxFiles: settings.max_files };
  }

  private visitorLimit(settings: AttachmentSettings): number {
    return Math.min(settings.max_file_bytes, this.maxBytes);
  }

  /** The file and its bytes, for `reader`; 404 for anything they may not read (ids cannot be probed). */
  async read(accountId: string, id: string, reader: FileReader): Promise<Attachment & { data: Buffer }> {
    const row = await this.db.selectFrom('attachments').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    if (!row || !mayRead(row, reader)) throw notFound('attachment_id', 'attachment');
    return { ...toAttachment(row), data: row.data };
  }

  /** Removes an upload not sent yet (the visitor changed their mind); a sent file stays with its message. */
  async remove(accountId: string, id: string, reader: FileReader): Promise<void> {
    const row = await this.db.selectFrom('attachments').select(['id', 'user_id', 'bot_id', 'message_id']).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    if (!row || !mayRead(row, reader)) throw notFound('attachment_id', 'attachment');
    if (row.message_id) throw new ServiceError('conflict', 'This file was sent with a message; delete the conversation to delete it.', { param: 'attachment_id' });
    await this.db.deleteFrom('attachments').where('account_id', '=', accountId).where('id', '=', id).where('message_id', 'is', null).execute();
  }

  /**
   * The files `ids` (in that order) if `sender` may send them with one message: their own uploads,
   * for this bot (an operator's: for this conversation), not sent before, no more than allowed.
   */
  async forMessage(accountId: string, ids: readonly string[] | undefined, sender: MessageSender): Promise<Attachment[]> {
    if (!ids?.length) return [];
    if (!sender.botId) throw new ServiceError('permission_denied', 'Attachments are sent in conversations with a bot: name bot_id.', { param: 'attachments' });
    const maxFiles = sender.settings?.max_files ?? MAX_FILES_PER_MESSAGE;
    if (ids.length > maxFiles) throw invalid('attachments', `A message carries at most ${maxFiles} files.`);
    const rows = await this.db
      .selectFrom('attachments')
      .select(['id', 'filename', 'content_type', 'size', 'width', 'height', 'bot_id', 'user_id', 'conversation_id', 'message_id'])
      .where('account_id', '=', accountId)
      .where('id', 'in', [...ids])
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id, index) => {
      const row = byId.get(id);
      // the account's own uploads (no user): for this conversation, or for none yet (a new one)
      const owned = row && row.bot_id === sender.botId && row.user_id === sender.userId && (sender.userId !== null || row.conversation_id === null || row.conversation_id === sender.conversationId);
      if (!owned) throw notFound(`attachments.${index}`, 'attachment');
      if (row.message_id) throw new ServiceError('conflict', 'This file was already sent with another message; upload it again.', { param: `attachments.${index}` });
      return toAttachment(row);
    });
  }

  /** The bytes of files of a message (for a model that reads images). */
  async bytesOf(accountId: string, ids: readonly string[]): Promise<Map<string, Buffer>> {
    if (!ids.length) return new Map();
    const rows = await this.db.selectFrom('attachments').select(['id', 'data']).where('account_id', '=', accountId).where('id', 'in', [...ids]).execute();
    return new Map(rows.map((row) => [row.id, row.data]));
  }

  /** Where an upload goes: a bot (its settings), optionally an existing conversation of it. */
  private async target(accountId: string, input: UploadInput): Promise<{ botId: string; conversationId?: string; settings: AttachmentSettings }> {
    let botId = input.botId;
    if (input.conversationId) {
      const conversation = await this.conversations.find(accountId, input.conversationId);
      const foreign = !conversation || (input.userId !== undefined && conversation.user_id !== input.userId) || (botId !== undefined && conversation.bot_id !== botId);
      if (foreign) throw notFound('conversation_id', 'conversation');
      if (!conversation.bot_id) throw new ServiceError('permission_denied', 'Attachments are sent in conversations with a bot.', { param: 'conversation_id' });
      botId = conversation.bot_id;
    }
    if (!botId) throw invalid('bot_id', 'Name the bot (bot_id) or the conversation (conversation_id) the file is for.');
    const bot = await this.bots.getRow(accountId, botId);
    return { botId, conversationId: input.conversationId, settings: attachmentSettingsOf(bot.attachments) };
  }
}

/** The account reads every file; a visitor only theirs (and, with a bot-bound token, only that bot's). */
function mayRead(row: { user_id: string | null; bot_id: string | null }, reader: FileReader): boolean {
  if (reader.userId !== undefined && row.user_id !== reader.userId) return false;
  return reader.botId === undefined || row.bot_id === reader.botId;
}
