/// <reference types="node" />
/**
 * Requests over a real socket with what `fetch` cannot choose: the local (source) address — any of
 * 127.0.0.0/8 binds on loopback, so 127.0.0.2 and 127.0.0.3 are two clients — and the body framing
 * (none at all, a declared length, or chunked with no length).
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The parsed JSON body (throws a readable error when it is not JSON). */
  json(): any;
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  /** Sent with a Content-Length unless `chunked`. */
  body?: string | Uint8Array;
  /** Send the body (or an empty one) chunked, without a Content-Length. */
  chunked?: boolean;
  /** The source address, e.g. `127.0.0.2`. */
  from?: string;
}

export function rawRequest(url: string, options: RawRequest = {}): Promise<RawResponse> {
  const target = new URL(url);
  const headers: Record<string, string | number> = { ...options.headers };
  if (options.body !== undefined && !options.chunked) headers['content-length'] = Buffer.byteLength(options.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? 'GET',
        headers,
        localAddress: options.from,
        agent: false, // a fresh connection per request, so each really comes from `from`
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json() {
              try {
                return JSON.parse(text);
              } catch {
                throw new Error(`not JSON (${res.statusCode} ${res.headers['content-type']}): ${text.slice(0, 200)}`);
              }
            },
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.chunked) req.setHeader('transfer-encoding', 'chunked');
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}
