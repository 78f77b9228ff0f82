/**
 * Slack files. A file a person shared comes in the message event (`files`, with `size` and
 * `url_private_download`), read with the bot token (https://api.slack.com/types/file). A stored
 * file goes out the way Slack documents since `files.upload` was retired
 * (https://api.slack.com/messaging/files#uploading_files): `files.getUploadURLExternal` (name and
 * length) gives an upload URL and a file id, the bytes are posted there, and
 * `files.completeUploadExternal` shares the file in the chat's thread, the caption as its
 * `initial_comment`. Only the last step shows anything, so the first two are retried freely.
 */
import type { ChannelAccess, InboundFile, OutboundFile, SendResult } from '../adapter.ts';
import { arr, obj, str, type Obj } from '../payload.ts';
import { blobOf, download, fileTooLarge, harmless, mayFetch, postForm, type Download, type PlatformRequest } from '../platform-http.ts';
import { threadOf } from './thread.ts';

/** The adapter's part the file calls use (an interface here, so this module never imports the adapter's). */
export interface SlackApi {
  readonly apiUrl: string;
  readonly timeoutMs: number;
  request(channel: ChannelAccess, signal: AbortSignal): PlatformRequest;
  call(channel: ChannelAccess, method: string, body: Obj | URLSearchParams, signal: AbortSignal): Promise<{ ok: true; answer: Obj } | Extract<SendResult, { ok: false }>>;
}

/** Where Slack serves and takes files. */
const FILE_HOSTS = ['files.slack.com'];

export async function downloadFile(adapter: SlackApi, channel: ChannelAccess, file: InboundFile, maxBytes: number, signal: AbortSignal): Promise<Download> {
  if (file.size !== undefined && file.size > maxBytes) return fileTooLarge(maxBytes);
  if (!file.url || !mayFetch(file.url, adapter.apiUrl, FILE_HOSTS)) return { ok: false, retryable: false, error: 'the file is not at a URL Slack serves files from' };
  return download(file.url, maxBytes, adapter.request(channel, signal));
}

export async function sendFile(adapter: SlackApi, channel: ChannelAccess, chat: string, file: OutboundFile & { data: Uint8Array }, caption: string, signal: AbortSignal): Promise<SendResult> {
  const { channel: channelId, threadTs } = threadOf(chat);
  const ticket = await adapter.call(channel, 'files.getUploadURLExternal', new URLSearchParams({ filename: file.name, length: String(file.data.byteLength) }), signal);
  if (!ticket.ok) return harmless(ticket);
  const uploadUrl = str(ticket.answer.upload_url);
  const fileId = str(ticket.answer.file_id);
  if (!uploadUrl || !fileId || !mayFetch(uploadUrl, adapter.apiUrl, FILE_HOSTS)) return { ok: false, retryable: false, error: 'Slack answered without an upload URL it serves' };
  const form = new FormData();
  form.set('file', blobOf(file), file.name);
  const uploaded = await postForm(uploadUrl, form, { signal, timeoutMs: adapter.timeoutMs });
  if (!uploaded.ok) return harmless({ ...uploaded, error: `the upload failed: ${uploaded.error}` });
  const complete = new URLSearchParams({ files: JSON.stringify([{ id: fileId, title: file.name }]), channel_id: channelId });
  if (threadTs) complete.set('thread_ts', threadTs);
  if (caption) complete.set('initial_comment', caption);
  const shared = await adapter.call(channel, 'files.completeUploadExternal', complete, signal);
  if (!shared.ok) return shared;
  return { ok: true, externalId: str(obj(arr(shared.answer.files)[0])?.id) ?? fileId };
}
