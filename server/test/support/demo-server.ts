/**
 * The service on a loopback port with the demo token proxy mounted at /proxy, as `npm start` runs
 * it (server/src/main.ts), over a fresh seeded test database; `close()` drops the database too.
 */
import { createDemoProxy, DEMO_PROXY_PATH } from '../../src/demo-proxy.ts';
import { startServer, type RunningServer } from '../../src/index.ts';
import { testDatabase } from './test-database.ts';

export { DEMO_PROXY_PATH };

export async function startDemoServer(): Promise<RunningServer> {
  const database = await testDatabase();
  const server = await startServer({
    ...database.options,
    seed: true,
    logLevel: 'silent',
    port: 0,
    mount: async (app, service) => {
      const proxy = await createDemoProxy(service);
      app.all(`${DEMO_PROXY_PATH}/*`, (c) => proxy.fetch(c.req.raw));
    },
  }).catch(async (error: unknown) => {
    await database.cleanup();
    throw error;
  });
  return {
    ...server,
    async close() {
      try {
        await server.close();
      } finally {
        await database.cleanup();
      }
    },
  };
}
