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
import { isIP, isIPv6 } from 'node:net';

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

/**
 * The block an address belongs to for per-address limits: an IPv6 client usually holds a whole /64
 * (and can pick any address in it), so counting single IPv6 addresses would give it 2^64 budgets.
 * IPv4 (also IPv4-mapped IPv6) counts per address; anything else (`unknown`) as it is.
 */
export function addressGroup(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  return `${ipv6Groups(address).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, in lower-case hex without leading zeros. */
function ipv6Groups(address: string): string[] {
  let text = address.replace(/%.*$/, ''); // a zone id (fe80::1%eth0) names an interface, not an address
  const ipv4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (ipv4) {
    const [a, b, c, d] = ipv4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, ipv4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => parseInt(group, 16).toString(16));
}
