// xhrFetch (React Native's streaming transport, docs/mobile.md) in Chromium, whose XMLHttpRequest
// reports progress as browsers do (the React Native runtime is test/node/react-native-client.test.ts):
// a streamed reply over XHR against the real service, plain calls through fetch.
import { expect } from '@open-wc/testing';
import { ApiError, xhrFetch, type ChatStreamEvent } from '../../src/client/index.js';
import { SUPPORT_BOT, clientFor, rejectionOf } from './fixtures.js';

/** Records the requests sent over XMLHttpRequest and over fetch (`METHOD /path`) while `action` runs. */
async function transports(action: () => Promise<void>): Promise<{ xhr: string[]; fetch: string[] }> {
  const seen = { xhr: [] as string[], fetch: [] as string[] };
  const path = (url: string | URL | Request) => new URL(url instanceof Request ? url.url : url, location.href).pathname;
  const { open } = XMLHttpRequest.prototype;
  const { fetch } = window;
  XMLHttpRequest.prototype.open = function (this: XMLHttpRequest, method: string, url: string | URL) {
    seen.xhr.push(`${method} ${path(url)}`);
    open.call(this, method, url, true);
  };
  window.fetch = (input, init) => {
    seen.fetch.push(`${init?.method ?? 'GET'} ${path(input)}`);
    return fetch(input, init);
  };
  try {
    await action();
  } finally {
    XMLHttpRequest.prototype.open = open;
    window.fetch = fetch;
  }
  return seen;
}

describe('xhrFetch', () => {
  it('streams a reply over XMLHttpRequest, and sends the other calls through fetch', async () => {
    const { client } = await clientFor({ fetch: xhrFetch });
    const events: ChatStreamEvent[] = [];
    const seen = await transports(async () => {
      const bot = (await client.bots.create(SUPPORT_BOT)).data;
      for await (const event of client.chat.stream({ messages: [{ role: 'user', content: 'hello' }], bot_id: bot.id, user_id: 'u-xhr' })) events.push(event);
    });

    expect(events[0]!.type).to.equal('meta');
    const done = events.at(-1)!;
    expect(done.type).to.equal('done');
    const text = events.map((event) => (event.type === 'delta' ? event.data.text : '')).join('');
    expect(text).to.equal(done.type === 'done' ? done.data.data.message.content : undefined);
    expect(seen).to.deep.equal({ xhr: ['POST /v1/chat'], fetch: ['POST /v1/bots'] });
  });

  it('hands an error answered before the stream to the client as any fetch would', async () => {
    const { client } = await clientFor({ fetch: xhrFetch });
    const error = await rejectionOf(async () => {
      for await (const event of client.chat.stream({ messages: [] })) expect.fail(`no event expected: ${event.type}`);
    });
    expect(error).to.be.instanceOf(ApiError);
    expect((error as ApiError).status).to.equal(400);
    expect((error as ApiError).code).to.equal('validation_failed');
  });
});
