/**
 * WhatsApp media (https://developers.facebook.com/docs/whatsapp/cloud-api/reference/media). A
 * file a person sent is a media id: `GET /{version}/{media-id}` names its URL (valid for minutes),
 * read with the same bearer token. A stored file is uploaded (`POST /{phone-number-id}/media`,
 * multipart) and sent by the id the upload returns, not by link: the service's files are not
 * public, and an upload needs no public URL. JPEG and PNG up to 5 MB go as an image, anything else
 * as a document (100 MB), the caption in WhatsApp's markup.
 */
import type { ChannelAccess, InboundFile, OutboundFile, SendResult } from '../adapter.ts';
import { obj, str, type Obj } from '../payload.ts';
import { blobOf, download, fileTooLarge, getJson, harmless, mayFetch, postForm, type Download, type PlatformRequest } from '../platform-http.ts';
import { graphFailure } from './graph.ts';

/** The adapter's part the media calls use (an interface here, so this module never imports the adapter's). */
export interface WhatsAppApi {
  readonly apiUrl: string;
  url(path: string): string;
  request(channel: ChannelAccess, signal: AbortSignal): PlatformRequest;
  message(channel: ChannelAccess, chat: string, content: Obj, signal: AbortSignal): Promise<SendResult>;
}

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png']);
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Where Meta serves media (`lookaside.fbsbx.com`). */
const MEDIA_HOSTS = ['fbsbx.com', 'facebook.com', 'whatsapp.net'];

export async function downloadFile(adapter: WhatsAppApi, channel: ChannelAccess, file: InboundFile, maxBytes: number, signal: AbortSignal): Promise<Download> {
  if (file.size !== undefined && file.size > maxBytes) return fileTooLarge(maxBytes);
  const request = adapter.request(channel, signal);
  const found = await getJson(adapter.url(encodeURIComponent(file.id)), request);
  if (!found.ok) return harmless(graphFailure(found));
  const media = obj(found.answer.body);
  const url = str(media?.url);
  if (!url || !mayFetch(url, adapter.apiUrl, MEDIA_HOSTS)) return { ok: false, retryable: false, error: 'the Graph API named no media URL it serves' };
  if (Number(media?.file_size) > maxBytes) return fileTooLarge(maxBytes);
  return download(url, maxBytes, request);
}

export async function sendFile(adapter: WhatsAppApi, channel: ChannelAccess, chat: string, file: OutboundFile & { data: Uint8Array }, caption: string, signal: AbortSignal): Promise<SendResult> {
  const form = new FormData();
  form.set('messaging_product', 'whatsapp');
  form.set('type', file.contentType);
  form.set('file', blobOf(file), file.name);
  const uploaded = await postForm(adapter.url(`${encodeURIComponent(channel.settings.phone_number_id ?? '')}/media`), form, adapter.request(channel, signal));
  const id = str(obj(uploaded.answer?.body)?.id);
  if (!uploaded.ok) return harmless(graphFailure(uploaded));
  if (!id) return { ok: false, retryable: false, error: 'the Graph API answered the upload without a media id' };
  const text = caption ? { caption } : {};
  const image = IMAGE_TYPES.has(file.contentType) && file.size <= MAX_IMAGE_BYTES;
  const content = image ? { type: 'image', image: { id, ...text } } : { type: 'document', document: { id, filename: file.name, ...text } };
  return adapter.message(channel, chat, content, signal);
}
