/// <reference types="node" />
// The typed client in a runtime shaped like React Native's (react-native-runtime.ts: no DOM, no
// EventSource, no web streams, no TextDecoder, React Native's partial URL, a fetch whose responses
// have no body, React Native's XMLHttpRequest), against the real service, which runs in a process of its own since it needs
// what this one takes away. Plain calls, the error envelope, the 401 replay, the rate-limit headers
// and a 429; streamed replies and the handoff events stream over `xhrFetch`.
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { AiChatClient, isApiError, isRateLimitError, xhrFetch, type BotStreamEvent } from '../../src/client/index.js';
import { FakeRnXmlHttpRequest, installReactNativeRuntime } from './react-native-runtime.js';

/** The service's rate limit here: small enough for the last test to use it up. */
const POINTS = 40;

let child: ChildProcess;
let service: { url: string; apiKey: string; botId: string };
let restore: () => void;

const lastXhr = () => FakeRnXmlHttpRequest.sent.at(-1)!;

describe('the typed client in a React Native runtime', () => {
  before(async () => {
    const options = JSON.stringify({ rateLimit: { points: POINTS, durationSeconds: 600 } });
    child = fork(new URL('./fixtures/service-process.ts', import.meta.url), [options], { execArgv: ['--import', 'tsx'] });
    [service] = (await once(child, 'message')) as [typeof service];
    restore = installReactNativeRuntime();
  });
  after(async () => {
    restore?.();
    if (child?.connected) {
      const exited = once(child, 'exit');
      child.disconnect();
      await exited;
    }
  });

  it('runs where there is no DOM, no web stream and no TextDecoder, and fetch gives no body', async () => {
    for (const name of ['window', 'document', 'EventSource', 'ReadableStream', 'TextDecoder', 'TextDecoderStream']) {
      assert.equal(name in globalThis, false, name);
    }
    assert.throws(() => new URL(service.url).pathname, /not implemented/, "React Native's URL");
    const response = await fetch(`${service.url}/v1/health`);
    assert.equal(response.body, undefined, "React Native's fetch has no body stream");
  });

  it('makes plain calls with the platform fetch, and reads the rate-limit headers', async () => {
    const client = new AiChatClient({ baseUrl: `${service.url}/v1`, apiKey: service.apiKey });
    const { data, status, rateLimit } = await client.bots.sendMessage(service.botId, { message: 'hello', user_id: 'rn-plain' });
    assert.equal(status, 200);
    assert.equal(data.message.content, 'Hello!');
    assert.equal(rateLimit?.limit, POINTS);
    assert.ok(rateLimit!.remaining < POINTS);
    assert.deepEqual(client.rateLimit, rateLimit);
    assert.equal(lastXhr().incremental, false, 'a plain call went through the platform fetch');
  });

  it('throws the service error envelope as typed errors', async () => {
    const client = new AiChatClient({ baseUrl: `${service.url}/v1`, apiKey: service.apiKey, fetch: xhrFetch });
    const missing = await client.bots.get('bot_does_not_exist').catch((error: unknown) => error);
    assert.ok(isApiError(missing), String(missing));
    assert.equal(missing.status, 404);
    assert.equal(missing.code, 'resource_not_found');
    assert.ok(missing.requestId, 'the request id, to quote');
    const invalid = await client.bots.sendMessage(service.botId, { message: 'hi', user_id: 'not a valid id!' }).catch((error: unknown) => error);
    assert.ok(isApiError(invalid), String(invalid));
    assert.equal(invalid.status, 400);
    assert.equal(invalid.code, 'validation_failed');
    assert.equal(invalid.retryable, false);
  });

  it('asks getToken again after a 401 and replays the call once', async () => {
    const asked: string[] = [];
    const client = new AiChatClient({
      baseUrl: `${service.url}/v1`,
      token: 'a-token-that-expired',
      fetch: xhrFetch,
      getToken: async ({ reason }) => {
        asked.push(reason);
        return service.apiKey;
      },
    });
    const { data } = await client.bots.get(service.botId);
    assert.equal(data.id, service.botId);
    assert.deepEqual(asked, ['unauthorized']);
  });

  it('streams a reply over XMLHttpRequest, read as responseText grows', async () => {
    const client = new AiChatClient({ baseUrl: `${service.url}/v1`, apiKey: service.apiKey, fetch: xhrFetch });
    const events: BotStreamEvent[] = [];
    for await (const event of client.bots.streamMessage(service.botId, { message: 'hello', user_id: 'rn-stream' })) events.push(event);
    assert.deepEqual(
      events.map((e) => e.type),
      ['meta', ...events.filter((e) => e.type === 'delta').map(() => 'delta'), 'done'],
    );
    const text = events.map((e) => (e.type === 'delta' ? e.data.text : '')).join('');
    assert.equal(text, 'Hello!');
    const done = events.at(-1)!;
    assert.ok(done.type === 'done' && done.data.data.message.content === 'Hello!');
    assert.equal(lastXhr().incremental, true, 'sent with the handlers that make React Native report the text as it arrives');
    assert.match(lastXhr().getResponseHeader('content-type') ?? '', /text\/event-stream/);
  });

  it('follows a stream that stays open (handoff events) and drops the request on break', async () => {
    const client = new AiChatClient({ baseUrl: `${service.url}/v1`, apiKey: service.apiKey, fetch: xhrFetch });
    const { data } = await client.bots.sendMessage(service.botId, { message: 'hello', user_id: 'rn-events' });
    const controller = new AbortController();
    let readyAt: string | undefined;
    const following = (async () => {
      for await (const event of client.handoff.events(data.conversation_id, { signal: controller.signal, onReady: (id) => ((readyAt = id), controller.abort()) })) {
        assert.fail(`no event expected: ${event.type}`);
      }
    })();
    await following.catch((error: unknown) => assert.equal((error as Error).name, 'AbortError'));
    assert.notEqual(readyAt, undefined, "the stream's first frame arrived while the stream was open");
    const xhr = lastXhr();
    assert.equal(xhr.readyState, FakeRnXmlHttpRequest.DONE, 'the request is closed');
  });

  it('throws a RateLimitError at once when the service asks for a longer wait than it sleeps through', async () => {
    const client = new AiChatClient({ baseUrl: `${service.url}/v1`, apiKey: service.apiKey, fetch: xhrFetch, maxRetryDelayMs: 1000 });
    let refused: unknown;
    for (let i = 0; i <= POINTS && !refused; i++) refused = await client.bots.get(service.botId).then(() => undefined, (error: unknown) => error);
    assert.ok(isRateLimitError(refused), String(refused));
    assert.equal(refused.status, 429);
    assert.equal(refused.rateLimit?.remaining, 0);
    assert.ok(refused.retryAfterMs > 1000, `the wait asked: ${refused.retryAfterMs} ms`);
  });
});
