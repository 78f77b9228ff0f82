// chat.stream against the real service (SSE over fetch) and against stream faults.
import { expect } from '@open-wc/testing';
import { AbortError, ApiError, TimeoutError, type BotStreamEvent, type ChatStreamEvent } from '../../src/client/index.js';
import { SUPPORT_BOT, clientFor, countOf, rejectionOf, uniqueKey } from './fixtures.js';

const HELLO = { messages: [{ role: 'user' as const, content: 'hello' }] };

async function collect(events: AsyncIterable<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const seen: ChatStreamEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe('chat.stream', () => {
  it('yields meta, deltas that add up to the final message, then done', async () => {
    const { client } = await clientFor();
    const bot = (await client.bots.create(SUPPORT_BOT)).data;
    const events = await collect(client.chat.stream({ ...HELLO, bot_id: bot.id, user_id: 'u-1' }));

    expect(events[0]!.type).to.equal('meta');
    expect(events.at(-1)!.type).to.equal('done');
    const deltas = events.filter((event) => event.type === 'delta');
    expect(deltas.length).to.be.greaterThan(0);
    const text = deltas.map((event) => (event.type === 'delta' ? event.data.text : '')).join('');
    const meta = events[0]!.type === 'meta' ? events[0]!.data : undefined;
    const done = events.at(-1)!.type === 'done' ? (events.at(-1)!.data as Extract<ChatStreamEvent, { type: 'done' }>['data']) : undefined;
    expect(done!.success).to.equal(true);
    expect(text).to.equal(done!.data.message.content);
    expect(text.length).to.be.greaterThan(0);
    expect(done!.data.conversation_id).to.equal(meta!.conversation_id);
    expect(meta!.request_id).to.be.a('string');
  });

  it('throws an error envelope answered before the stream (validation) as ApiError', async () => {
    const { client } = await clientFor();
    const error = await rejectionOf(() => collect(client.chat.stream({ messages: [] })));
    expect(error).to.be.instanceOf(ApiError);
    expect((error as ApiError).status).to.equal(400);
    expect((error as ApiError).code).to.equal('validation_failed');
  });

  it('retries an idempotent stream request that failed before its first byte', async () => {
    const key = uniqueKey('stream-flaky');
    const { client } = await clientFor({ faults: `flaky/1/${key}` });
    const events = await collect(client.chat.stream(HELLO, { idempotencyKey: uniqueKey('idem') }));
    expect(events.at(-1)!.type).to.equal('done');
    expect(await countOf(key)).to.equal(2);
  });

  it('does not retry a stream request without an idempotency key', async () => {
    const key = uniqueKey('stream-503');
    const { client } = await clientFor({ faults: `count/${key}/status/503` });
    const error = await rejectionOf(() => collect(client.chat.stream(HELLO)));
    expect((error as ApiError).status).to.equal(503);
    expect(await countOf(key)).to.equal(1);
  });

  it('throws an `event: error` frame as ApiError after the events before it', async () => {
    const key = uniqueKey('sse-error');
    const { client } = await clientFor({ faults: `count/${key}/sse-error` });
    const seen: string[] = [];
    const error = await rejectionOf(async () => {
      for await (const event of client.chat.stream(HELLO, { idempotencyKey: 'k' })) seen.push(event.type);
    });
    expect(seen).to.deep.equal(['meta', 'delta']);
    expect(error).to.be.instanceOf(ApiError);
    expect((error as ApiError).code).to.equal('upstream_error');
    expect((error as ApiError).status).to.equal(502);
    expect(await countOf(key)).to.equal(1); // never retried once the stream has started
  });

  it('reports a stream that ends without done as invalid_response', async () => {
    const { client } = await clientFor({ faults: 'sse-truncated' });
    const error = await rejectionOf(() => collect(client.chat.stream(HELLO)));
    expect((error as ApiError).code).to.equal('invalid_response');
  });

  it('times out a stream that goes silent for timeoutMs, without retrying it', async () => {
    const key = uniqueKey('sse-stall');
    const { client } = await clientFor({ faults: `count/${key}/sse-stall` });
    const seen: string[] = [];
    const error = await rejectionOf(async () => {
      for await (const event of client.chat.stream(HELLO, { timeoutMs: 300, idempotencyKey: 'k' })) seen.push(event.type);
    });
    expect(seen).to.deep.equal(['meta']);
    expect(error).to.be.instanceOf(TimeoutError);
    expect(await countOf(key)).to.equal(1);
  });

  it('stops with AbortError when aborted mid-stream', async () => {
    const { client } = await clientFor();
    const controller = new AbortController();
    const seen: string[] = [];
    const error = await rejectionOf(async () => {
      for await (const event of client.chat.stream(HELLO, { signal: controller.signal })) {
        seen.push(event.type);
        controller.abort();
      }
    });
    expect(error).to.be.instanceOf(AbortError);
    expect(seen).to.deep.equal(['meta']);
  });

  it('can be left early with break', async () => {
    const { client } = await clientFor();
    for await (const event of client.chat.stream(HELLO)) {
      expect(event.type).to.equal('meta');
      break;
    }
    // the client is still usable afterwards
    expect((await client.chat.send(HELLO)).data.message.content.length).to.be.greaterThan(0);
  });
});

describe('bots.streamMessage', () => {
  it('yields the same events as chat.stream, done carrying the whole bot reply', async () => {
    const { client } = await clientFor();
    const bot = (await client.bots.create(SUPPORT_BOT)).data;
    const events: BotStreamEvent[] = [];
    for await (const event of client.bots.streamMessage(bot.id, { message: 'hello', user_id: 'u-2' })) events.push(event);

    expect(events.map((event) => event.type).filter((type, i, all) => all.indexOf(type) === i)).to.deep.equal(['meta', 'delta', 'done']);
    const done = events.at(-1)!.type === 'done' ? (events.at(-1)!.data as Extract<BotStreamEvent, { type: 'done' }>['data']) : undefined;
    const text = events.map((event) => (event.type === 'delta' ? event.data.text : '')).join('');
    expect(text).to.equal(done!.data.message.content);
    expect(done!.data.user_message.content).to.equal('hello');
    expect(done!.data.fallback).to.equal(false);
    const meta = events[0]!.type === 'meta' ? events[0]!.data : undefined;
    expect(done!.data.conversation_id).to.equal(meta!.conversation_id);
  });

  it('throws an error answered before the stream as ApiError', async () => {
    const { client } = await clientFor();
    const error = await rejectionOf(async () => {
      for await (const event of client.bots.streamMessage('bot_missing123456', { message: 'hi', user_id: 'u' })) void event;
    });
    expect(error).to.be.instanceOf(ApiError);
    expect((error as ApiError).status).to.equal(404);
  });
});
