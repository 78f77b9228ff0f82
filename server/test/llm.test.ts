// The OpenAI-compatible provider against fake-openai (a local fake of the protocol on a loopback
// port): streaming with frames split at random byte boundaries, error mapping, timeout, abort.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ServiceError } from '../src/http/errors.ts';
import { parseSse } from '../../src/client/sse.ts';
import { createLlmProvider, type LlmProvider } from '../src/llm/index.ts';
import { FAKE_REPLY, FAKE_SECRET, startFakeOpenAi, type FakeOpenAi } from './support/fake-openai.ts';

let fake: FakeOpenAi;
let llm: LlmProvider;

before(async () => {
  fake = await startFakeOpenAi();
  llm = createLlmProvider({ baseUrl: `${fake.baseUrl}/`, apiKey: 'test-key', model: 'stream', timeoutMs: 1500 })!;
});
after(() => fake.close());

async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const text of iterable) out.push(text);
  return out;
}

async function failure(model: string, provider = llm): Promise<ServiceError> {
  try {
    await collect(provider.complete({ messages: [{ role: 'user', content: 'hi' }], model }));
  } catch (error) {
    assert.ok(error instanceof ServiceError, `expected a ServiceError, got ${String(error)}`);
    return error;
  }
  assert.fail(`model ${model} did not fail`);
}

describe('createLlmProvider', () => {
  it('returns null when no base URL is configured', () => {
    assert.equal(createLlmProvider(undefined), null);
    assert.equal(createLlmProvider({ baseUrl: '' }), null);
  });
});

describe('OpenAI-compatible streaming', () => {
  it('streams the reply in order, sending the documented request', async () => {
    // Random splits differ per run: repeat a few times to cover many boundaries.
    for (let i = 0; i < 5; i++) {
      const parts = await collect(
        llm.complete({ system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }], temperature: 0.2, maxTokens: 50 }),
      );
      assert.equal(parts.join(''), FAKE_REPLY);
      assert.ok(parts.length > 3, 'several deltas, not one blob');
    }
    const sent = fake.requests.at(-1)!;
    assert.equal(sent.authorization, 'Bearer test-key');
    assert.deepEqual(sent.body, {
      model: 'stream',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
      stream: true,
      temperature: 0.2,
      max_tokens: 50,
    });
  });

  it('accepts a stream that ends without [DONE] (CRLF lines, no final blank line)', async () => {
    const parts = await collect(llm.complete({ messages: [{ role: 'user', content: 'hi' }], model: 'no-done' }));
    assert.equal(parts.join(''), FAKE_REPLY);
  });
});

describe('OpenAI-compatible error mapping', () => {
  it('maps a JSON error body instead of a stream to upstream_error without leaking it', async () => {
    const error = await failure('json-error');
    assert.equal(error.code, 'upstream_error');
    assert.equal(error.status, 502);
    assert.ok(!error.message.includes(FAKE_SECRET));
  });

  it('maps 429 to upstream_error and keeps Retry-After', async () => {
    const error = await failure('rate-limited');
    assert.equal(error.code, 'upstream_error');
    assert.equal(error.headers['Retry-After'], '7');
    assert.ok(!error.message.includes(FAKE_SECRET));
  });

  it('maps 5xx, mid-stream errors and malformed frames to upstream_error', async () => {
    for (const model of ['server-error', 'mid-stream-error', 'garbage']) {
      const error = await failure(model);
      assert.equal(error.code, 'upstream_error', model);
      assert.ok(!error.message.includes(FAKE_SECRET), model);
      assert.ok(!error.message.includes('127.0.0.1'), 'no upstream address in messages');
    }
  });

  it('maps an unreachable server to upstream_error', async () => {
    const closed = createLlmProvider({ baseUrl: 'http://127.0.0.1:9/v1', model: 'stream' })!;
    assert.equal((await failure('stream', closed)).code, 'upstream_error');
  });

  it('maps a server that never answers to upstream_timeout after timeoutMs', async () => {
    const started = performance.now();
    const error = await failure('hang');
    const elapsed = performance.now() - started;
    assert.equal(error.code, 'upstream_timeout');
    assert.equal(error.status, 504);
    assert.ok(elapsed >= 1400 && elapsed < 5000, `timed out after ${Math.round(elapsed)} ms`);
  });

  it('times out on a stream that stalls, but not on one that keeps streaming', async () => {
    assert.equal((await failure('stall')).code, 'upstream_timeout');
    const parts = await collect(llm.complete({ messages: [{ role: 'user', content: 'hi' }], model: 'slow-stream' }));
    assert.equal(parts.join(''), 'one two three four');
  });

  it('passes the caller\'s abort through instead of mapping it', async () => {
    const controller = new AbortController();
    const reason = new Error('client went away');
    setTimeout(() => controller.abort(reason), 50);
    await assert.rejects(collect(llm.complete({ messages: [{ role: 'user', content: 'hi' }], model: 'hang', signal: controller.signal })), (e) => e === reason);
  });
});

describe('parseSse (the client\'s, which the LLM adapter reads with)', () => {
  /** A byte stream delivering each part as its own chunk. */
  function bytes(...parts: (string | number[])[]): ReadableStream<Uint8Array> {
    const chunks = parts.map((p) => (typeof p === 'string' ? new TextEncoder().encode(p) : new Uint8Array(p)));
    return new ReadableStream({ pull: (controller) => (chunks.length ? controller.enqueue(chunks.shift()!) : controller.close()) });
  }

  it('joins multi-line data, names events, skips comments, survives split UTF-8', async () => {
    const euro = [...new TextEncoder().encode('€')];
    const events = [];
    for await (const e of parseSse(bytes(': hi\n', 'event: delta\ndata: a\nda', 'ta: b\n\n', 'data: ', [euro[0]!], [euro[1]!, euro[2]!], '\r', '\n\r\n'))) {
      events.push(e);
    }
    assert.deepEqual(events, [
      { event: 'delta', data: 'a\nb', id: undefined },
      { event: 'message', data: '€', id: undefined },
    ]);
  });
});
