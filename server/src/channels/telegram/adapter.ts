/**
 * Telegram Bot API (https://core.telegram.org/bots/api). The webhook is registered with
 * `setWebhook` and a `secret_token` this service generates; Telegram sends it back in
 * `X-Telegram-Bot-Api-Secret-Token` on every update. `update_id` is each delivery's id. Replies go
 * through `sendMessage` in HTML parse mode (format.ts writes it), quick replies as an inline keyboard
 * whose button press comes back as a `callback_query` carrying the button's text; the press is
 * answered with `answerCallbackQuery`, which stops the button's spinner.
 */
import { randomBytes } from 'node:crypto';
import { ServiceError } from '../../http/errors.ts';
import type { ChannelAccess, ChannelAdapter, InboundEvent, InboundFile, OutboundFile, OutboundReply, ParsedDelivery, SendResult } from '../adapter.ts';
import { arr, cutBytes, cutChars, obj, parseBody, str } from '../payload.ts';
import { postForm, postJson, type Download } from '../platform-http.ts';
import { sameSecret } from '../signature.ts';
import { downloadFile, sendFile, type CallOutcome } from './media.ts';

export const SECRET_HEADER = 'x-telegram-bot-api-secret-token';
/** Media kinds a message may carry (media.ts reads them; the caption is the text). */
const MEDIA = ['photo', 'document', 'audio', 'voice', 'video', 'sticker'];


export class TelegramAdapter implements ChannelAdapter {
  readonly type = 'telegram' as const;
  /** sendMessage text is 1–4096 characters; callback_data 1–64 bytes; a caption 0–1024 characters. */
  readonly limits = { maxTextChars: 4096, maxQuickReplies: 10, maxQuickReplyChars: 64, maxCaptionChars: 1024 };
  readonly secretFields = ['bot_token'] as const;
  readonly settingFields = [] as const;

  constructor(private readonly options: { apiUrl: string; timeoutMs: number }) {}

  /** The secret Telegram sends back on every update: 1–256 of `A-Za-z0-9_-`. */
  static newWebhookSecret(): string {
    return randomBytes(32).toString('base64url');
  }

  verify(_rawBody: Uint8Array, headers: Headers, channel: ChannelAccess): boolean {
    const expected = channel.secrets.webhook_secret;
    return expected !== undefined && sameSecret(headers.get(SECRET_HEADER) ?? undefined, expected);
  }

  parse(rawBody: Uint8Array): ParsedDelivery {
    const update = obj(parseBody(rawBody));
    const updateId = str(update?.update_id);
    if (!update || updateId === undefined) throw new ServiceError('validation_failed', 'A Telegram update has an update_id.', { param: 'update_id' });
    const event = messageEvent(updateId, obj(update.message)) ?? callbackEvent(updateId, obj(update.callback_query));
    return { events: event ? [event] : [], statuses: [] };
  }

  async send(channel: ChannelAccess, chat: string, reply: OutboundReply, signal: AbortSignal): Promise<SendResult> {
    const keyboard = reply.quickReplies.slice(0, this.limits.maxQuickReplies).map((text) => [{ text: cutChars(text, 64), callback_data: cutBytes(text, this.limits.maxQuickReplyChars) }]);
    const body = { chat_id: chat, ...(keyboard.length && { reply_markup: { inline_keyboard: keyboard } }) };
    const sendAs = (text: string, html: boolean) => this.call(channel, 'sendMessage', { ...body, text: text || '…', ...(html && { parse_mode: 'HTML' }) }, signal);
    return this.withPlainFallback(reply.text || '…', sendAs, this.limits.maxTextChars);
  }

  sendFile(channel: ChannelAccess, chat: string, file: OutboundFile & { data: Uint8Array }, caption: string, signal: AbortSignal): Promise<SendResult> {
    return sendFile(this, channel, chat, file, caption, signal);
  }

  download(channel: ChannelAccess, file: InboundFile, maxBytes: number, signal: AbortSignal): Promise<Download> {
    return downloadFile(this, channel, file, maxBytes, signal);
  }

  /**
   * Sends `text` as HTML. format.ts writes only tags and entities Telegram knows, balanced in every
   * piece, so a refusal should not happen; if Telegram still refuses the markup, the 400 means
   * nothing was shown, and it goes once more as plain text: a reply is never lost to formatting.
   */
  async withPlainFallback(text: string, sendAs: (text: string, html: boolean) => Promise<CallOutcome>, maxChars: number): Promise<SendResult> {
    let outcome = await sendAs(cutChars(text, maxChars), true);
    if (!outcome.ok && outcome.status === 400 && /can't parse entities/i.test(outcome.error)) outcome = await sendAs(cutChars(plainText(text), maxChars), false);
    if (outcome.ok) return { ok: true, externalId: str(obj(outcome.answer)?.message_id) ?? 'true' };
    return outcome;
  }

  async acknowledge(channel: ChannelAccess, event: InboundEvent): Promise<void> {
    if (!event.pressId) return;
    const outcome = await this.call(channel, 'answerCallbackQuery', { callback_query_id: event.pressId }, AbortSignal.timeout(this.options.timeoutMs));
    if (!outcome.ok) throw new Error(`Telegram did not answer the callback query: ${outcome.error}`);
  }

  async connect(channel: ChannelAccess, webhookUrl: string): Promise<void> {
    const body = { url: webhookUrl, secret_token: channel.secrets.webhook_secret, allowed_updates: ['message', 'callback_query'] };
    const outcome = await this.call(channel, 'setWebhook', body, AbortSignal.timeout(this.options.timeoutMs));
    if (!outcome.ok) throw new ServiceError('upstream_error', `Telegram did not set the webhook: ${outcome.error}.`, { param: 'bot_token' });
  }

  async disconnect(channel: ChannelAccess): Promise<void> {
    const outcome = await this.call(channel, 'deleteWebhook', {}, AbortSignal.timeout(this.options.timeoutMs));
    if (!outcome.ok) throw new ServiceError('upstream_error', `Telegram did not delete the webhook: ${outcome.error}.`);
  }

  get apiUrl(): string {
    return this.options.apiUrl;
  }

  get timeoutMs(): number {
    return this.options.timeoutMs;
  }

  /**
   * One Bot API method (a `FormData` body goes as a multipart upload); `{ok: true, result}` is the
   * result, `{ok: false, error_code, description, parameters: {retry_after}}` read as the outcome.
   */
  async call(channel: ChannelAccess, method: string, body: unknown, signal: AbortSignal): Promise<CallOutcome> {
    const token = channel.secrets.bot_token ?? '';
    const url = `${this.options.apiUrl}/bot${token}/${method}`;
    const request = { signal, timeoutMs: this.options.timeoutMs };
    const outcome = body instanceof FormData ? await postForm(url, body, request) : await postJson(url, body, request);
    const answer = obj(outcome.answer?.body);
    if (outcome.ok && answer?.ok === true) return { ok: true, answer: answer.result };
    const retryAfter = Number(obj(answer?.parameters)?.retry_after ?? outcome.answer?.retryAfterSeconds);
    const description = typeof answer?.description === 'string' ? cutChars(answer.description, 200) : outcome.ok ? 'an answer that is not ok' : outcome.error;
    return {
      ok: false,
      status: outcome.answer?.status,
      retryable: outcome.ok ? false : outcome.retryable,
      ...(!outcome.ok && outcome.uncertain && { uncertain: true as const }),
      error: description.replaceAll(token, '***'),
      ...(Number.isFinite(retryAfter) && retryAfter >= 0 && { retryAfterMs: retryAfter * 1000 }),
    };
  }
}

function messageEvent(updateId: string, message: Record<string, unknown> | undefined): InboundEvent | undefined {
  const chat = str(obj(message?.chat)?.id);
  if (!message || chat === undefined) return undefined;
  const from = obj(message.from);
  const files = MEDIA.filter((kind) => message[kind] !== undefined).flatMap((kind) => {
    // a photo comes in several sizes, smallest first: the largest is the photo
    const media = obj(arr(message[kind]).at(-1) ?? message[kind]);
    const id = str(media?.file_id);
    const size = Number(media?.file_size);
    return id ? [{ kind, id, ...(str(media?.file_name) && { name: str(media?.file_name) }), ...(Number.isSafeInteger(size) && { size }) }] : [];
  });
  const text = str(message.text) ?? str(message.caption) ?? '';
  if (!text.trim() && !files.length) return undefined;
  return { externalMessageId: updateId, externalConversationId: chat, user: { id: str(from?.id) ?? chat, name: str(from?.first_name) }, text, files };
}

function callbackEvent(updateId: string, query: Record<string, unknown> | undefined): InboundEvent | undefined {
  const chat = str(obj(obj(query?.message)?.chat)?.id);
  const data = str(query?.data);
  if (!query || chat === undefined || !data?.trim()) return undefined;
  const from = obj(query.from);
  const pressId = str(query.id);
  return { externalMessageId: updateId, externalConversationId: chat, user: { id: str(from?.id) ?? chat, name: str(from?.first_name) }, text: data, files: [], ...(pressId && { pressId }) };
}

/**
 * Telegram HTML as format.ts writes it, as plain text: tags dropped (a link as `text (url)`), its
 * four entities read back. Only that markup occurs (every other `<`, `>`, `&` is escaped), so
 * matching its tags is exact.
 */
export function plainText(html: string): string {
  const unescape = (text: string) => text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&amp;', '&');
  const untag = (text: string) => text.replace(/<\/?[a-z]+(?: [^>]*)?>/g, '');
  return unescape(
    untag(
      html.replace(/<a href="([^"]*)">([\s\S]*?)<\/a>/g, (_, href: string, inner: string) => {
        const text = untag(inner);
        return text === href ? href : `${text} (${href})`;
      }),
    ),
  );
}
