/**
 * fake-slack: a FAKE Slack Web API on a loopback port, shaped as documented
 * (https://api.slack.com/methods/chat.postMessage): `POST /api/chat.postMessage` with
 * `Authorization: Bearer xoxb-…` answers `{ok: true, channel, ts, message}`; refusals are HTTP 200
 * `{ok: false, error: "<code>"}`, a rate limit 429 `ratelimited` with `Retry-After`. Files
 * (https://api.slack.com/messaging/files): a shared file's `url_private_download` serves it to the
 * bot token; an upload is `files.getUploadURLExternal` (form: `filename`, `length`) →
 * `{upload_url, file_id}`, the bytes posted to `upload_url` (answered `OK - <length>` in plain
 * text), then `files.completeUploadExternal` (form: `files` as JSON, `channel_id`, `thread_ts`,
 * `initial_comment`) → `{ok: true, files: [{id, title}]}`.
 */
import { FakePlatform, type FakeAnswer, type FakeRequest } from './fake-platform.ts';

export const FAKE_SLACK = {
  botToken: 'xoxb-1234567890-0987654321-FakeSlackBotTokenForTests',
  /** Slack's documented example signing secret (https://api.slack.com/authentication/verifying-requests-from-slack). */
  signingSecret: '8f742231b10e8888abcd99yyyzzz85a5',
  /** The app's bot user: its own messages come back as events and are not questions. */
  botUserId: 'U0FAKEBOT',
  botId: 'B0FAKEBOT',
};

export class FakeSlack extends FakePlatform {
  private messages = 0;
  /** Files by id: shared by people (`addFile`) and uploaded by the service (bytes once posted). */
  readonly files = new Map<string, { name: string; bytes?: Uint8Array; length?: number }>();

  constructor(readonly app = FAKE_SLACK) {
    super((request) => this.method(request));
  }

  /** The Web API's base, as `AI_CHAT_SLACK_API_URL` takes it. */
  get apiUrl(): string {
    return `${this.url}/api`;
  }

  /** A `429` as Slack sends it: `Retry-After` in seconds, `{ok: false, error: "ratelimited"}`. */
  static tooManyRequests(retryAfter: number): FakeAnswer {
    return { status: 429, headers: { 'retry-after': String(retryAfter) }, body: { ok: false, error: 'ratelimited' } };
  }

  /** A refusal as Slack words most of them: HTTP 200 and `ok: false`. */
  static refusal(error: string): FakeAnswer {
    return { status: 200, body: { ok: false, error } };
  }

  /** The `chat.postMessage` calls received (a failed or held one too). */
  sent(): FakeRequest[] {
    return this.calls('/chat.postMessage');
  }

  /** A file a person shared, as the message event's `files` carries it (`size`: what Slack says, when not the bytes' length). */
  addFile(id: string, name: string, bytes: Uint8Array, mimetype: string, size = bytes.byteLength) {
    this.files.set(id, { name, bytes });
    const url = `${this.url}/files-pri/T0FAKETEAM-${id}/download/${encodeURIComponent(name)}`;
    return { id, name, title: name, mimetype, filetype: name.split('.').pop(), size, mode: 'hosted', url_private: url, url_private_download: url };
  }

  private method(request: FakeRequest): FakeAnswer {
    const shared = /^\/files-pri\/T0FAKETEAM-([^/]+)\/download\//.exec(request.path);
    if (shared) {
      const bytes = request.headers.authorization === `Bearer ${this.app.botToken}` ? this.files.get(shared[1]!)?.bytes : undefined;
      return bytes ? { status: 200, body: null, raw: bytes } : { status: 404, body: null };
    }
    const upload = /^\/upload\/v1\/([^/]+)$/.exec(request.path);
    if (upload) {
      const file = this.files.get(upload[1]!);
      const part = request.body?.file;
      if (!file || !part?.bytes || part.bytes.length !== file.length) return { status: 400, body: null, raw: Buffer.from('Bad Request') };
      file.bytes = part.bytes;
      return { status: 200, body: null, raw: Buffer.from(`OK - ${part.bytes.length}`), headers: { 'content-type': 'text/plain' } };
    }
    if (request.headers.authorization !== `Bearer ${this.app.botToken}`) return FakeSlack.refusal('invalid_auth');
    if (request.path === '/api/files.getUploadURLExternal') {
      const { filename, length } = request.body ?? {};
      if (!filename || !(Number(length) > 0)) return FakeSlack.refusal('invalid_arguments');
      const id = `F0UP${this.files.size + 1}`;
      this.files.set(id, { name: filename, length: Number(length) });
      return { status: 200, body: { ok: true, upload_url: `${this.url}/upload/v1/${id}`, file_id: id } };
    }
    if (request.path === '/api/files.completeUploadExternal') {
      const listed = JSON.parse(request.body?.files ?? '[]') as { id: string; title?: string }[];
      if (!request.body?.channel_id) return FakeSlack.refusal('channel_not_found');
      if (!listed.length || listed.some((file) => !this.files.get(file.id)?.bytes)) return FakeSlack.refusal('file_not_found');
      return { status: 200, body: { ok: true, files: listed.map((file) => ({ id: file.id, title: file.title ?? this.files.get(file.id)!.name })) } };
    }
    if (request.path !== '/api/chat.postMessage') return { status: 404, body: { ok: false, error: 'unknown_method' } };
    const { channel, text, blocks, thread_ts } = request.body;
    if (!channel) return FakeSlack.refusal('channel_not_found');
    if (!text && !blocks) return FakeSlack.refusal('no_text');
    const ts = `1700000000.${String(++this.messages).padStart(6, '0')}`;
    return { status: 200, body: { ok: true, channel, ts, message: { type: 'message', user: this.app.botUserId, bot_id: this.app.botId, text, ts, ...(thread_ts && { thread_ts }) } } };
  }
}

export async function startFakeSlack(): Promise<FakeSlack> {
  return new FakeSlack().listen();
}
