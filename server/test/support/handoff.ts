/**
 * Handoff test helpers: an account with a signed-in operator and a bot that hands off, and a reader
 * of a live SSE stream (the client's own parser) that waits for the next event.
 */
import assert from 'node:assert/strict';
import type { Service } from '../../src/index.ts';
import { SseLineParser, type SseEvent } from '../../../src/client/sse.ts';
import { clientFor, shopTraining, type TestClient } from './core.ts';
import { DashboardClient, uniqueEmail } from './dashboard.ts';

export interface LiveStream {
  /** The next event (skipping `ready` unless asked for), or throws after `timeoutMs`. */
  next(timeoutMs?: number): Promise<SseEvent>;
  /** Every event received so far, `ready` included. */
  received: SseEvent[];
  /** Hangs up; resolves once the reader is cancelled (the service then sees the client gone). */
  close(): Promise<void>;
}

/** Opens `url` on `fetchFn` and reads its events as they come. */
export async function openStream(fetchFn: (request: Request) => Promise<Response>, url: string, headers: Record<string, string> = {}): Promise<LiveStream> {
  const controller = new AbortController();
  const res = await fetchFn(new Request(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal }));
  assert.equal(res.status, 200, await (res.status === 200 ? Promise.resolve('') : res.text()));
  assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
  const received: SseEvent[] = [];
  const waiting: ((event: SseEvent | null) => void)[] = [];
  const queue: SseEvent[] = [];
  let ended = false;
  // Read by hand, not with parseSse: cancelling this reader is how the test hangs up (in process
  // there is no socket to close), and the service sees it as the client going away.
  const reader = res.body!.getReader();
  const parser = new SseLineParser();
  const decoder = new TextDecoder();
  // `ready` comes once the stream is set up (an inbox's operator marked present, live events
  // subscribed); the headers come before that, so returning at them raced the setup
  let isReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (isReady = resolve));
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const event of parser.push(decoder.decode(value, { stream: true }))) {
          received.push(event);
          if (event.event === 'ready') {
            isReady();
            continue;
          }
          const waiter = waiting.shift();
          if (waiter) waiter(event);
          else queue.push(event);
        }
      }
    } catch {
      // closed by the test
    }
    ended = true;
    isReady(); // a stream that ended first: `next()` says so
    for (const waiter of waiting.splice(0)) waiter(null);
  })();
  await ready;
  return {
    received,
    next(timeoutMs = 5000) {
      const queued = queue.shift();
      if (queued) return Promise.resolve(queued);
      if (ended) return Promise.reject(new Error('stream ended'));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no event within ${timeoutMs} ms`)), timeoutMs);
        waiting.push((event) => {
          clearTimeout(timer);
          if (event) resolve(event);
          else reject(new Error('stream ended'));
        });
      });
    },
    close: async () => {
      controller.abort();
      await reader.cancel().catch(() => {});
    },
  };
}

export interface HandoffSetup {
  api: TestClient;
  operator: DashboardClient;
  botId: string;
}

/**
 * The install's account (the first sign-up owns it): its key, a signed-in operator, and a bot with
 * handoff on (`settings` override the defaults).
 */
export async function handoffSetup(service: Service, settings: Record<string, unknown> = {}): Promise<HandoffSetup> {
  const operator = new DashboardClient(service);
  const signUp = await operator.signUp(uniqueEmail('operator'));
  assert.equal(signUp.status, 201, JSON.stringify(signUp.body));
  const api = clientFor(service, service.devApiKey!);
  const bot = await api.json('/v1/bots', { method: 'POST', body: { name: 'Shop', training: shopTraining } });
  assert.equal(bot.res.status, 201, JSON.stringify(bot.body));
  const botId = bot.body.data.id as string;
  const put = await api.json(`/v1/bots/${botId}/handoff`, { method: 'PUT', body: { enabled: true, ...settings } });
  assert.equal(put.res.status, 200, JSON.stringify(put.body));
  return { api, operator, botId };
}

/** A visitor's first message to the bot: their open conversation's id. */
export async function startConversation(api: TestClient, botId: string, userId: string, message = 'hello'): Promise<string> {
  const { res, body } = await api.json(`/v1/bots/${botId}/messages`, { method: 'POST', body: { message, user_id: userId } });
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.data.conversation_id;
}

export const json = (event: SseEvent) => JSON.parse(event.data);
