/**
 * Telegram media (https://core.telegram.org/bots/api#sending-files). A file a person sent is read
 * with `getFile` (its `file_path`, valid for an hour) and then
 * `GET /file/bot<token>/<file_path>`; a bot may read files up to 20 MB that way. A stored file
 * goes out as a multipart upload: `sendPhoto` for a JPEG or PNG up to 10 MB, `sendDocument` for
 * anything else (50 MB), the caption in HTML like a message's text.
 */
import type { ChannelAccess, InboundFile, OutboundFile, SendResult } from '../adapter.ts';
import { obj, str } from '../payload.ts';
import { blobOf, download, fileTooLarge, harmless, type Download } from '../platform-http.ts';

/** What a Bot API call answers: the result, or a failure with the HTTP status when there was one. */
export type CallOutcome = { ok: true; answer: unknown } | (Extract<SendResult, { ok: false }> & { status?: number });

/** The adapter's part the file calls use (an interface here, so this module never imports the adapter's). */
export interface TelegramApi {
  readonly apiUrl: string;
  readonly timeoutMs: number;
  readonly limits: { maxCaptionChars: number };
  call(channel: ChannelAccess, method: string, body: unknown, signal: AbortSignal): Promise<CallOutcome>;
  withPlainFallback(text: string, sendAs: (text: string, html: boolean) => Promise<CallOutcome>, maxChars: number): Promise<SendResult>;
}

/** What the Bot API serves a bot at most; a larger file is refused by `getFile` anyway. */
const MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024;
const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
const PHOTO_TYPES = new Set(['image/jpeg', 'image/png']);

export async function downloadFile(adapter: TelegramApi, channel: ChannelAccess, file: InboundFile, maxBytes: number, signal: AbortSignal): Promise<Download> {
  const limit = Math.min(maxBytes, MAX_DOWNLOAD_BYTES);
  if (file.size !== undefined && file.size > limit) return fileTooLarge(limit);
  const found = await adapter.call(channel, 'getFile', { file_id: file.id }, signal);
  if (!found.ok) return harmless(found);
  const result = obj(found.answer);
  const path = str(result?.file_path);
  if (!path) return { ok: false, retryable: false, error: 'Telegram gave no file_path' };
  const size = Number(result?.file_size);
  if (size > limit) return fileTooLarge(limit);
  const token = channel.secrets.bot_token ?? '';
  return download(`${adapter.apiUrl}/file/bot${token}/${path.split('/').map(encodeURIComponent).join('/')}`, limit, { signal, timeoutMs: adapter.timeoutMs });
}

/** `sendPhoto` or `sendDocument` with the bytes; a caption Telegram cannot parse goes once more as plain text. */
export async function sendFile(adapter: TelegramApi, channel: ChannelAccess, chat: string, file: OutboundFile & { data: Uint8Array }, caption: string, signal: AbortSignal): Promise<SendResult> {
  const photo = PHOTO_TYPES.has(file.contentType) && file.size <= MAX_PHOTO_BYTES;
  const form = (text: string, html: boolean) => {
    const body = new FormData();
    body.set('chat_id', chat);
    body.set(photo ? 'photo' : 'document', blobOf(file), file.name);
    if (text) body.set('caption', text);
    if (text && html) body.set('parse_mode', 'HTML');
    return body;
  };
  const method = photo ? 'sendPhoto' : 'sendDocument';
  return adapter.withPlainFallback(caption, (text, html) => adapter.call(channel, method, form(text, html), signal), adapter.limits.maxCaptionChars);
}
