/**
 * fake-openai: a FAKE OpenAI-compatible server for tests — the only fake in the project. It speaks
 * the `POST /chat/completions` streaming protocol on a loopback port and deliberately misbehaves the
 * way real servers do: frames split at random byte boundaries (also inside UTF-8 characters), streams
 * without `[DONE]`, JSON errors instead of a stream, 429 / 5xx, errors mid-stream, never answering.
 *
 * The scenario is chosen by the request's `model` name (see `Scenario`), unless a test sets
 * `scenarioOverride`.
 */
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';

export type Scenario =
  | 'stream' // deltas then `data: [DONE]`
  | 'no-done' // deltas, then the stream just ends
  | 'json-error' // 200 application/json {"error": …}
  | 'rate-limited' // 429 with Retry-After: 7
  | 'server-error' // 500 with a body holding a secret-looking string
  | 'mid-stream-error' // one delta, then an `error` payload
  | 'garbage' // a frame that is not JSON
  | 'hang' // headers never come
  | 'slow-stream' // four deltas 600 ms apart (longer in total than a 1.5 s idle timeout)
  | 'stall'; // one delta, then silence

/** The reply text the streaming scenarios send (with multi-byte characters on purpose). */
export const FAKE_REPLY = 'Héllo wörld — the widget installs in one step 👋. Ça marche!';
/** The content deltas the streaming scenarios send, in order (they join to `FAKE_REPLY`). */
export const FAKE_REPLY_DELTAS: readonly string[] = deltas(FAKE_REPLY);
/** A string the fake puts in error bodies; it must never reach our clients. */
export const FAKE_SECRET = 'sk-upstream-secret-do-not-leak';

/**
 * A request received (parsed body and the Authorization header). `aborted` turns true, and
 * `cancelled` resolves, when the caller went away before a paced stream (`slow-stream`, `stall`)
 * ended: it cancelled the body.
 */
export interface FakeRequest {
  body: Record<string, unknown>;
  authorization: string | null;
  aborted: boolean;
  cancelled: Promise<void>;
}

export interface FakeOpenAi {
  /** Base URL, e.g. `http://127.0.0.1:41234/v1`. */
  baseUrl: string;
  /** Requests received, in order. */
  requests: FakeRequest[];
  /** Resolves with `requests[index]` once it has arrived. */
  request(index: number): Promise<FakeRequest>;
  /**
   * When set, every request gets this scenario whatever its `model`. For tests whose service always
   * sends the same model name, e.g. a provider that fails now and has recovered for the retry.
   */
  scenarioOverride: Scenario | null;
  close(): Promise<void>;
}

function deltas(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function frame(payload: unknown): string {
  return `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`;
}

function chunkPayload(content: string) {
  return { id: 'chatcmpl-fake', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content }, finish_reason: null }] };
}

/** Splits bytes into pieces of 1–7 bytes, so events and characters are cut anywhere. */
function randomPieces(bytes: Uint8Array): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; ) {
    const size = 1 + Math.floor(Math.random() * 7);
    pieces.push(bytes.slice(i, i + size));
    i += size;
  }
  return pieces;
}

function streamOf(text: string): Response {
  const pieces = randomPieces(new TextEncoder().encode(text));
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = pieces.shift();
      if (!next) return controller.close();
      controller.enqueue(next);
      // Yield to the event loop so pieces leave as separate writes more often than not.
      await new Promise((r) => setImmediate(r));
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' } });
}

/** Sends each frame `gapMs` after the previous one (an empty frame: just wait); `onCancel`: the caller went away. */
function paced(frames: string[], gapMs: number, onCancel: () => void): Response {
  const encoder = new TextEncoder();
  let first = true;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!first) await new Promise((r) => setTimeout(r, gapMs).unref());
      first = false;
      const next = frames.shift();
      if (next === undefined) return controller.close();
      if (next) controller.enqueue(encoder.encode(next));
    },
    cancel: onCancel,
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const requests: FakeRequest[] = [];
  const arrivals: (() => void)[] = [];
  const request = async (index: number) => {
    while (!requests[index]) await new Promise<void>((resolve) => arrivals.push(resolve));
    return requests[index];
  };
  // Built before the server so the handler can read `scenarioOverride` as tests change it.
  const fake: Omit<FakeOpenAi, 'baseUrl' | 'close'> = { requests, request, scenarioOverride: null };
  const app = new Hono();
  app.post('/v1/chat/completions', async (c) => {
    const body = (await c.req.json()) as Record<string, unknown>;
    let cancel!: () => void;
    const cancelled = new Promise<void>((resolve) => (cancel = resolve));
    const request: FakeRequest = { body, authorization: c.req.header('authorization') ?? null, aborted: false, cancelled };
    requests.push(request);
    for (const arrived of arrivals.splice(0)) arrived();
    const onCancel = () => {
      request.aborted = true;
      cancel();
    };
    const scenario = fake.scenarioOverride ?? (String(body.model) as Scenario);
    const words = FAKE_REPLY_DELTAS;
    switch (scenario) {
      case 'stream':
        return streamOf(`: keep-alive comment\n\n${words.map((w) => frame(chunkPayload(w))).join('')}${frame('[DONE]')}`);
      case 'no-done':
        // CRLF line endings, and no blank line after the last event either.
        return streamOf(words.map((w) => frame(chunkPayload(w)).replaceAll('\n', '\r\n')).join('').replace(/\r\n\r\n$/, ''));
      case 'json-error':
        return c.json({ error: { message: `invalid api key ${FAKE_SECRET}`, type: 'invalid_request_error' } }, 200);
      case 'rate-limited':
        return c.json({ error: { message: `quota for ${FAKE_SECRET}` } }, 429, { 'retry-after': '7' });
      case 'server-error':
        return c.text(`upstream crashed ${FAKE_SECRET}`, 500);
      case 'mid-stream-error':
        return streamOf(frame(chunkPayload('Partial ')) + frame({ error: { message: FAKE_SECRET } }));
      case 'garbage':
        return streamOf(frame(chunkPayload('Ok ')) + frame('{not json'));
      case 'slow-stream':
        return paced(['one ', 'two ', 'three ', 'four'].map((w) => frame(chunkPayload(w))), 600, onCancel);
      case 'stall':
        return paced([frame(chunkPayload('Partial ')), ''], 60_000, onCancel);
      case 'hang':
        await new Promise((r) => setTimeout(r, 60_000).unref());
        return c.text('too late');
      default:
        return c.json({ error: { message: `unknown fake scenario ${scenario}` } }, 400);
    }
  });

  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return Object.assign(fake, {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        // Hanging requests would keep close() waiting: drop open sockets.
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      }),
  });
}
