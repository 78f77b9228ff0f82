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
            external: [
              /^lit($|\/)/, /^@lit\//, /^node:/, /^hono($|\/)/, /^jose($|\/)/, /^@hono\/node-server($|\/)/,
              /^react($|\/)/,
            ],
          },
    },
  };
});
