// Builds the IIFE's add-ons, the list in src/widget/addons/catalog.ts: one classic script each,
// dist/ai-chat-widget.<name>.js, which the one-<script> build loads from beside itself when a page
// needs it (src/widget/addons/catalog-iife.ts). Then the all-in-one file, dist/ai-chat-widget.all.iife.js:
// the IIFE with every add-on bundled in, for a site that copies one file and loads nothing else.
import { readFileSync } from 'node:fs';
import { build } from 'vite';

const list = readFileSync('src/widget/addons/catalog.ts', 'utf8');
const addons = [...list.matchAll(/^\s+'?([a-z-]+)'?: \(\) => import\('([^']+)'\)/gm)];
if (!addons.length) throw new Error('no add-ons found in src/widget/addons/catalog.ts');
for (const [, name, module] of addons) {
  process.env.AI_CHAT_ADDON = name;
  process.env.AI_CHAT_ADDON_MODULE = module;
  await build({ mode: 'addon', logLevel: 'warn' });
}
console.log(`add-ons: ${addons.map(([, name]) => `ai-chat-widget.${name}.js`).join(', ')}`);
await build({ mode: 'iife-all', logLevel: 'warn' });
console.log('all-in-one: ai-chat-widget.all.iife.js');
