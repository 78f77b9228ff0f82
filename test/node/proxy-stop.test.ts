/// <reference types="node" />
// Stop through the token proxy, the recommended deployment: a widget that closes
// a streamed turn's connection to the proxy stops the answer at the service. Against the REAL
// reference service with fake-openai writing slowly: the fake sees its request aborted, and the
// turn is stored with the text sent before the stop, marked `stopped`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, createBot, hostProxy, mint, startService, type HostedProxy, type RunningService } from './proxy-harness.js';

/** The part of server/test/support/fake-openai.ts this test uses (imported at run time). */
interface FakeOpenAi {
  baseUrl: string;
  /** Resolves with the index-th request once it arrived; `cancelled`: its caller went away. */
  request(index: number): Promise<{ cancelled: Promise<void> }>;
  requests: unknown[];
  close(): Promise<void>;
}

/** The part of the service this test waits on: its turns, idle once every one has stored its reply. */
interface ServiceWithTurns {
  deps: { turns: { idle(): Promise<void> } };
}

let fake: FakeOpenAi;
let service: RunningService;
let apiKey: string;
let botId: string;
let host: HostedProxy;

before(async () => {
  const { startFakeOpenAi } = (await import(new URL('../../server/test/support/fake-openai.ts', import.meta.url).href)) as {
    startFakeOpenAi(): Promise<FakeOpenAi>;
  };
  fake = await startFakeOpenAi();
  // `slow-stream`: "one two three four", a word every 600 ms
  service = await startService({ llm: { baseUrl: fake.baseUrl, model: 'slow-stream', timeoutMs: 30_000 } });
  apiKey = (await service.service.createAccount({ name: 'proxy stop' })).apiKey;
  botId = await createBot(service.url, apiKey);
  host = await hostProxy({ apiKey, upstream: service.url, botId, allowAnonymous: true });
});
after(async () => {
  await host?.close();
  await service?.close();
  await fake?.close();
});

describe('proxy: stopping a streamed answer', () => {
  it('closing the stream at the proxy aborts the LLM request and stores the partial reply, stopped', async () => {
    const { token } = await mint(host.url);
    const before = fake.requests.length;
    const res = await call(host.url, token, `/v1/bots/${botId}/messages`, {
      body: { message: 'Count for me', user_id: 'ignored-by-the-proxy', stream: true },
      headers: { accept: 'text/event-stream' },
    });
    assert.equal(res.status, 200);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('"one ')) {
      const { value, done } = await reader.read();
      assert.ok(!done, `the stream ended early: ${text}`);
      text += value;
    }
    await reader.cancel(); // the widget's Stop: the browser closes the connection
    const meta = JSON.parse(/event: meta\ndata: (.*)\n/.exec(text)![1]!) as { conversation_id: string };

    await (await fake.request(before)).cancelled; // the LLM request is aborted
    await (service.service as unknown as ServiceWithTurns).deps.turns.idle(); // the stopped turn is stored
    const history = await fetch(`${service.url}/v1/chat/history?conversation_id=${meta.conversation_id}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    const items = ((await history.json()) as { data: { items: { role: string; content: string; stopped?: boolean }[] } }).data.items;
    assert.equal(items.length, 2, JSON.stringify(items));
    assert.equal(items[1]!.stopped, true);
    assert.ok(items[1]!.content.startsWith('one '), items[1]!.content);
    assert.notEqual(items[1]!.content, 'one two three four');
  });
});
