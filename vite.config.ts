import { defineConfig, type UserConfig } from 'vite';
import { minifyTemplateLiterals } from 'rollup-plugin-minify-template-literals';

// `vite build`             -> dist/*.js                  ES modules for bundlers; lit, jose, hono stay external
// `vite build --mode iife` -> dist/ai-chat-widget.iife.js one self-contained <script> file, lit bundled
// `vite build --mode dashboard` -> dist/dashboard/         the dashboard UI the service serves at /dashboard/
export default defineConfig(({ mode }) => {
  if (mode === 'dashboard') return dashboard;
  const iife = mode === 'iife';
  return {
    plugins: [minifyStyles],
    build: {
      target: 'es2021',
      emptyOutDir: !iife,
      sourcemap: true,
      lib: iife
        ? {
            entry: 'src/ai-chat-widget.ts',
            name: 'AiChatWidget',
            formats: ['iife'],
            fileName: () => 'ai-chat-widget.iife.js',
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
 * The JS minifier leaves template literals alone, so the widget's stylesheets shipped with their
 * indentation and comments (~1.7 KB of the IIFE's gzip budget). Only `css` templates are minified:
 * collapsing whitespace inside `html` templates saves ~0.1 KB and could change rendered text.
 * A template with no rule in it (a list of declarations interpolated into rules, such as the dark
 * palette) is not a stylesheet the CSS minifier can parse, so it stays as written.
 */
const minifyStyles = minifyTemplateLiterals({
  include: 'src/**/*.ts',
  failOnError: true,
  options: {
    shouldMinify: () => false,
    shouldMinifyCSS: (template) => template.tag === 'css' && template.parts.some((part) => part.text.includes('{')),
  },
});

/**
 * The dashboard: its own page and bundle (never part of the widget's), everything bundled (lit,
 * uPlot, the widget for the bot preview), served with `script-src 'self'; style-src 'self'`:
 * Vite writes no inline script or style into the page. Budget: scripts/check-size.mjs.
 */
const dashboard: UserConfig = {
  root: 'src/dashboard',
  base: '/dashboard/',
  publicDir: false,
  build: {
    target: 'es2022',
    outDir: '../../dist/dashboard',
    emptyOutDir: true,
    // The preload helper would be inlined as a module; the pages are small, load them on demand.
    modulePreload: false,
    sourcemap: true,
  },
};
