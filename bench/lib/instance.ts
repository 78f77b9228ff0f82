/**
 * One instance of the reference service for the two-instance bench (`throughput.ts`): the service
 * alone (no demo pages, no seed), configured like `main.ts` from the environment (DATABASE_URL,
 * REDIS_URL, AI_CHAT_API_KEY), on a free loopback port that it prints as `listening <url>`.
 */
import { optionsFromEnv } from '../../server/src/config.ts';
import { startServer } from '../../server/src/index.ts';

const running = await startServer({
  ...optionsFromEnv(),
  seed: false,
  logLevel: 'error',
  port: 0,
  rateLimit: { points: 1e9, durationSeconds: 60 },
});
process.stdout.write(`listening ${running.url}\n`);
process.once('SIGTERM', () => {
  running.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
