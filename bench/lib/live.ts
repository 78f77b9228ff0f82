/**
 * Clients of a running service over real loopback HTTP for the live-delivery rows (`support.ts`,
 * `webhooks.ts`): JSON calls with the API key, a dashboard operator's session (cookie, CSRF token,
 * this origin), and Server-Sent Events streams read as they arrive, each on its own socket so
 * thousands can stay open at once.
 */
import { Agent, request, type ClientRequest } from 'node:http';
import { SseLineParser, type SseEvent } from '../../src/client/sse.ts';

/** No socket limit and no keep-alive pool: every stream holds its own connection. */
const streamAgent = new Agent({ keepAlive: false, maxSockets: Infinity });
/**
 * JSON calls reuse connections, but drop one idle for 2 s: the service closes idle ones after 5 s,
 * and a request written as it does so would fail with ECONNRESET (fetch's pool raced it here).
 */
const callAgent = new Agent({ keepAlive: true, maxSockets: 256, timeout: 2_000 });

export type JsonCall = <T = any>(method: string, path: string, body?: unknown) => Promise<T>; // eslint-disable-line @typescript-eslint/no-explicit-any -- each caller reads its fields

interface Answer {
  setCookies: string[];
  data: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- each caller reads its fields
}

function call(url: string, method: string, headers: Record<string, string>, body: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const sent = { ...headers, ...(payload !== undefined && { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }) };
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent: callAgent, headers: sent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const json = JSON.parse(text) as { success: boolean; data: unknown };
        if (json.success) resolve({ setCookies: res.headers['set-cookie'] ?? [], data: json.data });
        else reject(new Error(`${method} ${url}: ${res.statusCode} ${text.slice(0, 300)}`));
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** `/v1` calls with `apiKey`; answers `data`, throws on anything but success. */
export function apiClient(baseUrl: string, apiKey: string): JsonCall {
  return async (method, path, body) => (await call(`${baseUrl}${path}`, method, { authorization: `Bearer ${apiKey}` }, body)).data;
}

export interface OperatorSession {
  cookie: string;
  /** Dashboard calls on `baseUrl` (any instance: the session is in the shared database). */
  on(baseUrl: string): JsonCall;
}

/** Signs up on `baseUrl`: the install's first sign-up, it owns the API key's account. */
export async function signUpOperator(baseUrl: string, email: string): Promise<OperatorSession> {
  const { setCookies, data } = await call(`${baseUrl}/dashboard/api/signup`, 'POST', { origin: baseUrl }, { email, password: 'correct horse battery' });
  const cookie = /aicw_session=([^;]+)/.exec(setCookies.join('\n'))?.[1];
  if (!cookie) throw new Error('signing up set no session cookie');
  const csrf = (data as { csrf_token: string }).csrf_token;
  return {
    cookie,
    on: (base) => async (method, path, body) =>
      (await call(`${base}${path}`, method, { origin: base, cookie: `aicw_session=${cookie}`, 'x-csrf-token': csrf }, body)).data,
  };
}

export interface LiveStream {
  close(): void;
}

/**
 * Opens an SSE stream and calls `onEvent` with each event and the moment it was parsed
 * (`performance.now()`); resolves once its `ready` event came (the service subscribed it).
 */
export function openEventStream(url: string, headers: Record<string, string>, onEvent: (event: SseEvent, at: number) => void): Promise<LiveStream> {
  return new Promise((resolve, reject) => {
    let req: ClientRequest | undefined = undefined;
    const stream = { close: () => req?.destroy() };
    req = request(url, { agent: streamAgent, headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return reject(new Error(`GET ${url}: ${res.statusCode}`));
      }
      const parser = new SseLineParser();
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        const at = performance.now();
        for (const event of parser.push(text)) {
          if (event.event === 'ready') resolve(stream);
          else onEvent(event, at);
        }
      });
      res.on('error', () => {}); // closed by the bench
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Open loop: task `i` starts at `i / perSecond` seconds, whatever the earlier ones are doing (a
 * closed loop would slow its offered load down to the service's pace); resolves once all are done.
 */
export async function atRate(count: number, perSecond: number, task: (index: number) => Promise<unknown>): Promise<void> {
  const start = performance.now();
  const started: Promise<unknown>[] = [];
  let failure: { error: unknown } | undefined;
  for (let i = 0; i < count && !failure; i++) {
    const wait = start + (i * 1000) / perSecond - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    // Caught at once: a task failing while later ones wait for their time is no unhandled rejection.
    started.push(task(i).catch((error: unknown) => (failure ??= { error })));
  }
  await Promise.all(started);
  if (failure) throw failure.error;
}

/** Runs `task` over `items`, `concurrency` at a time. */
export async function inParallel<T>(items: readonly T[], concurrency: number, task: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await task(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}
