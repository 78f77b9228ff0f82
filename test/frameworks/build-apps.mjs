// Builds the framework test apps (react-app/, vue-app/) with Vite's programmatic `build()` into
// test/frameworks/dist/<app>/ (gitignored), as a host project would build them: production mode,
// everything bundled, the widget imported from source. The browser tests load the built pages.
// Run by the test runner on demand (test/support/framework-apps.mjs); `node
// test/frameworks/build-apps.mjs` builds them by hand.
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

export const apps = ['react-app', 'vue-app'];
const here = fileURLToPath(new URL('.', import.meta.url));

/** Builds one app; resolves when its files are written. */
export async function buildApp(app) {
  await build({
    configFile: false,
    root: `${here}${app}`,
    base: './',
    logLevel: 'warn',
    mode: 'production',
    // React's automatic JSX runtime; Vue's bundler build reads these feature flags
    oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
    define: {
      __VUE_OPTIONS_API__: 'false',
      __VUE_PROD_DEVTOOLS__: 'false',
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    },
    build: {
      outDir: `${here}dist/${app}`,
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: true,
      rollupOptions: {
        // the React wrapper's 'use client' (for Next.js) means nothing to a client-only app
        onLog(level, log, handler) {
          if (log.code === 'MODULE_LEVEL_DIRECTIVE' && log.id?.endsWith('src/react/index.ts')) return;
          handler(level, log);
        },
      },
    },
  });
}

/** Builds every app, one after the other (2 cores). */
export async function buildApps() {
  for (const app of apps) await buildApp(app);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildApps();
  console.log(`built ${apps.join(', ')} into test/frameworks/dist/`);
}
