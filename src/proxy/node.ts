/// <reference types="node" preserve="true" />
/**
 * `ai-chat-widget/proxy/node`: the proxy as a Node request listener, for `http.createServer()`,
 * Express and Connect. The only Node-specific file of the proxy.
 *
 * ```ts
 * app.use('/ai', toNodeHandler(proxy)); // Express: BEFORE express.json(), which would eat the body
 * http.createServer(toNodeHandler(proxy)).listen(3000);
 * ```
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { nodeTransport } from './node-transport.js';
import type { Proxy } from './proxy.js';

/** A Node listener; as Connect/Express middleware it passes requests outside `basePath` to `next`. */
export type NodeHandler = (request: IncomingMessage, response: ServerResponse, next?: (error?: unknown) => void) => void;

/** Express and Connect keep the full path here and strip the mount path from `url`. */
interface MountedRequest extends IncomingMessage {
  originalUrl?: string;
  /** Express: the client address, after its own `trust proxy` setting (the socket address by default). */
  ip?: string;
}

/** The prefix a framework stripped (`/ai` for `app.use('/ai', …)`), so `api_base` is right as the browser sees it. */
function mountPath(request: MountedRequest): string {
  const original = request.originalUrl?.split('?')[0];
  const current = request.url?.split('?')[0];
  if (!original || !current || original === current) return '';
  if (current === '/' && !original.endsWith('/')) return original; // `/ai` itself
  return original.endsWith(current) ? original.slice(0, original.length - current.length) : '';
}

export function toNodeHandler(proxy: Proxy): NodeHandler {
  const listener = getRequestListener(
    (request, env) => {
      const incoming = env.incoming as MountedRequest;
      const clientIp = incoming.ip ?? incoming.socket?.remoteAddress ?? null;
      return proxy.handle(request, { clientIp, mountPath: mountPath(incoming), transport: nodeTransport });
    },
    // A library must not replace its host's global Request/Response.
    { overrideGlobalObjects: false },
  );
  return (request, response, next) => {
    const pathname = (request.url ?? '/').split('?')[0]!;
    if (next && !proxy.matches(pathname)) {
      next();
      return;
    }
    void listener(request, response);
  };
}
