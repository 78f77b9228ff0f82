/**
 * fake-slack: a FAKE Slack Web API on a loopback port, shaped as documented
 * (https://api.slack.com/methods/chat.postMessage): `POST /api/chat.postMessage` with
 * `Authorization: Bearer xoxb-…` answers `{ok: true, channel, ts, message}`; refusals are HTTP 200
 * `{ok: false, error: "<code>"}`, a rate limit 429 `ratelimited` with `Retry-After`.
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

  private method(request: FakeRequest): FakeAnswer {
    if (request.path !== '/api/chat.postMessage') return { status: 404, body: { ok: false, error: 'unknown_method' } };
    if (request.headers.authorization !== `Bearer ${this.app.botToken}`) return FakeSlack.refusal('invalid_auth');
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
