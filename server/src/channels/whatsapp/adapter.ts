/**
 * WhatsApp Cloud API (https://developers.facebook.com/docs/whatsapp/cloud-api). Meta verifies the
 * webhook once with a GET (`hub.mode=subscribe`, `hub.verify_token`, `hub.challenge`: echo the
 * challenge when the token is ours); every POST carries `X-Hub-Signature-256`, the HMAC-SHA256 of
 * the raw body under the app secret, checked before the body is parsed. A delivery holds messages
 * (`wamid` ids) and statuses of messages sent earlier. Replies go to
 * `POST /{version}/{phone-number-id}/messages`, the text in WhatsApp's own markup (format.ts wrote
 * it; WhatsApp has no escapes, so it goes as written); quick replies as reply buttons (up to 3) or a
 * list. Media in both directions: media.ts.
 */
import { ServiceError } from '../../http/errors.ts';
import type { ChannelAccess, ChannelAdapter, DeliveryStatus, InboundEvent, InboundFile, OutboundFile, OutboundReply, ParsedDelivery, SendResult } from '../adapter.ts';
import { arr, cutChars, obj, parseBody, str, type Obj } from '../payload.ts';
import { postJson, type Download, type PlatformRequest } from '../platform-http.ts';
import { sameSecret, verifyHubSignature } from '../signature.ts';
import { graphFailure } from './graph.ts';
import { downloadFile, sendFile } from './media.ts';

export const SIGNATURE_HEADER = 'x-hub-signature-256';

export class WhatsAppAdapter implements ChannelAdapter {
  readonly type = 'whatsapp' as const;
  /** Text bodies up to 4096 characters; an interactive body 1024; 3 buttons of 20, 10 list rows of 24; a media caption 1024. */
  readonly limits = { maxTextChars: 4096, maxQuickReplies: 10, maxQuickReplyChars: 24, maxCaptionChars: 1024 };
  readonly secretFields = ['access_token', 'app_secret', 'verify_token'] as const;
  readonly settingFields = ['phone_number_id'] as const;

  constructor(private readonly options: { apiUrl: string; apiVersion: string; timeoutMs: number }) {}

  verify(rawBody: Uint8Array, headers: Headers, channel: ChannelAccess): boolean {
    const secret = channel.secrets.app_secret;
    return secret !== undefined && verifyHubSignature(headers.get(SIGNATURE_HEADER) ?? undefined, secret, rawBody);
  }

  /** The GET handshake: the challenge to echo, or undefined when it is not Meta asking with our token. */
  handshake(query: Record<string, string | undefined>, channel: ChannelAccess): string | undefined {
    const challenge = query['hub.challenge'];
    if (query['hub.mode'] !== 'subscribe' || !challenge || !/^[A-Za-z0-9_-]{1,256}$/.test(challenge)) return undefined;
    return sameSecret(query['hub.verify_token'], channel.secrets.verify_token ?? '') ? challenge : undefined;
  }

  parse(rawBody: Uint8Array): ParsedDelivery {
    const body = obj(parseBody(rawBody));
    if (body?.object !== 'whatsapp_business_account') throw new ServiceError('validation_failed', 'A WhatsApp delivery is a whatsapp_business_account object.', { param: 'object' });
    const events: InboundEvent[] = [];
    const statuses: DeliveryStatus[] = [];
    for (const entry of arr(body.entry)) {
      for (const change of arr(obj(entry)?.changes)) {
        const value = obj(obj(change)?.value);
        if (obj(change)?.field !== 'messages' || !value) continue;
        const names = new Map(arr(value.contacts).map((c) => [str(obj(c)?.wa_id), str(obj(obj(c)?.profile)?.name)]));
        for (const message of arr(value.messages)) {
          const event = messageEvent(obj(message), names);
          if (event) events.push(event);
        }
        for (const status of arr(value.statuses)) {
          const id = str(obj(status)?.id);
          const state = str(obj(status)?.status);
          if (!id || !state) continue;
          const error = obj(arr(obj(status)?.errors)[0]);
          statuses.push({ externalMessageId: id, status: state, ...(error && { error: cutChars(`${str(error.code) ?? ''} ${str(error.title) ?? ''}`.trim(), 200) }) });
        }
      }
    }
    return { events, statuses };
  }

  async send(channel: ChannelAccess, chat: string, reply: OutboundReply, signal: AbortSignal): Promise<SendResult> {
    return this.message(channel, chat, this.content(reply), signal);
  }

  sendFile(channel: ChannelAccess, chat: string, file: OutboundFile & { data: Uint8Array }, caption: string, signal: AbortSignal): Promise<SendResult> {
    return sendFile(this, channel, chat, file, caption, signal);
  }

  download(channel: ChannelAccess, file: InboundFile, maxBytes: number, signal: AbortSignal): Promise<Download> {
    return downloadFile(this, channel, file, maxBytes, signal);
  }

  /** One message (`content`: its type and that type's object) to `chat`. */
  async message(channel: ChannelAccess, chat: string, content: Obj, signal: AbortSignal): Promise<SendResult> {
    const url = this.url(`${encodeURIComponent(channel.settings.phone_number_id ?? '')}/messages`);
    const outcome = await postJson(url, { messaging_product: 'whatsapp', recipient_type: 'individual', to: chat, ...content }, this.request(channel, signal));
    const id = str(obj(arr(obj(outcome.answer?.body)?.messages)[0])?.id);
    if (outcome.ok && id) return { ok: true, externalId: id };
    if (outcome.ok) return { ok: false, retryable: false, error: 'the Graph API answered without a message id' };
    return graphFailure(outcome);
  }

  get apiUrl(): string {
    return this.options.apiUrl;
  }

  /** The Graph API URL of `path` (under the version). */
  url(path: string): string {
    return `${this.options.apiUrl}/${this.options.apiVersion}/${path}`;
  }

  /** A request with the channel's bearer token. */
  request(channel: ChannelAccess, signal: AbortSignal): PlatformRequest {
    return { headers: { authorization: `Bearer ${channel.secrets.access_token ?? ''}` }, signal, timeoutMs: this.options.timeoutMs };
  }

  /** Text, or reply buttons (1–3 quick replies), or a list (more), within WhatsApp's sizes. */
  private content(reply: OutboundReply): Obj {
    const text = reply.text || '…';
    const options = reply.quickReplies.slice(0, this.limits.maxQuickReplies);
    if (!options.length || [...text].length > 1024) return { type: 'text', text: { body: cutChars(text, this.limits.maxTextChars), preview_url: false } };
    const action =
      options.length <= 3
        ? { buttons: options.map((title, i) => ({ type: 'reply', reply: { id: `qr_${i}`, title: cutChars(title, 20) } })) }
        : { button: 'Options', sections: [{ rows: options.map((title, i) => ({ id: `qr_${i}`, title: cutChars(title, 24) })) }] };
    return { type: 'interactive', interactive: { type: options.length <= 3 ? 'button' : 'list', body: { text }, action } };
  }
}


function messageEvent(message: Obj | undefined, names: Map<string | undefined, string | undefined>): InboundEvent | undefined {
  const id = str(message?.id);
  const from = str(message?.from);
  if (!message || !id || !from) return undefined;
  const type = str(message.type) ?? '';
  const interactive = obj(message.interactive);
  const chosen = obj(interactive?.button_reply) ?? obj(interactive?.list_reply);
  const media = obj(message[type]);
  const text =
    type === 'text' ? str(obj(message.text)?.body) : type === 'interactive' ? str(chosen?.title) : type === 'button' ? str(obj(message.button)?.text) : str(media?.caption);
  const mediaId = type !== 'text' && type !== 'interactive' ? str(media?.id) : undefined;
  const files = mediaId ? [{ kind: type, id: mediaId, ...(str(media?.filename) && { name: str(media?.filename) }) }] : [];
  if (!text?.trim() && !files.length) return undefined;
  return { externalMessageId: id, externalConversationId: from, user: { id: from, name: names.get(from) }, text: text ?? '', files };
}
