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

export type JsonCall = <T = any>(method: string, path: string, body?: unknown) => Promise<T>; // eslint-disable-line @typescript-eslint/no-explicit-any -- each caller reads its fields

async function call(url: string, method: string, headers: Record<string, string>, body: unknown): Promise<{ res: Response; data: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { success: boolean; data: unknown };
  if (!json.success) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return { res, data: json.data };
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
  const { res, data } = await call(`${baseUrl}/dashboard/api/signup`, 'POST', { origin: baseUrl }, { email, password: 'correct horse battery' });
  const cookie = /aicw_session=([^;]+)/.exec(res.headers.getSetCookie().join('\n'))?.[1];
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
  for (let i = 0; i < count; i++) {
    const wait = start + (i * 1000) / perSecond - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    started.push(task(i));
  }
  await Promise.all(started);
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
