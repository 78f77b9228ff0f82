/**
 * The client address that per-IP rate limits count against.
 *
 * By default it is the TCP peer: the socket address the Node adapter (@hono/node-server's `serve`
 * or `getRequestListener`) hands the app as `env.incoming`, so whoever calls the app must pass that
 * `env` on (`service.fetch(request, env)`). `X-Forwarded-For` is read only when the service is told
 * how many reverse proxies of its own stand in front of it (`trustedProxies`,
 * `AI_CHAT_TRUSTED_PROXIES`): each of them appends the address it was called from, so the entry that
 * many places from the right is the one the outermost trusted proxy saw. Entries further left were
 * written by the client and are never believed.
 */
import { isIP } from 'node:net';

/** What the Node adapter passes as the app's `env` (`serve()` and `getRequestListener()`; Vercel nests it in `server`). */
interface NodeBindings {
  incoming?: { socket?: { remoteAddress?: string } };
  server?: NodeBindings;
}

/** The socket address of the connection, when the host passed the Node adapter's bindings. */
export function socketAddress(env: unknown): string | null {
  const bindings = env as NodeBindings | undefined;
  const incoming = bindings?.server?.incoming ?? bindings?.incoming;
  return incoming?.socket?.remoteAddress ?? null;
}

/** The client address, or null when the host gave none (then every such caller shares one bucket). */
export function clientAddress(headers: Headers, env: unknown, trustedProxies: number): string | null {
  const socket = socketAddress(env);
  if (trustedProxies > 0 && socket) {
    const hops = (headers.get('x-forwarded-for') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    // Fewer entries than trusted proxies: the left-most one is the furthest any trusted proxy saw.
    const forwarded = hops[Math.max(0, hops.length - trustedProxies)];
    if (forwarded && isIP(forwarded)) return forwarded;
  }
  return socket;
}
