/**
 * How many bytes a PDF's compressed streams inflate to, counted before pdf.js reads it. A stream of
 * a few hundred KB of deflated zeros inflates to gigabytes (a decompression bomb), and pdf.js
 * inflates a stream whole into buffers that no heap limit counts. Streams are found by their
 * `stream` … `endstream` keywords (a stream never sits inside an object stream); images are left
 * out, since reading text never decodes them.
 */
import { constants, inflateSync } from 'node:zlib';
import { ImportIssueError } from './issue.ts';

const STREAM = /stream\r?\n/g;

/** Throws `document_too_large` when the Flate streams of `pdf` inflate to more than `budget` bytes together. */
export function assertInflatesWithin(pdf: Uint8Array, budget: number, name: string): void {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const text = bytes.toString('latin1');
  let total = 0;
  for (const match of text.matchAll(STREAM)) {
    const start = match.index + match[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) break;
    const dictionary = text.slice(Math.max(0, text.lastIndexOf(' obj', match.index)), match.index);
    if (!/\/(FlateDecode|Fl)\b/.test(dictionary) || /\/Subtype\s*\/Image\b/.test(dictionary)) continue;
    try {
      // One byte over what is left is enough to know the budget is spent, without inflating the rest.
      total += inflateSync(bytes.subarray(start, end), { maxOutputLength: budget - total + 1, finishFlush: constants.Z_SYNC_FLUSH }).length;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE') continue; // damaged: pdf.js decides
      total = budget + 1;
    }
    if (total > budget) {
      throw new ImportIssueError('document_too_large', `${name} inflates to more than ${budget} bytes; a document is read only within that.`);
    }
  }
}
