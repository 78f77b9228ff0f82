/**
 * Where the bytes of a minified bundle come from: every generated character is attributed to the
 * source of the mapping segment it falls in (a segment runs to the next segment on its line).
 * Sources are grouped by npm package (`lit-html`, `@lit/reactive-element`) or by our own file.
 */

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((ch, i) => [ch, i]));

/** Decodes one segment's base64 VLQ fields. */
function decodeSegment(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const ch of segment) {
    const digit = DIGIT.get(ch);
    if (digit === undefined) throw new Error(`invalid VLQ character ${ch}`);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    values.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return values;
}

export interface RawSourceMap {
  sources: string[];
  mappings: string;
}

/** Bytes (UTF-8) of `code` per source index; `-1` collects unmapped bytes. */
export function bytesPerSource(code: string, map: RawSourceMap): Map<number, number> {
  const totals = new Map<number, number>();
  const add = (source: number, text: string) =>
    totals.set(source, (totals.get(source) ?? 0) + Buffer.byteLength(text));
  const lines = code.split('\n');
  const mappingLines = map.mappings.split(';');
  let source = 0;
  let carried = -1;
  for (let lineIndex = 0; lineIndex < lines.length; lineIndex++) {
    const line = lines[lineIndex]!;
    const newline = lineIndex < lines.length - 1 ? '\n' : '';
    let column = 0;
    let cursor = 0;
    // A line without any segment continues a multi-line token (CSS and HTML template literals):
    // those bytes belong to the source of the line before. Otherwise, before the first segment of a
    // line nothing is mapped.
    let current = mappingLines[lineIndex] ? -1 : carried;
    for (const segment of (mappingLines[lineIndex] ?? '').split(',')) {
      if (!segment) continue;
      const fields = decodeSegment(segment);
      column += fields[0]!;
      add(current, line.slice(cursor, column));
      cursor = column;
      if (fields.length >= 4) {
        source += fields[1]!;
        current = source;
      } else {
        current = -1;
      }
      // fields 2 and 3 (original line/column) are relative too, but attribution needs only the source
    }
    add(current, line.slice(cursor) + newline);
    carried = current;
  }
  return totals;
}

/** `node_modules/@lit/reactive-element/…` → `@lit/reactive-element`; `../src/widget/x.ts` → `src/widget/x.ts`. */
export function groupOf(source: string): string {
  const parts = source.split('/');
  const nm = parts.lastIndexOf('node_modules');
  if (nm >= 0) {
    const name = parts[nm + 1] ?? '?';
    return name.startsWith('@') ? `${name}/${parts[nm + 2] ?? ''}` : name;
  }
  const src = parts.indexOf('src');
  return src >= 0 ? parts.slice(src).join('/') : source.replace(/^(\.\.\/)+/, '');
}

export interface Breakdown {
  group: string;
  bytes: number;
}

/** Bytes per group, largest first; unmapped bytes (wrapper, glue) appear as `(unmapped)`. */
export function breakdown(code: string, map: RawSourceMap): Breakdown[] {
  const groups = new Map<string, number>();
  for (const [index, bytes] of bytesPerSource(code, map)) {
    const group = index < 0 ? '(unmapped)' : groupOf(map.sources[index] ?? '?');
    groups.set(group, (groups.get(group) ?? 0) + bytes);
  }
  return [...groups].map(([group, bytes]) => ({ group, bytes })).sort((a, b) => b.bytes - a.bytes);
}
