// Size budget for what a website downloads. Sizes are deterministic, so this is a hard gate.
import { readFileSync } from 'node:fs';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';

const KB = 1024;
const budgets = {
  'dist/ai-chat-widget.iife.js': 30 * KB, // the whole widget, lit included (issue budget)
};
let failed = false;
for (const [file, max] of Object.entries(budgets)) {
  const buf = readFileSync(file);
  const gz = gzipSync(buf, { level: 9 }).length;
  const br = brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  const ok = gz <= max;
  failed ||= !ok;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${file}: ${buf.length} B raw, ${gz} B gzip, ${br} B brotli (budget ${max} B gzip)`);
}
if (failed) process.exit(1);
