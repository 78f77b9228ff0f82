// Starts `npm start`'s server (server/src/main.ts: the service, the demo pages under /, the built
// widget under /dist/ and the demo token proxy under /proxy) on a free loopback port with a fresh
// temporary database, for the screenshot gallery and the Lighthouse audit. Run `npm run build`
// first: the pages load dist/ai-chat-widget.iife.js.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));

/**
 * `extraEnv`: more environment variables for the server (e.g. `AI_CHAT_PROXY_ORIGINS`).
 * @returns {Promise<{ url: string, stop(): Promise<void> }>} `url` without a trailing slash.
 */
export async function startDemoServer({ timeoutMs = 60_000, extraEnv = {} } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ai-chat-demo-'));
  const env = { ...process.env, PORT: '0', HOST: '127.0.0.1', AI_CHAT_DATA_DIR: dataDir, AI_CHAT_LOG_LEVEL: 'error' };
  // a fresh embedded database, whatever the caller's shell points at
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'AI_CHAT_API_KEY', 'AI_CHAT_LLM_BASE_URL']) delete env[name];
  Object.assign(env, extraEnv);
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the demo server did not start in ${timeoutMs} ms:\n${output}`)), timeoutMs);
      // stdout also carries the generated development key: it is parsed here, never printed
      const onData = (chunk) => {
        output += chunk;
        const match = /Demo:\s+(http:\/\/\S+?)\/\s/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', (chunk) => (output += chunk));
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the demo server exited with ${code}:\n${output.replace(/API key:.*$/gm, 'API key: (hidden)')}`));
      });
    });
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
