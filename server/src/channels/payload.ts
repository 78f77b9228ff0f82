/** Reading a platform's webhook body: bounded JSON, and small accessors for its untyped fields. */
import { decodeUtf8, parseJsonText } from '../../../src/proxy/json-body.ts';
import { ServiceError } from '../http/errors.ts';

export type Obj = Record<string, unknown>;

/** The body as JSON (UTF-8, nesting bounded); 400 `invalid_json` otherwise. */
export function parseBody(rawBody: Uint8Array): unknown {
  const text = decodeUtf8(rawBody);
  const parsed = text === null ? null : parseJsonText(text);
  if (!parsed?.ok) throw new ServiceError('invalid_json', 'The delivery is not JSON the platform sends.');
  return parsed.value;
}

export const obj = (value: unknown): Obj | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : undefined);
export const arr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : undefined);

/** `text` cut to at most `max` UTF-8 bytes, on a character boundary. */
export function cutBytes(text: string, max: number): string {
  let out = '';
  let bytes = 0;
  for (const char of text) {
    bytes += Buffer.byteLength(char);
    if (bytes > max) break;
    out += char;
  }
  return out;
}

/** `text` cut to at most `max` characters (code points), with an ellipsis when cut. */
export function cutChars(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
