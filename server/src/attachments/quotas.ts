/**
 * How many bytes of files an account holds. Unsent uploads are what an anonymous visitor can pile
 * up (three widget tokens of one address once stored 268 MiB in 5 s), so they are counted per
 * visitor, per client address and per bot, and kept only for a while; every file of an account,
 * sent or not, counts against its storage quota. Within one account: the uploads of an account
 * are checked and stored one at a time (`AttachmentService.upload` holds a lock), so two uploads
 * never both pass a quota only one of them fits.
 */
import { sql, type Kysely } from 'kysely';
import { ServiceError } from '../http/errors.ts';
import type { AttachmentDatabase } from './tables.ts';

export interface AttachmentQuotas {
  /** Bytes of unsent uploads one visitor (`user_id`) may hold (`AI_CHAT_UPLOAD_QUOTA_VISITOR_BYTES`). Default 50 MiB. */
  pendingBytesPerVisitor: number;
  /** Bytes of unsent uploads of visitors from one client address (`AI_CHAT_UPLOAD_QUOTA_IP_BYTES`). Default 100 MiB. */
  pendingBytesPerIp: number;
  /** Bytes of unsent uploads of all visitors of one bot (`AI_CHAT_UPLOAD_QUOTA_BOT_BYTES`). Default 500 MiB. */
  pendingBytesPerBot: number;
  /** Bytes of all files of an account, sent or not (`AI_CHAT_STORAGE_QUOTA_BYTES`). Default 5 GiB. */
  storageBytesPerAccount: number;
  /** Seconds an upload no message took is kept (`AI_CHAT_UPLOAD_RETENTION_SECONDS`). Default 3600. */
  pendingRetentionSeconds: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_ATTACHMENT_QUOTAS: Readonly<AttachmentQuotas> = Object.freeze({
  pendingBytesPerVisitor: 50 * MiB,
  pendingBytesPerIp: 100 * MiB,
  pendingBytesPerBot: 500 * MiB,
  storageBytesPerAccount: 5 * 1024 * MiB,
  pendingRetentionSeconds: 3600,
});

export function resolveAttachmentQuotas(options: Partial<AttachmentQuotas> = {}): AttachmentQuotas {
  const set = Object.entries(options).filter(([, value]) => value !== undefined);
  return { ...DEFAULT_ATTACHMENT_QUOTAS, ...Object.fromEntries(set) };
}

/** Who uploads what, as the quotas count it. */
export interface Uploader {
  accountId: string;
  botId: string;
  /** The visitor; null for the account's own (an operator's), which only the storage quota counts. */
  userId: string | null;
  /** The client address (http/client-ip.ts); null when the host gave none: no per-address quota then. */
  clientIp: string | null;
}

/** Bytes already held, as strings (bigint sums). */
interface Usage {
  account: string;
  visitor: string;
  visitor_files: string;
  ip: string;
  bot: string;
}

/** What `uploader` holds now; run under the account's upload lock, after the expired uploads were purged. */
export async function usageOf(db: Kysely<AttachmentDatabase>, uploader: Uploader): Promise<Usage> {
  const { accountId, botId, userId, clientIp } = uploader;
  const { rows } = await sql<Usage>`
    select (select coalesce(sum(size), 0) from attachments where account_id = ${accountId}) as account,
      coalesce(sum(size) filter (where user_id = ${userId}), 0) as visitor,
      count(*) filter (where user_id = ${userId}) as visitor_files,
      coalesce(sum(size) filter (where client_ip = ${clientIp}), 0) as ip,
      coalesce(sum(size) filter (where bot_id = ${botId}), 0) as bot
    from attachments
    where account_id = ${accountId} and message_id is null and user_id is not null`.execute(db);
  return rows[0]!;
}

/** The refusal of an upload of `size` bytes by `uploader`, holding `usage`; null when it fits. */
export function quotaRefusal(quotas: AttachmentQuotas, uploader: Uploader, usage: Usage, size: number, maxPendingFiles: number): ServiceError | null {
  if (Number(usage.account) + size > quotas.storageBytesPerAccount) {
    return new ServiceError('storage_quota_exceeded', `This account's files may take at most ${bytes(quotas.storageBytesPerAccount)}; ${bytes(Number(usage.account))} are stored. Delete conversations with files to make room.`, { param: 'body' });
  }
  if (uploader.userId === null) return null;
  if (Number(usage.visitor_files) >= maxPendingFiles) {
    return new ServiceError('conflict', `${maxPendingFiles} files are waiting to be sent; send or remove some first.`, { param: 'body' });
  }
  const pending: Array<[string, number, number | null]> = [
    ['this visitor', quotas.pendingBytesPerVisitor, Number(usage.visitor)],
    ['this client address', quotas.pendingBytesPerIp, uploader.clientIp === null ? null : Number(usage.ip)],
    ['this bot', quotas.pendingBytesPerBot, Number(usage.bot)],
  ];
  for (const [whose, limit, held] of pending) {
    if (held !== null && held + size > limit) {
      const expiry = `unsent files are deleted after ${quotas.pendingRetentionSeconds} s`;
      return new ServiceError('upload_quota_exceeded', `Files waiting to be sent may take at most ${bytes(limit)} for ${whose}; ${bytes(held)} are waiting. Send or remove some first (${expiry}).`, { param: 'body' });
    }
  }
  return null;
}

/** Deletes the account's uploads no message took within the retention. */
export async function purgeExpiredUploads(db: Kysely<AttachmentDatabase>, accountId: string, retentionSeconds: number): Promise<void> {
  await db
    .deleteFrom('attachments')
    .where('account_id', '=', accountId)
    .where('message_id', 'is', null)
    .where('created_at', '<', sql<Date>`now() - make_interval(secs => ${retentionSeconds})`)
    .execute();
}

/** `52428800 bytes (50 MiB)`: exact, and readable. */
function bytes(n: number): string {
  const mib = n / MiB;
  return `${n} bytes (${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB)`;
}
