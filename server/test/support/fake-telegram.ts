/**
 * fake-telegram: a FAKE Telegram Bot API on a loopback port, shaped as documented
 * (https://core.telegram.org/bots/api): `POST /bot<token>/<method>` answers `{ok: true, result}`
 * or `{ok: false, error_code, description, parameters?: {retry_after}}`. It knows one bot token,
 * remembers the webhook `setWebhook` registered (so a test delivers updates with its secret token,
 * as Telegram would), numbers the messages it takes, and answers each callback query once. Files
 * (https://core.telegram.org/bots/api#getfile): a test puts one in (`addFile`), `getFile` names
 * its `file_path` and `GET /file/bot<token>/<file_path>` serves it; `sendPhoto`/`sendDocument`
 * take a multipart upload.
 */
import { FakePlatform, type FakeAnswer, type FakeRequest } from './fake-platform.ts';

export const FAKE_TELEGRAM_TOKEN = '123456789:AAFakeTelegramTokenForTests_0123456789';

export class FakeTelegram extends FakePlatform {
  /** What the last `setWebhook` registered; null after `deleteWebhook`. */
  webhook: { url: string; secret_token: string } | null = null;
  private messageId = 0;
  private readonly answeredQueries = new Set<string>();
  private readonly files = new Map<string, { path: string; bytes: Uint8Array; size?: number; unsized?: true }>();

  constructor(readonly token = FAKE_TELEGRAM_TOKEN) {
    super((request) => this.method(request));
  }

  /** A `429 Too Many Requests` answer as Telegram sends it. */
  static tooManyRequests(retryAfter: number): FakeAnswer {
    return { status: 429, body: { ok: false, error_code: 429, description: `Too Many Requests: retry after ${retryAfter}`, parameters: { retry_after: retryAfter } } };
  }

  /** The `sendMessage` calls received (a failed or held one too). */
  sent(): FakeRequest[] {
    return this.calls('/sendMessage');
  }

  /** A `400` refusing a message's markup, as Telegram words it. */
  static cannotParse(): FakeAnswer {
    return { status: 400, body: { ok: false, error_code: 400, description: 'Bad Request: can\'t parse entities: Unsupported start tag "x" at byte offset 0' } };
  }

  /**
   * A file a person sent, as `getFile` will name it (`size`: what Telegram says, when not the
   * bytes' length; `unsized`: served chunked, without a Content-Length).
   */
  addFile(fileId: string, bytes: Uint8Array, options: { path?: string; size?: number; unsized?: true } = {}): void {
    this.files.set(fileId, { path: options.path ?? `photos/${fileId}.bin`, bytes, size: options.size, unsized: options.unsized });
  }

  /** The `sendPhoto` and `sendDocument` calls received. */
  sentFiles(): FakeRequest[] {
    return this.requests.filter((request) => /\/send(Photo|Document)$/.test(request.path));
  }

  private method(request: FakeRequest): FakeAnswer {
    if (request.method === 'GET' && request.path.startsWith(`/file/bot${this.token}/`)) {
      const path = decodeURIComponent(request.path.slice(`/file/bot${this.token}/`.length));
      const file = [...this.files.values()].find((candidate) => candidate.path === path);
      return file ? { status: 200, body: null, raw: file.bytes, ...(file.unsized && { unsized: true as const }) } : { status: 404, body: { ok: false, error_code: 404, description: 'Not Found' } };
    }
    const [, bot, method] = request.path.split('/');
    if (bot !== `bot${this.token}`) return { status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } };
    if (method === 'setWebhook') {
      this.webhook = { url: request.body.url, secret_token: request.body.secret_token };
      return { status: 200, body: { ok: true, result: true, description: 'Webhook was set' } };
    }
    if (method === 'deleteWebhook') {
      this.webhook = null;
      return { status: 200, body: { ok: true, result: true, description: 'Webhook was deleted' } };
    }
    if (method === 'sendMessage') {
      const { chat_id, text } = request.body;
      if (!text) return { status: 400, body: { ok: false, error_code: 400, description: 'Bad Request: message text is empty' } };
      return { status: 200, body: { ok: true, result: { message_id: ++this.messageId, chat: { id: Number(chat_id), type: 'private' }, date: 1_700_000_000, text } } };
    }
    if (method === 'getFile') {
      const file = this.files.get(String(request.body.file_id ?? ''));
      if (!file) return { status: 400, body: { ok: false, error_code: 400, description: 'Bad Request: invalid file_id' } };
      const result = { file_id: request.body.file_id, file_unique_id: `u${request.body.file_id}`, file_size: file.size ?? file.bytes.byteLength, file_path: file.path };
      return { status: 200, body: { ok: true, result } };
    }
    if (method === 'sendPhoto' || method === 'sendDocument') {
      const field = method === 'sendPhoto' ? 'photo' : 'document';
      const upload = request.body?.[field];
      if (!request.body?.chat_id || !upload?.bytes) return { status: 400, body: { ok: false, error_code: 400, description: `Bad Request: there is no ${field} in the request` } };
      const media = { file_id: `sent-${this.messageId + 1}`, file_unique_id: `su${this.messageId + 1}`, file_size: upload.bytes.length };
      const message = { message_id: ++this.messageId, chat: { id: Number(request.body.chat_id), type: 'private' }, date: 1_700_000_000, ...(request.body.caption && { caption: request.body.caption }) };
      return { status: 200, body: { ok: true, result: { ...message, [field]: field === 'photo' ? [media] : { ...media, file_name: upload.filename } } } };
    }
    if (method === 'answerCallbackQuery') {
      const id = String(request.body.callback_query_id ?? '');
      if (!id || this.answeredQueries.has(id)) return { status: 400, body: { ok: false, error_code: 400, description: 'Bad Request: query is too old and response timeout expired or query ID is invalid' } };
      this.answeredQueries.add(id);
      return { status: 200, body: { ok: true, result: true } };
    }
    return { status: 404, body: { ok: false, error_code: 404, description: 'Not Found' } };
  }
}

export async function startFakeTelegram(): Promise<FakeTelegram> {
  return new FakeTelegram().listen();
}
