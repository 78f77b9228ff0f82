/**
 * How a stored attachment is named and served: whatever its bytes hold, a browser that
 * opens its URL runs nothing. Only raster images are shown inline; everything else downloads. Every
 * answer says `nosniff` (the browser keeps to the type given) and a sandboxing CSP (were the type
 * ever wrong, the document could run no script, load nothing, and has an opaque origin).
 */
import { IMAGE_TYPES } from './content-type.ts';

const MAX_NAME = 200;

/**
 * A file name fit to store and to show: its last path segment, without control characters or the
 * invisible direction marks that make "invoice\u202Efdp.exe" read "invoiceexe.pdf", at most 200
 * characters (its extension kept), never empty.
 */
export function safeFileName(name: string | null | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g, '')
    .replace(/^[\s.]+|\s+$/g, ''); // no hidden files, no "..", no trailing blanks
  if (!clean) return 'file';
  const chars = Array.from(clean); // characters, not UTF-16 units: an emoji is never cut in half
  if (chars.length <= MAX_NAME) return clean;
  const dot = chars.lastIndexOf('.');
  const extension = dot > 0 && chars.length - dot <= 16 ? chars.slice(dot) : [];
  return [...chars.slice(0, MAX_NAME - extension.length), ...extension].join('');
}

/** `Content-Disposition` with an ASCII fallback name and the exact one (RFC 6266, RFC 8187). */
function disposition(kind: 'inline' | 'attachment', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

/** The headers of a file answer: its detected type, inline only for images, and the guards above. */
export function fileHeaders(file: { content_type: string; filename: string; size: number }): Record<string, string> {
  const image = IMAGE_TYPES.has(file.content_type);
  return {
    'Content-Type': file.content_type === 'text/plain' ? 'text/plain; charset=utf-8' : file.content_type,
    'Content-Length': String(file.size),
    'Content-Disposition': disposition(image ? 'inline' : 'attachment', file.filename),
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Referrer-Policy': 'no-referrer',
    // a file never changes under its id; only the people it belongs to may keep a copy
    'Cache-Control': 'private, max-age=86400, immutable',
  };
}
