// The embeddings client against fake-embeddings (a FAKE OpenAI-compatible /v1/embeddings on a
// loopback port): the wire format, batching, retries after Retry-After (an injected sleep records
// the waits), deadlines, bounded and malformed answers, and errors that never echo the upstream body.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { batchesOf, EmbeddingsClient, EmbeddingsError, MAX_BATCH, retryAfterMs } from '../src/embeddings/client.ts';
import { embeddingsOptionsFromEnv } from '../src/embeddings/options.ts';
import { DIMENSIONS, FAKE_EMBEDDINGS_SECRET, fakeEmbedding, startFakeEmbeddings, type FakeEmbeddings } from './support/fake-embeddings.ts';

let fake: FakeEmbeddings;
let waits: number[];

function client(options: { apiKey?: string; timeoutMs?: number; maxRetries?: number } = {}): EmbeddingsClient {
  return new EmbeddingsClient(
    { baseUrl: `${fake.baseUrl}/`, apiKey: options.apiKey ?? 'emb-key', model: 'fake-embed', timeoutMs: options.timeoutMs, maxRetries: options.maxRetries },
    { sleep: async (ms) => void waits.push(ms) },
  );
}

async function failure(promise: Promise<unknown>): Promise<EmbeddingsError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof EmbeddingsError, `expected an EmbeddingsError, got ${String(error)}`);
    assert.equal(error.code, 'embeddings_unavailable');
    assert.equal(error.status, 503);
    assert.ok(!error.message.includes(FAKE_EMBEDDINGS_SECRET) && !error.message.includes('127.0.0.1') && !error.message.includes('emb-key'));
    return error;
  }
  assert.fail('the call did not fail');
}

before(async () => {
  fake = await startFakeEmbeddings({ apiKey: 'emb-key' });
});
after(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.mode = null;
  fake.retryAfter = '1';
  waits = [];
});

describe('embeddings client', () => {
  it('sends {model, input} with the bearer key and returns the vectors in input order', async () => {
    const vectors = await client().embed(['refund please', 'shipping time']);
    assert.deepEqual(vectors, [fakeEmbedding('refund please'), fakeEmbedding('shipping time')]);
    assert.equal(vectors[0]!.length, DIMENSIONS);
    assert.deepEqual(fake.requests, [{ input: ['refund please', 'shipping time'], model: 'fake-embed', authorization: 'Bearer emb-key' }]);
  });

  it('sends long lists in batches of at most 96 inputs and 256 KiB', async () => {
    const inputs = Array.from({ length: 200 }, (_, i) => `text ${i}`);
    const vectors = await client().embed(inputs);
    assert.equal(vectors.length, 200);
    assert.deepEqual(vectors[150], fakeEmbedding('text 150'));
    assert.deepEqual(fake.requests.map((r) => r.input.length), [MAX_BATCH, MAX_BATCH, 8]);
    const big = 'x'.repeat(7_000);
    assert.deepEqual(batchesOf(Array.from({ length: 60 }, () => big)).map((b) => b.length), [37, 23]);
  });

  it('retries a 429 after its Retry-After, and a 500 with backoff, then succeeds', async () => {
    fake.retryAfter = '3';
    fake.failNext(1, 'rate-limited');
    fake.failNext(1, 'server-error');
    const vectors = await client().embed(['refund']);
    assert.deepEqual(vectors, [fakeEmbedding('refund')]);
    assert.equal(fake.requests.length, 3);
    assert.deepEqual(waits, [3000, 1000]);
  });

  it('gives up after its retries; the error hides the upstream body', async () => {
    fake.mode = 'server-error';
    const error = await failure(client({ maxRetries: 2 }).embed(['refund']));
    assert.equal(error.reason, 'http');
    assert.equal(fake.requests.length, 3);
  });

  it('does not wait for a Retry-After beyond the deadline', async () => {
    fake.retryAfter = '10';
    fake.mode = 'rate-limited';
    const error = await failure(client().embed(['refund'], { deadlineMs: 2_000 }));
    assert.equal(error.reason, 'rate_limited');
    assert.deepEqual(waits, []);
    assert.equal(fake.requests.length, 1);
  });

  it('does not retry a 401 (a wrong key)', async () => {
    const error = await failure(client({ apiKey: 'wrong' }).embed(['refund']));
    assert.equal(error.retriable, false);
    assert.equal(fake.requests.length, 1);
  });

  it('times out a request that hangs', async () => {
    fake.mode = 'hang';
    const error = await failure(client({ timeoutMs: 200, maxRetries: 0 }).embed(['refund']));
    assert.equal(error.reason, 'timeout');
  });

  it('refuses an oversized answer without reading it all', async () => {
    fake.mode = 'oversized';
    const error = await failure(client().embed(['refund']));
    assert.equal(error.reason, 'malformed');
    assert.equal(fake.requests.length, 1, 'a malformed answer is not retried');
  });

  it('refuses garbage and a response with fewer vectors than inputs', async () => {
    fake.mode = 'garbage';
    assert.equal((await failure(client().embed(['a b']))).reason, 'malformed');
    fake.mode = 'wrong-count';
    assert.equal((await failure(client().embed(['refund', 'shipping']))).reason, 'malformed');
  });

  it('passes the caller abort through', async () => {
    fake.mode = 'hang';
    const controller = new AbortController();
    const arrived = fake.nextRequest();
    const call = client().embed(['refund'], { signal: controller.signal });
    await arrived;
    controller.abort(new Error('caller left'));
    await assert.rejects(call, /caller left/);
  });

  it('reads Retry-After as seconds or a date', () => {
    assert.equal(retryAfterMs('2'), 2000);
    assert.equal(retryAfterMs(new Date(10_000).toUTCString(), 4_000), 6000);
    assert.equal(retryAfterMs('soon'), undefined);
  });
});

describe('embeddings configuration', () => {
  it('needs a model; falls back to the LLM base URL and key, never sends the LLM key elsewhere', () => {
    assert.equal(embeddingsOptionsFromEnv({ AI_CHAT_LLM_BASE_URL: 'http://127.0.0.1:1/v1' }), undefined);
    assert.deepEqual(
      embeddingsOptionsFromEnv({ AI_CHAT_LLM_BASE_URL: 'http://127.0.0.1:1/v1', AI_CHAT_LLM_API_KEY: 'llm', AI_CHAT_EMBEDDINGS_MODEL: 'e' }),
      { baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'llm', model: 'e', timeoutMs: undefined, queryTimeoutMs: undefined, minSimilarity: undefined },
    );
    const own = embeddingsOptionsFromEnv({
      AI_CHAT_LLM_BASE_URL: 'http://127.0.0.1:1/v1',
      AI_CHAT_LLM_API_KEY: 'llm',
      AI_CHAT_EMBEDDINGS_BASE_URL: 'http://127.0.0.1:2/v1',
      AI_CHAT_EMBEDDINGS_MODEL: 'e',
      AI_CHAT_EMBEDDINGS_MIN_SIMILARITY: '0.4',
    });
    assert.equal(own?.baseUrl, 'http://127.0.0.1:2/v1');
    assert.equal(own?.apiKey, undefined);
    assert.equal(own?.minSimilarity, 0.4);
  });
});
