/**
 * fake-embeddings: a FAKE OpenAI-compatible embeddings server for tests. It answers
 * `POST /v1/embeddings` (`{model, input}` → `{object: 'list', data: [{object: 'embedding', index,
 * embedding}], model, usage}`, errors as `{error: {message, type, param, code}}`, `Authorization:
 * Bearer` checked) on a loopback port.
 *
 * Its vectors are deterministic and make meaning, not spelling, similar: a text's words (lower
 * case, stopwords dropped, a plural `s` cut) are mapped through `SYNONYMS` to a concept, phrases
 * first ("money back" → refund), and each concept is hashed to one of `DIMENSIONS` axes; the
 * vector is the counts, normalised. So "how do I get my money back" is close to "Refunds", and
 * "weather in Paris" is close to neither. A text with no concept points along an axis no word uses.
 *
 * `failNext(n, mode)` makes the next n requests fail (`server-error` 500 with a secret-looking body,
 * `rate-limited` 429 with `Retry-After`, `hang` never answering, `garbage` not JSON, `oversized` a
 * huge body, `wrong-count` fewer vectors than inputs); `mode` sets it for every request.
 */
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';

export const DIMENSIONS = 64;
/** Put in error bodies: it must never reach our clients or logs. */
export const FAKE_EMBEDDINGS_SECRET = 'sk-embeddings-secret-do-not-leak';

/** Words and phrases of one meaning; the first names the concept. */
export const SYNONYMS: readonly (readonly string[])[] = [
  ['refund', 'money back', 'reimburse', 'reimbursement', 'repay', 'repayment'],
  ['deliver', 'delivery', 'shipping', 'ship', 'dispatch', 'courier', 'parcel', 'package'],
  ['cancel', 'terminate', 'unsubscribe', 'end subscription'],
  ['password', 'passcode', 'credential', 'login', 'sign in'],
  ['price', 'cost', 'pricing', 'how much', 'fee'],
  ['hello', 'hi', 'hey', 'greeting', 'good morning'],
];

const STOPWORDS = new Set(
  'a an the i me my we our you your it its is are was be been do does did can could how what when where why to of in on at for from with and or not get got have has please would will'.split(' '),
);

export type FailureMode = 'server-error' | 'rate-limited' | 'hang' | 'garbage' | 'oversized' | 'wrong-count';

export interface FakeEmbeddings {
  /** Base URL, e.g. `http://127.0.0.1:41234/v1`. */
  baseUrl: string;
  /** Every request: its inputs and Authorization header. */
  requests: { input: string[]; model: string; authorization: string | null }[];
  /** Fails every request this way until set back to null. */
  mode: FailureMode | null;
  /** The `Retry-After` of `rate-limited`. Default "1". */
  retryAfter: string;
  /** The next `count` requests fail with `mode`, then the fake answers again. */
  failNext(count: number, mode: FailureMode): void;
  /** Resolves when the next request arrives (e.g. one that will hang). */
  nextRequest(): Promise<void>;
  close(): Promise<void>;
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

const PHRASES = SYNONYMS.flatMap((group) => group.map((phrase) => [phrase, group[0]!] as const)).sort((a, b) => b[0].length - a[0].length);

/** The concepts of a text, in order (a concept repeats as often as it is said). */
export function conceptsOf(text: string): string[] {
  let rest = ` ${text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
  const concepts: string[] = [];
  for (const [phrase, concept] of PHRASES) {
    if (!phrase.includes(' ')) continue;
    while (rest.includes(` ${phrase} `)) {
      rest = rest.replace(` ${phrase} `, ' ');
      concepts.push(concept);
    }
  }
  const single = new Map(PHRASES.filter(([p]) => !p.includes(' ')));
  for (const raw of rest.split(' ')) {
    if (!raw || STOPWORDS.has(raw)) continue;
    const word = raw.length > 3 && raw.endsWith('s') ? raw.slice(0, -1) : raw;
    concepts.push(single.get(word) ?? single.get(raw) ?? word);
  }
  return concepts;
}

/** The fake's embedding of `text`: unit length, deterministic. */
export function fakeEmbedding(text: string): number[] {
  const vector: number[] = Array.from({ length: DIMENSIONS }, () => 0);
  for (const concept of conceptsOf(text)) vector[hash(concept) % (DIMENSIONS - 1)]! += 1;
  if (!vector.some((x) => x !== 0)) vector[DIMENSIONS - 1] = 1;
  const norm = Math.hypot(...vector);
  return vector.map((x) => Math.round((x / norm) * 1e6) / 1e6);
}

function openAiError(message: string, type: string, code: string | null) {
  return { error: { message, type, param: null, code } };
}

export async function startFakeEmbeddings(options: { apiKey?: string } = {}): Promise<FakeEmbeddings> {
  const app = new Hono();
  const failures: FailureMode[] = [];
  const waiting: (() => void)[] = [];
  const hanging = new Set<() => void>();
  const fake: FakeEmbeddings = {
    baseUrl: '',
    requests: [],
    mode: null,
    retryAfter: '1',
    failNext(count, mode) {
      for (let i = 0; i < count; i++) failures.push(mode);
    },
    nextRequest: () => new Promise((resolve) => waiting.push(resolve)),
    close: async () => {},
  };

  app.post('/v1/embeddings', async (c) => {
    const authorization = c.req.header('authorization') ?? null;
    const body = (await c.req.json().catch(() => null)) as { model?: unknown; input?: unknown } | null;
    const input = typeof body?.input === 'string' ? [body.input] : body?.input;
    const valid = Array.isArray(input) && input.length > 0 && input.length <= 2048 && input.every((i) => typeof i === 'string');
    fake.requests.push({ input: valid ? (input as string[]) : [], model: String(body?.model ?? ''), authorization });
    for (const resolve of waiting.splice(0)) resolve();
    if (options.apiKey && authorization !== `Bearer ${options.apiKey}`) {
      return c.json(openAiError('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'), 401);
    }
    if (!valid || typeof body?.model !== 'string') {
      return c.json(openAiError("'input' must be a string or an array of strings.", 'invalid_request_error', null), 400);
    }
    const inputs = input as string[];
    const mode = failures.shift() ?? fake.mode;
    if (mode === 'hang') {
      // Never answers; ended when the caller goes away or the fake closes.
      return new Promise<Response>((resolve) => {
        const end = () => (hanging.delete(end), resolve(c.body(null, 504)));
        hanging.add(end);
        c.req.raw.signal.addEventListener('abort', end, { once: true });
      });
    }
    if (mode === 'server-error') return c.json(openAiError(`The server had an error (${FAKE_EMBEDDINGS_SECRET}).`, 'server_error', null), 500);
    if (mode === 'rate-limited') {
      c.header('Retry-After', fake.retryAfter);
      return c.json(openAiError('Rate limit reached for requests.', 'requests', 'rate_limit_exceeded'), 429);
    }
    if (mode === 'garbage') return c.text(`<html>${FAKE_EMBEDDINGS_SECRET}</html>`, 200);
    if (mode === 'oversized') return c.text(`{"data": [${'0.5,'.repeat(2_000_000)}0]}`, 200, { 'content-type': 'application/json' });
    const data = inputs.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text) }));
    const tokens = inputs.reduce((sum, text) => sum + conceptsOf(text).length, 0);
    return c.json({
      object: 'list',
      // Out of order on purpose: clients must read `index`, as OpenAI documents.
      data: mode === 'wrong-count' ? data.slice(1) : data.reverse(),
      model: body.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  });

  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  const address = server.address() as { port: number };
  fake.baseUrl = `http://127.0.0.1:${address.port}/v1`;
  fake.close = async () => {
    for (const end of [...hanging]) end();
    (server as { closeAllConnections?: () => void }).closeAllConnections?.();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return fake;
}
