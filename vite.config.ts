import { defineConfig } from 'vite';

// `vite build`             -> dist/*.js                  ES modules for bundlers; lit, jose, hono stay external
// `vite build --mode iife` -> dist/ai-chat-widget.iife.js one self-contained <script> file, lit bundled
export default defineConfig(({ mode }) => {
  const iife = mode === 'iife';
  return {
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
