/// <reference types="node" />
// Server rendering against the BUILT package (`npm test` builds before the Node tests): every ES
// entry in package.json `exports` imports in Node without touching `window` or `document`, and a
// Next.js-style `renderToString` of a page that contains `<ai-chat-widget>` works.
//
// The guard: `window` and `document` become getters on globalThis before anything is imported. A
// read from our own built files throws (and is recorded); Lit's Node build legitimately reads
// `globalThis.document` once to see that it is undefined, so reads from dependencies return
// undefined, which is what they would see in plain Node.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const distDir = `${root}dist/`;

const ourTouches: string[] = [];
for (const name of ['window', 'document'] as const) {
  Object.defineProperty(globalThis, name, {
    configurable: true,
    get() {
      // stack[0] is "Error", [1] this getter, [2] whoever read the global
      const caller = new Error().stack?.split('\n')[2] ?? '';
      if (caller.includes(distDir)) {
        ourTouches.push(`${name} read at ${caller.trim()}`);
        throw new Error(`dist touched globalThis.${name} while importing: ${caller.trim()}`);
      }
      return undefined;
    },
  });
}

type ExportTarget = string | { types?: string; import?: string; default?: string };

/** `[subpath, file]` for every JavaScript module in `exports` (the IIFE excepted, see below). */
function esEntries(): Array<[string, string]> {
  const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { exports: Record<string, ExportTarget> };
  const entries: Array<[string, string]> = [];
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const file = typeof target === 'string' ? target : (target.import ?? target.default);
    // The IIFE is the classic `<script>` build: browser Lit bundled in, meant for pages only.
    if (!file || !file.endsWith('.js') || file.endsWith('.iife.js')) continue;
    entries.push([subpath, file]);
  }
  return entries;
}

describe('built entries in Node (server rendering)', () => {
  it('every ES entry of `exports` imports without touching window or document', async () => {
    const entries = esEntries();
    assert.ok(entries.length >= 5, `expected at least 5 ES entries, found ${entries.length}`);
    for (const [subpath, file] of entries) {
      const mod = (await import(pathToFileURL(`${root}${file}`).href)) as Record<string, unknown>;
      assert.ok(Object.keys(mod).length > 0, `${subpath} (${file}) exports nothing`);
    }
    assert.deepEqual(ourTouches, []);
  });

  it('registers the element in Node without a DOM, and only once', async () => {
    const entry = (await import(pathToFileURL(`${root}dist/ai-chat-widget.js`).href)) as { AiChatWidget: unknown };
    const registry = (globalThis as { customElements?: { get(name: string): unknown } }).customElements;
    // Lit's Node build installs a DOM shim registry; the guarded define must use it, not throw.
    if (registry) assert.equal(registry.get('ai-chat-widget'), entry.AiChatWidget);
    await import(`${pathToFileURL(`${root}dist/ai-chat-widget.js`).href}?again`);
    assert.deepEqual(ourTouches, []);
  });

  it('renders a page holding <ai-chat-widget> with react-dom/server (Next.js style)', async () => {
    await import(pathToFileURL(`${root}dist/ai-chat-widget.js`).href);
    const { createElement } = await import('react');
    const { renderToString } = await import('react-dom/server');
    function SupportPage() {
      return createElement(
        'main',
        null,
        createElement('h1', null, 'Help'),
        createElement('ai-chat-widget', {
          'token-url': '/proxy/token',
          title: 'Support',
          'welcome-message': 'Hi & welcome',
          theme: 'dark',
          stream: '',
        }),
      );
    }
    const html = renderToString(createElement(SupportPage));
    assert.match(html, /^<main><h1>Help<\/h1><ai-chat-widget [^>]*><\/ai-chat-widget><\/main>$/);
    assert.match(html, / token-url="\/proxy\/token"/);
    assert.match(html, / title="Support"/);
    assert.match(html, / welcome-message="Hi &amp; welcome"/);
    assert.match(html, / theme="dark"/);
    assert.deepEqual(ourTouches, []);
  });

  it('renders the React wrapper on the server when the package ships one', async (t) => {
    const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { exports: Record<string, ExportTarget> };
    const target = pkg.exports['./react'];
    const file = typeof target === 'string' ? target : target?.import;
    if (!file) return t.skip('no ./react export yet');
    const wrapper = (await import(pathToFileURL(`${root}${file}`).href)) as Record<string, unknown>;
    // a React component made by forwardRef (what @lit/react returns) is an object with $$typeof
    const component = Object.values(wrapper).find((v) => typeof v === 'object' && v !== null && '$$typeof' in v);
    assert.ok(component, `${file} exports no React component`);
    const { createElement } = await import('react');
    const { renderToString } = await import('react-dom/server');
    const props: Record<string, unknown> = { title: 'Support', tokenUrl: '/proxy/token' };
    const html = renderToString(createElement(component as unknown as string, props));
    // @lit/react sets props as properties after hydration, so the server HTML is the bare tag
    assert.match(html, /^<ai-chat-widget[^>]*><\/ai-chat-widget>$/);
    assert.deepEqual(ourTouches, []);
  });
});
