/**
 * The Origin check and CORS. A browser's `Origin` cannot be forged by a page, so refusing foreign
 * origins stops other sites from minting tokens with a visitor's cookies or spending them. Scripts
 * outside a browser can send any Origin (or none): that is what the token and the rate limits are for.
 */
import { ProxyError } from './errors.js';
import type { ResolvedOptions } from './options.js';

const EXPOSED_HEADERS =
  'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-Request-Id, Idempotent-Replayed';
const ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key, Accept, X-Request-Id';

export interface OriginVerdict {
  /** The request's Origin, when it had one. */
  origin: string | null;
  /** True when the Origin is one of `allowedOrigins` (CORS headers are due). */
  cors: boolean;
}

/**
 * Allows no Origin (non-browser callers, same-origin GETs), the proxy's own origin, and the allowed
 * origins; refuses the rest with 403 `origin_not_allowed`.
 */
export function checkOrigin(request: Request, options: ResolvedOptions): OriginVerdict {
  const origin = request.headers.get('origin');
  if (origin === null) return { origin: null, cors: false };
  if (options.allowedOrigins.has(origin)) return { origin, cors: true };
  if (origin === ownOrigin(request, options)) return { origin, cors: false };
  throw new ProxyError(
    'origin_not_allowed',
    `Origin ${origin.slice(0, 200)} is not allowed to use this proxy: list it in the proxy's \`allowedOrigins\` ` +
      `(npm start's demo proxy: the AI_CHAT_PROXY_ORIGINS environment variable).`,
  );
}

/**
 * The proxy's own origin: scheme, host and port, as the browser sees them. An `http://` page is not
 * the same site as the `https://` one on the same host (a network attacker can serve the former).
 * When TLS ends in front of the app, the request arrives as `http://`: with `trustProxyHeaders`,
 * the `X-Forwarded-Proto` the load balancer sets gives the browser's scheme back.
 */
function ownOrigin(request: Request, options: ResolvedOptions): string {
  const url = new URL(request.url);
  const forwarded = options.trustProxyHeaders ? request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase() : undefined;
  if (forwarded === 'https' || forwarded === 'http') url.protocol = `${forwarded}:`;
  return url.origin;
}

/** Adds the CORS answer for an allowed cross-origin request. */
export function withCors(response: Response, verdict: OriginVerdict | null): Response {
  if (!verdict?.cors || !verdict.origin) return response;
  const headers = new Headers(response.headers);
  headers.set('Access-Control-Allow-Origin', verdict.origin);
  headers.set('Access-Control-Allow-Credentials', 'true');
  headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  headers.append('Vary', 'Origin');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The answer to a CORS preflight from an allowed origin. */
export function preflightResponse(verdict: OriginVerdict, methods: string): Response {
  const headers: Record<string, string> = { Vary: 'Origin', 'Cache-Control': 'no-store' };
  if (verdict.cors && verdict.origin) {
    headers['Access-Control-Allow-Origin'] = verdict.origin;
    headers['Access-Control-Allow-Credentials'] = 'true';
    headers['Access-Control-Allow-Methods'] = methods;
    headers['Access-Control-Allow-Headers'] = ALLOWED_HEADERS;
    headers['Access-Control-Max-Age'] = '600';
  }
  return new Response(null, { status: 204, headers });
}
