/**
 * The request body limit: 413 `payload_too_large` before any handler parses a body.
 *
 * A declared `Content-Length` is checked without reading. A body of unknown length (chunked) is
 * read here, counted chunk by chunk and refused as soon as it passes the limit, and the request is
 * rebuilt around the bytes read, so handlers read them as usual. hono/body-limit rebuilds it with
 * `new Request(c.req.raw, …)`, which throws (a 500) when the Node adapter runs without replacing
 * the global `Request`, as our hosts do; and every method but GET/HEAD has such a stream there,
 * a DELETE or a POST without a body too. Built from the URL instead, the copy never meets that.
 */
import type { MiddlewareHandler } from 'hono';
import { readLimited } from '../../../src/proxy/json-body.ts';
import type { AppEnv } from './context.ts';
import { ServiceError } from './errors.ts';

/** `limit`: one for every request, or one per request path (larger for file uploads). */
export function bodyLimit(limit: number | ((path: string) => number)): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const maxBytes = typeof limit === 'number' ? limit : limit(c.req.path);
    const tooLarge = () => new ServiceError('payload_too_large', `The request body is larger than ${maxBytes} bytes.`);
    const declared = c.req.header('content-length');
    if (declared !== undefined && !c.req.header('transfer-encoding')) {
      if (Number(declared) > maxBytes) throw tooLarge();
      return next(); // HTTP framing ends the body at the declared length
    }
    const body = c.req.raw.body;
    if (!body) return next();
    const bytes = await readLimited(body, maxBytes);
    if (!bytes) throw tooLarge();
    const { raw } = c.req;
    c.req.raw = new Request(raw.url, { method: raw.method, headers: raw.headers, body: bytes, signal: raw.signal });
    await next();
  };
}
