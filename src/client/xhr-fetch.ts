/**
 * `xhrFetch`: a `fetch` that streams where the platform's cannot. React Native's `fetch` answers
 * only once the whole body is in, with a response that has no `body` stream, so a streamed reply
 * cannot be read as it arrives (the client reports `invalid_response`). Its `XMLHttpRequest`, though, grows `responseText` while
 * the answer arrives (as `react-native-sse` relies on). So event streams (`Accept:
 * text/event-stream`: `chat.stream`, `bots.streamMessage`, `handoff.events`) go over
 * `XMLHttpRequest` here, and every other request to the platform's own `fetch`.
 *
 * Kept out of the widget's bundles: nothing in `src/widget/` imports it (nor anything the widget
 * imports: the upload's XHR shares only `xhr-headers.ts`).
 *
 * @example
 * import { AiChatClient, xhrFetch } from 'ai-chat-widget/client';
 * const client = new AiChatClient({ baseUrl: 'https://api.example.com/v1', getToken, fetch: xhrFetch });
 */
import { responseHeaders } from './xhr-headers.js';

/** The rejection of an aborted request, as `fetch`'s (React Native may have no `DOMException`). */
const abortError = () => Object.assign(new Error('The request was aborted.'), { name: 'AbortError' });

/**
 * The text of a response as it arrives, read the way `parseSse` reads a fetch body
 * (`getReader().read()`), but in strings: decoded already, so no `TextDecoder` is needed (Hermes
 * has none).
 */
class TextBody {
  private chunks: string[] = [];
  private ended = false;
  private error: unknown;
  private wake: (() => void) | undefined;

  constructor(private readonly stop: () => void) {}

  push(text: string): void {
    if (this.ended || !text) return;
    this.chunks.push(text);
    this.wake?.();
  }

  end(error?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.error = error;
    this.wake?.();
  }

  getReader(): this {
    return this;
  }

  async read(): Promise<ReadableStreamReadResult<string>> {
    while (!this.chunks.length && !this.ended) await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = undefined;
    if (this.chunks.length) return { done: false, value: this.chunks.splice(0).join('') };
    if (this.error) throw this.error;
    return { done: true, value: undefined };
  }

  /** The reader let go of the stream (a `break` out of the events): the request is dropped. */
  cancel(): Promise<void> {
    this.chunks = [];
    this.end();
    this.stop();
    return Promise.resolve();
  }

  releaseLock(): void {}

  /** Whatever has not been read yet, once the response is complete. */
  async text(): Promise<string> {
    let text = '';
    for (let part = await this.read(); !part.done; part = await this.read()) text += part.value;
    return text;
  }
}

/**
 * Sends one request over `XMLHttpRequest` and resolves once its headers are in, with a response
 * whose `body` yields the text as it arrives. Failures reject (before the headers) or fail the body
 * (after them) as `fetch`'s do: a `TypeError`, or an `AbortError` for an abort.
 */
function streamOverXhr(url: string, init: RequestInit, headers: Headers): Promise<Response> {
  return new Promise((resolve, reject) => {
    const { signal } = init;
    if (signal?.aborted) return reject(abortError());
    const xhr = new XMLHttpRequest();
    const body = new TextBody(() => xhr.abort());
    let answered = false;
    let seen = 0;
    const take = () => {
      const text = xhr.responseText;
      body.push(text.slice(seen));
      seen = text.length;
    };
    const fail = (error: Error) => (answered ? body.end(error) : reject(error));
    // React Native's XHR grows `responseText` while loading only for a request that already had a
    // readystatechange or progress handler when it was sent; browsers fire progress per chunk.
    xhr.onreadystatechange = () => {
      if (!answered && xhr.readyState >= 2 && xhr.status > 0) {
        answered = true;
        const { status, statusText } = xhr;
        const text = () => body.text();
        const response = { ok: status >= 200 && status < 300, status, statusText, url, headers: responseHeaders(xhr), body, text, json: async () => JSON.parse(await text()) };
        resolve(response as unknown as Response);
      }
      if (xhr.readyState >= 3) take();
    };
    xhr.onprogress = take;
    xhr.onload = () => {
      take();
      body.end();
    };
    xhr.onerror = xhr.ontimeout = () => fail(new TypeError('Network request failed'));
    xhr.onabort = () => fail(abortError());
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.open(init.method ?? 'GET', url);
    headers.forEach((value, name) => xhr.setRequestHeader(name, value));
    xhr.send((init.body ?? null) as XMLHttpRequestBodyInit | null);
  });
}

/**
 * A `fetch` for runtimes whose `fetch` cannot stream a response (React Native): event streams over
 * `XMLHttpRequest`, read as they arrive; everything else through `globalThis.fetch`. Pass it as the
 * client's `fetch` option.
 */
export const xhrFetch: typeof fetch = (input, init = {}) => {
  const headers = new Headers(init.headers);
  if (!headers.get('accept')?.includes('text/event-stream')) return globalThis.fetch(input, init);
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  return streamOverXhr(url, init, headers);
};
