/**
 * The real server (`src/main.ts`) as a child process on a loopback port chosen by the OS, for tests
 * that must kill it (`kill -9`) and start it again on the same data (a PGlite directory, or a
 * PostgreSQL database: `TestDatabase.env`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SERVER_DIR = fileURLToPath(new URL('../../', import.meta.url));

export interface ChildServer {
  url: string;
  child: ChildProcess;
  /** Output so far (stdout + stderr), for failure messages. */
  output(): string;
  /** Resolves with the exit code or signal. */
  exited: Promise<string>;
  kill(signal: NodeJS.Signals): Promise<string>;
}

export interface ChildServerOptions {
  /** Where the data lives: `AI_CHAT_DATA_DIR`, or `DATABASE_URL` (and `REDIS_URL`), e.g. `TestDatabase.env`. */
  storage: Record<string, string>;
  apiKey: string;
  env?: Record<string, string>;
  startTimeoutMs?: number;
}

export async function startChildServer(options: ChildServerOptions): Promise<ChildServer> {
  // The caller's own DATABASE_URL / REDIS_URL must never reach a test server: only `storage` decides.
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      ...inherited,
      ...options.storage,
      AI_CHAT_API_KEY: options.apiKey,
      PORT: '0',
      HOST: '127.0.0.1',
      AI_CHAT_RATE_LIMIT: '10000000',
      AI_CHAT_LOG_LEVEL: 'error',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? String(code))));

  const url = await new Promise<string>((resolve, reject) => {
    // A child on memory:// runs PGlite's initdb from cold (seconds of CPU) while `npm test` runs
    // another test file on the other core: give it room on a loaded 2-core machine.
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), options.startTimeoutMs ?? 120_000);
    const look = () => {
      // main.ts prints "API:      http://127.0.0.1:<port>/v1  (…)" with the port the OS gave it
      const match = /API:\s+(http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', look);
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${how}) before listening:\n${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    exited,
    async kill(signal) {
      child.kill(signal);
      return exited;
    },
  };
}
