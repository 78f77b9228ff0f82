/**
 * Reading a request body and turning its bytes into a JSON value, shared by the proxy and the reference service so
 * both refuse the same bodies with the same codes:
 *
 * - bytes that are not UTF-8 are refused (`invalid_json`), never replaced with U+FFFD;
 * - nesting deeper than `MAX_JSON_DEPTH` is refused (`json_too_deep`) by a linear scan BEFORE
 *   `JSON.parse`, so nothing recursive that runs later (validation, cleaning, `JSON.stringify`,
 *   PostgreSQL's jsonb) ever meets a body deep enough to exhaust its stack.
 */

/** Deepest nesting of arrays and objects a body may have (real API bodies stay under 10). */
export const MAX_JSON_DEPTH = 64;

export type JsonBodyResult =
  | { ok: true; value: unknown }
  | { ok: false; code: 'invalid_json' | 'json_too_deep'; message: string };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text, or null when it is not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

export const NOT_UTF8 = 'The request body is not valid UTF-8.';

/**
 * Reads a body stream of unknown length, stopping (and cancelling it) as soon as it passes
 * `maxBytes`: answers the bytes, or null when the body is too large.
 */
export async function readLimited(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return all;
}

const OPEN_BRACE = 0x7b; // {
const OPEN_BRACKET = 0x5b; // [
const CLOSE_BRACE = 0x7d; // }
const CLOSE_BRACKET = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/** A run of string characters up to the next quote or backslash (a file upload's base64 is megabytes of them). */
const STRING_RUN = /[^"\\]+/y;

/** True when `text` opens more than `maxDepth` arrays/objects at once (brackets inside strings do not count). */
export function nestingExceeds(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    if (inString) {
      // Skipped by the regex engine, not a character at a time: a long string stays a short block.
      STRING_RUN.lastIndex = i;
      if (STRING_RUN.test(text)) i = STRING_RUN.lastIndex;
      const ch = text.charCodeAt(i);
      if (ch === BACKSLASH) i++;
      else if (ch === QUOTE) inString = false;
      continue;
    }
    const ch = text.charCodeAt(i);
    if (ch === QUOTE) {
      inString = true;
    } else if (ch === OPEN_BRACE || ch === OPEN_BRACKET) {
      if (++depth > maxDepth) return true;
    } else if (ch === CLOSE_BRACE || ch === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/** Parses JSON text after the depth check; the caller decides what an empty body means. */
export function parseJsonText(text: string, maxDepth = MAX_JSON_DEPTH): JsonBodyResult {
  if (nestingExceeds(text, maxDepth)) {
    return { ok: false, code: 'json_too_deep', message: `The request body nests deeper than ${maxDepth} levels.` };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, code: 'invalid_json', message: 'The request body is not valid JSON.' };
  }
}
