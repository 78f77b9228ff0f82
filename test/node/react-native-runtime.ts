/// <reference types="node" />
/**
 * This process shaped like React Native's JavaScript runtime, for the typed client's test
 * (react-native-client.test.ts): no `window`, `document`, `EventSource`, web streams or
 * `TextDecoder` (Hermes has `TextEncoder` only), React Native's partial `URL` and
 * `URLSearchParams` (`Libraries/Blob/URL.js`: `href`, `append` and `toString`, the rest throws), a
 * `fetch` whose responses have no `body` and answer once the whole body is in (React Native's is
 * `whatwg-fetch` over its XHR), and an
 * `XMLHttpRequest` that behaves as React Native's (`Libraries/Network/XMLHttpRequest.js`) over
 * Node's `http`: `responseText` grows while loading only for a request sent with a
 * readystatechange or progress handler, and every `readystatechange` of `LOADING` is fired.
 */
import { request as httpRequest, type ClientRequest } from 'node:http';
import { StringDecoder } from 'node:string_decoder';

/** Node's own, for the fake's requests (the runtime's `URL` is React Native's). */
const NodeURL = URL;

const notImplemented = (name: string) => () => {
  throw new Error(`${name} is not implemented`);
};

/** React Native's `URL`: the string it was given (a `/` appended, as it does), and little else. */
class RnUrl {
  private readonly url: string;

  constructor(url: string, base?: string | RnUrl) {
    if (base === undefined || /^[a-z][\w+.-]*:\/\//i.test(url)) {
      this.url = url.endsWith('/') ? url : `${url}/`;
    } else {
      const root = String(base).replace(/\/$/, '');
      this.url = `${root}${url.startsWith('/') ? url : `/${url}`}`;
    }
  }

  get href(): string {
    return this.url;
  }

  toString(): string {
    return this.url;
  }
}
for (const name of ['hash', 'host', 'hostname', 'origin', 'password', 'pathname', 'port', 'protocol', 'search', 'searchParams', 'username']) {
  Object.defineProperty(RnUrl.prototype, name, { get: notImplemented(`URL.${name}`) });
}

/** React Native's `URLSearchParams`: `append` and `toString`. */
class RnUrlSearchParams {
  private readonly pairs: [string, string][] = [];

  append(name: string, value: string): void {
    this.pairs.push([name, value]);
  }

  toString(): string {
    return this.pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
  }
}
for (const name of ['delete', 'get', 'getAll', 'has', 'set', 'sort']) {
  Object.defineProperty(RnUrlSearchParams.prototype, name, { value: notImplemented(`URLSearchParams.${name}`) });
}

type Handler = ((event: { type: string; loaded?: number; total?: number; lengthComputable?: boolean }) => void) | null;

/** A fake of React Native's `XMLHttpRequest`, over Node's `http` (loopback only: the tests' service). */
export class FakeRnXmlHttpRequest {
  static readonly UNSENT = 0;
  static readonly OPENED = 1;
  static readonly HEADERS_RECEIVED = 2;
  static readonly LOADING = 3;
  static readonly DONE = 4;
  /** Every request sent, oldest first (the tests look at their state). */
  static readonly sent: FakeRnXmlHttpRequest[] = [];

  readyState = 0;
  status = 0;
  statusText = '';
  responseType = '';
  timeout = 0;
  onreadystatechange: Handler = null;
  onprogress: Handler = null;
  onload: Handler = null;
  onerror: Handler = null;
  onabort: Handler = null;
  ontimeout: Handler = null;
  onloadend: Handler = null;
  readonly upload = { onprogress: null as Handler };
  /** Whether this request grew `responseText` as the answer arrived. */
  incremental = false;

  private method = 'GET';
  private url = '';
  private readonly requestHeaders: Record<string, string> = {};
  private headerLines = '';
  private text = '';
  private request: ClientRequest | undefined;
  private aborted = false;
  private failed = false;

  get responseText(): string {
    if (this.responseType !== '' && this.responseType !== 'text') throw new Error('responseText needs responseType "" or "text"');
    return this.readyState >= FakeRnXmlHttpRequest.LOADING ? this.text : '';
  }

  get response(): string {
    return this.responseText;
  }

  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
    this.setReadyState(FakeRnXmlHttpRequest.OPENED);
  }

  setRequestHeader(name: string, value: string): void {
    this.requestHeaders[name.toLowerCase()] = value;
  }

  getAllResponseHeaders(): string {
    return this.headerLines;
  }

  getResponseHeader(name: string): string | null {
    const line = this.headerLines.split('\r\n').find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
    return line ? line.slice(line.indexOf(':') + 1).trim() : null;
  }

  send(body: string | ArrayBuffer | ArrayBufferView | null = null): void {
    // React Native decides this when the request is sent (`incrementalEvents` in its XHR)
    this.incremental = Boolean(this.onreadystatechange || this.onprogress);
    FakeRnXmlHttpRequest.sent.push(this);
    const url = new NodeURL(this.url);
    if (url.hostname !== '127.0.0.1' && url.hostname !== '[::1]') throw new Error(`loopback only: ${this.url}`);
    const decoder = new StringDecoder('utf8');
    let pending = '';
    let loaded = 0;
    this.request = httpRequest(url, { method: this.method, headers: this.requestHeaders }, (response) => {
      this.status = response.statusCode ?? 0;
      this.statusText = response.statusMessage ?? '';
      this.headerLines = Object.entries(response.headers)
        .map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(', ') : value}`)
        .join('\r\n');
      this.setReadyState(FakeRnXmlHttpRequest.HEADERS_RECEIVED);
      response.on('data', (chunk: Buffer) => {
        loaded += chunk.length;
        const text = decoder.write(chunk);
        if (!this.incremental) {
          pending += text;
          return;
        }
        this.text += text;
        this.setReadyState(FakeRnXmlHttpRequest.LOADING);
        this.onprogress?.({ type: 'progress', loaded, total: -1, lengthComputable: false });
      });
      response.on('end', () => {
        this.text += pending + decoder.end();
        this.setReadyState(FakeRnXmlHttpRequest.DONE);
      });
      response.on('error', () => this.fail());
    });
    this.request.on('error', () => this.fail());
    if (body === null) this.request.end();
    else this.request.end(typeof body === 'string' ? body : Buffer.from(ArrayBuffer.isView(body) ? body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) : body));
  }

  abort(): void {
    if (this.readyState === FakeRnXmlHttpRequest.DONE || this.aborted) return;
    this.aborted = true;
    this.request?.destroy();
    this.setReadyState(FakeRnXmlHttpRequest.DONE);
  }

  private fail(): void {
    if (this.aborted || this.readyState === FakeRnXmlHttpRequest.DONE) return;
    this.failed = true;
    this.status = 0;
    this.setReadyState(FakeRnXmlHttpRequest.DONE);
  }

  /** As React Native's: readystatechange for every change (and every chunk), then the end's events. */
  private setReadyState(state: number): void {
    this.readyState = state;
    this.onreadystatechange?.({ type: 'readystatechange' });
    if (state !== FakeRnXmlHttpRequest.DONE) return;
    if (this.aborted) this.onabort?.({ type: 'abort' });
    else if (this.failed) this.onerror?.({ type: 'error' });
    else this.onload?.({ type: 'load' });
    this.onloadend?.({ type: 'loadend' });
  }
}

/** A response as `whatwg-fetch` (React Native's `fetch`) makes it: the whole text, and no `body`. */
class RnResponse {
  readonly ok: boolean;
  readonly bodyUsed = false;
  readonly type = 'default';

  constructor(
    private readonly bodyText: string,
    readonly status: number,
    readonly statusText: string,
    readonly headers: Headers,
    readonly url: string,
  ) {
    this.ok = status >= 200 && status < 300;
  }

  async text(): Promise<string> {
    return this.bodyText;
  }

  async json(): Promise<unknown> {
    return JSON.parse(this.bodyText);
  }

  clone(): RnResponse {
    return new RnResponse(this.bodyText, this.status, this.statusText, this.headers, this.url);
  }
}

/** React Native's `fetch`: `whatwg-fetch` over the XHR, which resolves at `load` only. */
const rnFetch = (input: string | URL, init: RequestInit = {}): Promise<RnResponse> =>
  new Promise((resolve, reject) => {
    const xhr = new FakeRnXmlHttpRequest();
    const url = String(input);
    xhr.onload = () => {
      const headers = new Headers();
      for (const line of xhr.getAllResponseHeaders().split('\r\n')) {
        const at = line.indexOf(':');
        if (at > 0) headers.append(line.slice(0, at), line.slice(at + 1).trim());
      }
      resolve(new RnResponse(xhr.responseText, xhr.status, xhr.statusText, headers, url));
    };
    xhr.onerror = xhr.ontimeout = () => reject(new TypeError('Network request failed'));
    xhr.onabort = () => reject(Object.assign(new Error('Aborted'), { name: 'AbortError' }));
    init.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.open(init.method ?? 'GET', url);
    new Headers(init.headers).forEach((value, name) => xhr.setRequestHeader(name, value));
    xhr.send((init.body as string | null | undefined) ?? null);
  });

/** What a React Native app does not have. */
const ABSENT = [
  'window', 'self', 'document', 'navigator', 'location', 'EventSource',
  'ReadableStream', 'WritableStream', 'TransformStream', 'TextDecoder', 'TextDecoderStream', 'TextEncoderStream',
];

/** Shapes this process like React Native's runtime; the function it returns puts everything back. */
export function installReactNativeRuntime(): () => void {
  const global = globalThis as Record<string, unknown>;
  const saved = new Map<string, PropertyDescriptor | undefined>();
  const swap = (name: string, value?: unknown) => {
    if (!saved.has(name)) saved.set(name, Object.getOwnPropertyDescriptor(globalThis, name));
    if (value === undefined) delete global[name];
    else Object.defineProperty(globalThis, name, { value, writable: true, configurable: true });
  };
  // Node loads its Headers (which React Native has, from whatwg-fetch) lazily, with TextDecoder
  void [globalThis.Headers, globalThis.Blob, globalThis.AbortController];
  for (const name of ABSENT) swap(name);
  swap('URL', RnUrl);
  swap('URLSearchParams', RnUrlSearchParams);
  swap('fetch', rnFetch);
  swap('XMLHttpRequest', FakeRnXmlHttpRequest);
  return () => {
    for (const [name, descriptor] of saved) {
      if (descriptor) Object.defineProperty(globalThis, name, descriptor);
      else delete global[name];
    }
  };
}
