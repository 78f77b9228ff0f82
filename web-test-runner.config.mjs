// Browser tests: real Debian chromium, and the real reference service mounted in the dev server,
// so the widget and the client talk to real code on the same origin (no fetch mocks).
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { testServicePlugin } from './test/support/service-plugin.mjs';
import { frameworkApps } from './test/support/framework-apps.mjs';

const executablePath = process.env.CHROME_PATH || '/usr/bin/chromium';
const testService = testServicePlugin();

export default {
  files: ['test/**/*.test.ts', '!test/node/**', '!test/security/service/**'],
  nodeResolve: true,
  // serves /v1, /proxy and /__test__ (see service-plugin.mjs); builds test/frameworks/dist on demand
  middleware: [testService.middleware, frameworkApps()],
  plugins: [esbuildPlugin({ ts: true, target: 'auto', tsconfig: 'tsconfig.json' }), testService],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath,
        headless: true,
        args: [
          '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
          '--disable-background-networking', '--disable-component-update', '--disable-sync',
        ],
      },
    }),
  ],
  // hide Lit's one-line dev-mode banner; every other browser log is still shown
  filterBrowserLogs: ({ args }) => !String(args[0]).includes('Lit is in dev mode'),
  concurrency: 1, // 2 cores; several pages in one browser also race for focus
  concurrentBrowsers: 1,
  browserStartTimeout: 60000,
  testsStartTimeout: 60000,
  testsFinishTimeout: 180000,
  testFramework: { config: { timeout: 15000 } },
};
