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
  // the whole widget, lit included: the issue's 30 KB, and 128 B for the visitor context each turn sends (page, referrer, locale, time zone, identify()'s traits)
  'dist/ai-chat-widget.iife.js': 30 * KB + 128,
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

// The dashboard (issue budget): its initial load, what the browser fetches before the first page
// renders — the entry module, every chunk it imports statically, and their style sheets — followed
// through Vite's build manifest. Pages and the parts they load with `import()` come later, on
// demand: listed with their total, not budgeted. Each file gzipped on its own, as the service sends it.
const DASHBOARD = 'dist/dashboard';
const DASHBOARD_MAX = 120 * KB;
const manifest = JSON.parse(readFileSync(join(DASHBOARD, '.vite/manifest.json'), 'utf8'));
const initial = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || initial.has(chunk.file)) return;
  initial.add(chunk.file);
  for (const css of chunk.css ?? []) initial.add(css);
  for (const imported of chunk.imports ?? []) visit(imported);
};
for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
const assets = readdirSync(join(DASHBOARD, 'assets')).filter((name) => /\.(js|css)$/.test(name)).map((name) => `assets/${name}`);
const measure = (files) => {
  const total = { raw: 0, gz: 0, br: 0 };
  for (const file of files) {
    const size = sizes(readFileSync(join(DASHBOARD, file)));
    for (const key of Object.keys(total)) total[key] += size[key];
  }
  return total;
};
const first = measure(initial);
const dashboardOk = initial.size > 0 && first.gz <= DASHBOARD_MAX;
failed ||= !dashboardOk;
console.log(
  `${dashboardOk ? 'ok  ' : 'FAIL'} ${DASHBOARD} initial load (${initial.size} files: ${[...initial].join(', ')}): ${first.raw} B raw, ${first.gz} B gzip, ${first.br} B brotli (budget ${DASHBOARD_MAX} B gzip)`,
);
const lazy = assets.filter((file) => !initial.has(file));
for (const file of lazy) {
  const { raw, gz } = sizes(readFileSync(join(DASHBOARD, file)));
  console.log(`     ${DASHBOARD}/${file} (loaded on demand): ${raw} B raw, ${gz} B gzip`);
}
const later = measure(lazy);
console.log(`     ${DASHBOARD} loaded on demand (${lazy.length} files, not budgeted): ${later.raw} B raw, ${later.gz} B gzip, ${later.br} B brotli`);
if (failed) process.exit(1);
