/** Reading what a browser sent: a bounded JSON body, the bearer token, the client IP. */
import { ProxyError } from './errors.js';
import { decodeUtf8, NOT_UTF8, parseJsonText, readLimited } from './json-body.js';
import type { ResolvedOptions } from './options.js';

/** Largest JSON body forwarded (the widget's messages are far smaller). */
export const MAX_BODY_BYTES = 32 * 1024;

/**
 * Reads the body as a JSON object, at most `maxBytes`, refusing other media types. An empty body
 * answers `{}` when `optional` (the token endpoint), else `invalid_json`.
 */
export async function readJsonObject(
  request: Request,
  options: { maxBytes: number; optional?: boolean },
): Promise<Record<string, unknown>> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > options.maxBytes) throw tooLarge(options.maxBytes);
  const text = await readText(request, options.maxBytes, Number.isInteger(declared) && declared >= 0);
  if (!text.trim()) {
    if (options.optional) return {};
    throw new ProxyError('invalid_json', 'The request body must be a JSON object.');
  }
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !(options.optional && type === '')) {
    throw new ProxyError('unsupported_media_type', 'Send the body as "Content-Type: application/json".', {
      param: 'Content-Type',
    });
  }
  const parsed = parseJsonText(text);
  if (!parsed.ok) throw new ProxyError(parsed.code, parsed.message);
  const value = parsed.value;
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new ProxyError('invalid_json', 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

/**
 * Reads an uploaded file's bytes, at most `maxBytes` (a declared length over it is refused before
 * reading). What the bytes are is the service's to judge, not the proxy's.
 */
export async function readFile(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const bytes = request.body ? await readLimited(request.body, maxBytes) : new Uint8Array(0);
  if (!bytes) throw tooLarge(maxBytes);
  return bytes;
}

function tooLarge(maxBytes: number): ProxyError {
  return new ProxyError('payload_too_large', `The request body is larger than ${maxBytes} bytes.`);
}

/**
 * Reads the body as text, stopping (and refusing) as soon as it passes `maxBytes`. A body with a
 * declared length (already checked against `maxBytes`; HTTP framing ends the body there) is read
 * in one go, which adapters serve without a stream (the Node one reads the socket directly); only
 * a chunked body of unknown length is read chunk by chunk with the running count.
 */
async function readText(request: Request, maxBytes: number, lengthDeclared: boolean): Promise<string> {
  if (lengthDeclared) return strictText(new Uint8Array(await request.arrayBuffer()));
  if (!request.body) return '';
  const bytes = await readLimited(request.body, maxBytes);
  if (!bytes) throw tooLarge(maxBytes);
  return strictText(bytes);
}

function strictText(bytes: Uint8Array): string {
  const text = decodeUtf8(bytes);
  if (text === null) throw new ProxyError('invalid_json', NOT_UTF8);
  return text;
}

/** The token of `Authorization: Bearer <token>`, or a 401. */
export function bearerToken(request: Request): string {
  const header = request.headers.get('authorization');
  const challenge = { 'WWW-Authenticate': 'Bearer realm="ai-chat-widget-proxy"' };
  if (!header) {
    throw new ProxyError('authentication_required', 'Send a widget token as "Authorization: Bearer <token>".', {
      headers: challenge,
    });
  }
  const match = /^Bearer +([A-Za-z0-9._~+/=-]{1,4096}) *$/i.exec(header);
  if (!match) {
    throw new ProxyError('invalid_token', 'The Authorization header must be "Bearer <token>".', { headers: challenge });
  }
  return match[1]!;
}

/**
 * The client IP, from the host's `getClientIp`, the socket (Node adapter), or — only when told to
 * trust them — the headers a CDN or load balancer sets. Null when unknown: no per-IP limit then.
 */
export function clientIp(request: Request, options: ResolvedOptions, socketIp: string | null): string | null {
  const own = options.getClientIp?.(request);
  if (own) return own;
  if (options.trustProxyHeaders) {
    const cf = request.headers.get('cf-connecting-ip')?.trim();
    if (cf) return cf;
    // the left-most entry is the client as the first proxy saw it
    const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  return socketIp;
}
