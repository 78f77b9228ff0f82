/**
 * fake-whatsapp: a FAKE WhatsApp Cloud API (Graph API) on a loopback port, shaped as documented:
 * `POST /v19.0/{phone-number-id}/messages` with `Authorization: Bearer <token>` answers
 * `{messaging_product: "whatsapp", contacts: [{input, wa_id}], messages: [{id}]}`, errors as
 * `{error: {message, type, code, fbtrace_id}}`.
 */
import { FakePlatform, type FakeAnswer, type FakeRequest } from './fake-platform.ts';

export const FAKE_WHATSAPP = {
  phoneNumberId: '106540352242922',
  accessToken: 'EAAFakeWhatsAppAccessTokenForTests',
  appSecret: '0123456789abcdef0123456789abcdef',
  verifyToken: 'verify-me-please',
};

export class FakeWhatsApp extends FakePlatform {
  private messageId = 0;

  constructor(readonly account = FAKE_WHATSAPP) {
    super((request) => this.messages(request));
  }

  /** A Graph API throughput error (code 130429) with `Retry-After`. */
  static tooManyRequests(retryAfter: number): FakeAnswer {
    return { status: 429, headers: { 'retry-after': String(retryAfter) }, body: { error: { message: 'Rate limit hit', type: 'OAuthException', code: 130429, fbtrace_id: 'AbCdEf' } } };
  }

  sent(): FakeRequest[] {
    return this.calls('/messages');
  }

  private messages(request: FakeRequest): FakeAnswer {
    if (request.path !== `/v19.0/${this.account.phoneNumberId}/messages`) return { status: 404, body: { error: { message: 'Unknown path', type: 'GraphMethodException', code: 100 } } };
    if (request.headers.authorization !== `Bearer ${this.account.accessToken}`) return { status: 401, body: { error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 } } };
    const { to } = request.body;
    return { status: 200, body: { messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: to }], messages: [{ id: `wamid.FAKE${++this.messageId}` }] } };
  }
}

export async function startFakeWhatsApp(): Promise<FakeWhatsApp> {
  return new FakeWhatsApp().listen();
}
