/**
 * What an uploaded file is, judged by its bytes alone (attachments). A file's name and
 * the type its uploader declared say nothing the service trusts: a "photo.png" that is an HTML page
 * is an HTML page. `sniff` names what the bytes are; only `ACCEPTED_TYPES` can be stored, and of
 * those a bot allows the ones its settings list. Markup (HTML, SVG, XML) is named so that it can be
 * refused: it is active content in a browser, whatever it is served as elsewhere.
 *
 * Written here rather than taken from a library: the common sniffers (`file-type`, `mmmagic`) name
 * hundreds of formats by their first bytes but do not look for markup in text, nor read an image's
 * dimensions, which is what refusing a decompression bomb needs; the few signatures below are fixed
 * by the formats' specifications. An image's dimensions are read by image-size.ts.
 */
import { ATTACHMENT_TYPES, IMAGE_ATTACHMENT_TYPES, type AttachmentType } from '../../../src/client/attachment-types.ts';

/** The types an attachment can have: raster images, PDF and plain UTF-8 text. */
export const ACCEPTED_TYPES = ATTACHMENT_TYPES;
export type AcceptedType = AttachmentType;

/** Raster images: the only types a browser shows inline (they run nothing). */
export const IMAGE_TYPES: ReadonlySet<string> = new Set(IMAGE_ATTACHMENT_TYPES);

/** What `sniff` can say besides the accepted types; each of these is refused, by name. */
export type RefusedType = 'text/html' | 'image/svg+xml' | 'application/xml' | 'application/zip' | 'application/gzip' | 'application/octet-stream';

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, i) => bytes[at + i] === byte);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

const SIGNATURES: ReadonlyArray<[AcceptedType | RefusedType, (bytes: Uint8Array) => boolean]> = [
  ['image/png', (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  ['image/jpeg', (b) => startsWith(b, [0xff, 0xd8, 0xff])],
  ['image/gif', (b) => startsWith(b, ascii('GIF87a')) || startsWith(b, ascii('GIF89a'))],
  ['image/webp', (b) => startsWith(b, ascii('RIFF')) && startsWith(b, ascii('WEBP'), 8)],
  ['application/pdf', (b) => startsWith(b, ascii('%PDF-'))],
  ['application/zip', (b) => startsWith(b, [0x50, 0x4b, 0x03, 0x04]) || startsWith(b, [0x50, 0x4b, 0x05, 0x06])],
  ['application/gzip', (b) => startsWith(b, [0x1f, 0x8b])],
];

/**
 * Markup a browser would run, looked for where browsers look for it: at the start of the text
 * (after white space, a BOM, and XML prologs or comments), as the WHATWG sniffing rules do.
 */
const MARKUP: ReadonlyArray<[RefusedType, RegExp]> = [
  ['image/svg+xml', /^(?:<\?xml[^>]*>\s*|<!--[\s\S]*?-->\s*|<!doctype\s+svg[^>]*>\s*)*<svg[\s>/]/i],
  ['text/html', /^(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html|head|body|script|iframe|h1|div|font|table|a|style|title|b|br|p|img|object|embed|meta|link|form|svg)[\s>/]/i],
  ['application/xml', /^<\?xml/i],
];

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The type of `bytes`: one of `ACCEPTED_TYPES`, or what it is instead (`application/octet-stream`
 * when it is nothing known: binary data, text in another encoding, text with control characters).
 */
export function sniff(bytes: Uint8Array): AcceptedType | RefusedType {
  for (const [type, matches] of SIGNATURES) if (matches(bytes)) return type;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return 'application/octet-stream';
  }
  // control characters other than tab, line breaks and form feed: not text a person wrote
  if (/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text)) return 'application/octet-stream';
  const start = text.replace(/^\uFEFF/, '').trimStart().slice(0, 4096);
  for (const [type, pattern] of MARKUP) if (pattern.test(start)) return type;
  return 'text/plain';
}
