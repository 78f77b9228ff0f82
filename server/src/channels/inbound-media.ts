/**
 * The files of a message a person sent on a platform, read from it and stored as attachments of
 * the conversation under the bot's attachment settings and the service's quotas, as a widget
 * upload of that person is (attachments/service.ts: the bytes' type sniffed, the size bounded);
 * the turn then sends them with the message, so the inbox shows them and a model that reads images
 * sees them. A file not taken (too large, a type the bot refuses, a bot that takes none) is a
 * refusal: a line kept with the message and said to the person, never a failure of the message. A
 * platform that did not answer is a reason to try the event again, until its last try.
 */
import type { Attachment } from '../../../src/client/types.ts';
import { sniff } from '../attachments/content-type.ts';
import { safeFileName } from '../attachments/file-headers.ts';
import type { AttachmentService } from '../attachments/service.ts';
import { ServiceError } from '../http/errors.ts';
import type { ChannelAccess, ChannelAdapter, InboundEvent } from './adapter.ts';

export type ChannelFiles = Pick<AttachmentService, 'visitorRules' | 'upload' | 'remove' | 'bytesOf'>;

export interface ReceivedFiles {
  /** Stored attachments, in the order sent. */
  ids: string[];
  /** One line per file not taken. */
  refusals: string[];
}

/** The name a file without one (a Telegram photo, a voice note) is shown under: its kind and the extension of what it is. */
const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp', 'application/pdf': 'pdf', 'text/plain': 'txt' };

export async function receiveFiles(
  files: ChannelFiles,
  adapter: ChannelAdapter,
  channel: { account_id: string; bot_id: string; access: ChannelAccess },
  event: InboundEvent,
  userId: string,
  lastTry: boolean,
): Promise<ReceivedFiles> {
  const received: ReceivedFiles = { ids: [], refusals: [] };
  if (!event.files.length) return received;
  const rules = await files.visitorRules(channel.account_id, channel.bot_id);
  const refuse = (name: string, why: string) => received.refusals.push(`The file "${name}" was not accepted: ${why}`);
  try {
    for (const [index, file] of event.files.entries()) {
      const named = file.name ? safeFileName(file.name) : undefined;
      if (!rules.enabled) refuse(named ?? file.kind, 'this bot does not take files.');
      else if (index >= rules.maxFiles) refuse(named ?? file.kind, `a message carries at most ${rules.maxFiles} files.`);
      else {
        const read = await adapter.download(channel.access, file, rules.maxBytes, new AbortController().signal);
        if (!read.ok && read.retryable && !lastTry) throw new Error(`a file could not be read: ${read.error}`);
        if (!read.ok) {
          refuse(named ?? file.kind, read.tooLarge ? read.error : 'it could not be read from the platform.');
          continue;
        }
        const name = named ?? `${file.kind}.${EXTENSIONS[sniff(read.bytes)] ?? 'bin'}`;
        const stored = await upload(files, channel, userId, name, read.bytes);
        if (typeof stored === 'string') refuse(name, stored);
        else received.ids.push(stored.id);
      }
    }
  } catch (error) {
    await forgetFiles(files, channel.account_id, userId, received.ids);
    throw error;
  }
  return received;
}

/** The stored attachment, or why it was refused (the upload's own words). */
async function upload(files: ChannelFiles, channel: { account_id: string; bot_id: string }, userId: string, filename: string, bytes: Uint8Array): Promise<Attachment | string> {
  try {
    return await files.upload(channel.account_id, { botId: channel.bot_id, userId, filename, bytes });
  } catch (error) {
    if (error instanceof ServiceError && error.status < 500) return error.message;
    throw error;
  }
}

/** Removes uploads no message took (the turn failed, or it had been answered before and keeps its own files). */
export async function forgetFiles(files: ChannelFiles, accountId: string, userId: string, ids: readonly string[]): Promise<void> {
  for (const id of ids) await files.remove(accountId, id, { userId }).catch(() => {});
}

/** The person's text with the refusals after it, as their message in the conversation. */
export function withRefusals(text: string, refusals: readonly string[]): string {
  return [text, ...refusals.map((line) => `[${line}]`)].filter((part) => part.trim()).join('\n\n');
}
