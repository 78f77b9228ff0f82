/**
 * fake-whatsapp: a FAKE WhatsApp Cloud API (Graph API) on a loopback port, shaped as documented:
 * `POST /v19.0/{phone-number-id}/messages` with `Authorization: Bearer <token>` answers
 * `{messaging_product: "whatsapp", contacts: [{input, wa_id}], messages: [{id}]}`, errors as
 * `{error: {message, type, code, fbtrace_id}}`. Media
 * (https://developers.facebook.com/docs/whatsapp/cloud-api/reference/media): `GET /v19.0/{media-id}`
 * answers `{messaging_product, url, mime_type, sha256, file_size, id}`, the URL serves the bytes to
 * the same bearer token; `POST /v19.0/{phone-number-id}/media` takes a multipart upload and answers `{id}`.
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
  /** Media by id: what a test put in (`addMedia`) and what the service uploaded. */
  readonly media = new Map<string, { bytes: Uint8Array; mimeType: string; size?: number }>();

  constructor(readonly account = FAKE_WHATSAPP) {
    super((request) => this.route(request));
  }

  /** Media a person sent (`size`: what the Graph API says, when not the bytes' length). */
  addMedia(id: string, bytes: Uint8Array, mimeType: string, size?: number): void {
    this.media.set(id, { bytes, mimeType, size });
  }

  private route(request: FakeRequest): FakeAnswer {
    if (request.headers.authorization !== `Bearer ${this.account.accessToken}`) return { status: 401, body: { error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 } } };
    const download = /^\/media-download\/([^/]+)$/.exec(request.path);
    if (download) {
      const media = this.media.get(download[1]!);
      return media ? { status: 200, body: null, raw: media.bytes, headers: { 'content-type': media.mimeType } } : { status: 404, body: null };
    }
    if (request.path === `/v19.0/${this.account.phoneNumberId}/media` && request.method === 'POST') {
      const file = request.body?.file;
      if (request.body?.messaging_product !== 'whatsapp' || !file?.bytes) return { status: 400, body: { error: { message: '(#100) The parameter file is required.', type: 'OAuthException', code: 100 } } };
      const id = `uploaded-${this.media.size + 1}`;
      this.media.set(id, { bytes: file.bytes, mimeType: request.body.type });
      return { status: 200, body: { id } };
    }
    const lookup = /^\/v19\.0\/([^/]+)$/.exec(request.path);
    if (lookup && request.method === 'GET') {
      const media = this.media.get(lookup[1]!);
      if (!media) return { status: 400, body: { error: { message: 'Unsupported get request.', type: 'GraphMethodException', code: 100 } } };
      const id = lookup[1]!;
      return { status: 200, body: { messaging_product: 'whatsapp', url: `${this.url}/media-download/${id}`, mime_type: media.mimeType, sha256: 'fake', file_size: media.size ?? media.bytes.byteLength, id } };
    }
    return this.messages(request);
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
    const { to } = request.body;
    return { status: 200, body: { messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: to }], messages: [{ id: `wamid.FAKE${++this.messageId}` }] } };
  }
}

export async function startFakeWhatsApp(): Promise<FakeWhatsApp> {
  return new FakeWhatsApp().listen();
}
