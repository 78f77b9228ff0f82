import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { minifyTemplateLiterals } from 'rollup-plugin-minify-template-literals';

// `vite build`             -> dist/*.js                  ES modules for bundlers; lit, jose, hono stay external
// `vite build --mode iife` -> dist/ai-chat-widget.iife.js one self-contained <script> file, lit bundled
// `vite build --mode dashboard` -> dist/dashboard/         the dashboard UI the service serves at /dashboard/
// `vite build --mode addon`     -> dist/ai-chat-widget.<AI_CHAT_ADDON>.js, one add-on of the IIFE
//                                  (scripts/build-addons.mjs builds each of them)
// `vite build --mode iife-all`  -> dist/ai-chat-widget.all.iife.js, the IIFE with every add-on in it:
//                                  one file that loads nothing else (scripts/build-addons.mjs)
export default defineConfig(({ mode }) => {
  if (mode === 'dashboard') return dashboard;
  if (mode === 'addon') return addon(process.env.AI_CHAT_ADDON ?? '', process.env.AI_CHAT_ADDON_MODULE ?? '');
  const all = mode === 'iife-all';
  const iife = mode === 'iife' || all;
  return {
    // the all-in-one file keeps catalog.ts: its dynamic imports are bundled in (an IIFE cannot split)
    plugins: iife && !all ? [minifyStyles, iifeAddons] : [minifyStyles],
    build: {
      target: 'es2022',
      emptyOutDir: !iife,
      sourcemap: true,
      lib: iife
        ? {
            entry: 'src/ai-chat-widget.ts',
            name: 'AiChatWidget',
            formats: ['iife'],
            fileName: () => (all ? 'ai-chat-widget.all.iife.js' : 'ai-chat-widget.iife.js'),
          }
        : {
            entry: {
              'ai-chat-widget': 'src/ai-chat-widget.ts',
              element: 'src/element.ts',
              client: 'src/client/index.ts',
              proxy: 'src/proxy/index.ts',
              'proxy-node': 'src/proxy/node.ts',
              react: 'src/react/index.ts', // ai-chat-widget/react (react and @lit/react stay external)
            },
            formats: ['es'],
          },
      rollupOptions: iife
        ? {}
        : {
            // The React entry starts with 'use client' (Next.js App Router: without it, a Server
            // Component importing the wrapper runs @lit/react's hooks on the server and throws).
            // The bundler keeps an entry module's directive and warns that it might not; the built
            // file is checked by test/node/react-server.test.ts, so the warning is noise here.
            onLog(level, log, handler) {
              if (log.code === 'MODULE_LEVEL_DIRECTIVE' && log.id?.endsWith('src/react/index.ts')) return;
              handler(level, log);
            },
            external: [
              /^lit($|\/)/, /^@lit\//, /^node:/, /^hono($|\/)/, /^jose($|\/)/, /^@hono\/node-server($|\/)/,
              /^react($|\/)/,
            ],
          },
    },
  };
});

/**
 * The JS minifier leaves template literals alone, so the widget's stylesheets and templates shipped
 * with their indentation and comments (~1.9 KB of the IIFE's gzip budget). `html` templates keep one
 * space where they had white space (a space between inline content can matter). A template with no rule in it (a list of declarations interpolated into rules, such as the dark
 * palette) is not a stylesheet the CSS minifier can parse, so it stays as written.
 */
const minifyStyles = minifyTemplateLiterals({
  include: 'src/**/*.ts',
  failOnError: true,
  options: {
    shouldMinify: (template) => template.tag === 'html',
    minifyOptions: { conservativeCollapse: true },
    shouldMinifyCSS: (template) => template.tag === 'css' && template.parts.some((part) => part.text.includes('{')),
  },
});

const CATALOG_MODULE = fileURLToPath(new URL('src/widget/addons/catalog.ts', import.meta.url));

/**
 * The IIFE cannot split code, so its optional parts (src/widget/addons/catalog.ts) are files of their own
 * beside it, which `catalog-iife.ts` fetches by `<script>`: it takes the place of `catalog.ts` here.
 */
const iifeAddons: Plugin = {
  name: 'ai-chat-iife-addons',
  enforce: 'pre',
  async resolveId(source, importer, options) {
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    if (resolved?.id !== CATALOG_MODULE) return resolved;
    return fileURLToPath(new URL('src/widget/addons/catalog-iife.ts', import.meta.url));
  },
};

/**
 * One add-on of the IIFE: `dist/ai-chat-widget.<name>.js`, a classic script that puts `module` (what
 * `catalog.ts` imports for `name`) into `aiChatWidgetAddons[name]`, where `catalog-iife.ts` finds it.
 */
function addon(name: string, module: string): UserConfig {
  const entry = 'virtual:ai-chat-addon';
  const path = fileURLToPath(new URL(module.replace(/\.js$/, '.ts'), new URL('src/widget/addons/', import.meta.url)));
  return {
    plugins: [
      minifyStyles,
      {
        name: 'ai-chat-addon-entry',
        resolveId: (id) => (id.endsWith(entry) ? `\0${entry}` : null),
        load: (id) =>
          id === `\0${entry}`
            ? `import * as m from ${JSON.stringify(path)};\n(globalThis.aiChatWidgetAddons ??= {})[${JSON.stringify(name)}] = m;`
            : null,
      },
    ],
    build: {
      target: 'es2022',
      emptyOutDir: false,
      sourcemap: true,
      lib: { entry, name: 'aiChatWidgetAddon', formats: ['iife'], fileName: () => `ai-chat-widget.${name}.js` },
      // the widget's own copy of lit (catalog-iife.ts shares it): one lit on the page, and a small add-on
      rollupOptions: { external: ['lit'], output: { globals: { lit: 'aiChatWidgetAddons.lit' } } },
    },
  };
}

/**
 * The dashboard: its own page and bundle (never part of the widget's), everything bundled (lit,
 * uPlot, the widget for the bot preview), served with `script-src 'self'; style-src 'self'`:
 * Vite writes no inline script or style into the page. Budget: scripts/check-size.mjs.
 */
const dashboard: UserConfig = {
  root: 'src/dashboard',
  base: '/dashboard/',
  publicDir: false,
  // its pages' `css` templates too: white space and comments are most of what they send
  plugins: [minifyStyles],
  build: {
    target: 'es2022',
    outDir: '../../dist/dashboard',
    emptyOutDir: true,
    // The preload helper would be inlined as a module; the pages are small, load them on demand.
    modulePreload: false,
    sourcemap: true,
    // .vite/manifest.json (not served: only assets/ is): scripts/check-size.mjs follows the entry's
    // static imports in it to budget the initial load.
    manifest: true,
  },
};
