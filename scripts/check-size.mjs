// Size budget for what a website downloads. Sizes are deterministic, so this is a hard gate.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';

const KB = 1024;
const sizes = (buf) => ({
  raw: buf.length,
  gz: gzipSync(buf, { level: 9 }).length,
  br: brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
});

const budgets = {
  'dist/ai-chat-widget.iife.js': 30 * KB, // the whole widget, lit included (issue budget)
  'dist/ai-chat-widget.all.iife.js': 60 * KB, // the same with every add-on in it (one file, nothing else to load)
};
let failed = false;
for (const [file, max] of Object.entries(budgets)) {
  const { raw, gz, br } = sizes(readFileSync(file));
  const ok = gz <= max;
  failed ||= !ok;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${file}: ${raw} B raw, ${gz} B gzip, ${br} B brotli (budget ${max} B gzip)`);
}

// The IIFE's add-ons (src/widget/addons/catalog.ts): loaded beside it only by pages that need them; listed, not budgeted.
for (const name of readdirSync('dist').filter((f) => /^ai-chat-widget\.[a-z-]+\.js$/.test(f) && !f.endsWith('.iife.js'))) {
  const { raw, gz } = sizes(readFileSync(join('dist', name)));
  console.log(`     dist/${name} (add-on): ${raw} B raw, ${gz} B gzip`);
}

// The dashboard (issue budget): every script and style sheet it can load, pages and the chart
// library included, each file gzipped on its own as the service would send it.
const DASHBOARD = 'dist/dashboard/assets';
const DASHBOARD_MAX = 120 * KB;
const files = readdirSync(DASHBOARD).filter((name) => /\.(js|css)$/.test(name));
const total = { raw: 0, gz: 0, br: 0 };
for (const name of files) {
  const size = sizes(readFileSync(join(DASHBOARD, name)));
  for (const key of Object.keys(total)) total[key] += size[key];
}
const dashboardOk = files.length > 0 && total.gz <= DASHBOARD_MAX;
failed ||= !dashboardOk;
console.log(
  `${dashboardOk ? 'ok  ' : 'FAIL'} ${DASHBOARD}/*.{js,css} (${files.length} files): ${total.raw} B raw, ${total.gz} B gzip, ${total.br} B brotli (budget ${DASHBOARD_MAX} B gzip)`,
);
if (failed) process.exit(1);
