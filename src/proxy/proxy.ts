/**
 * `createProxy()`: one web-standard handler, `(Request) => Promise<Response>`, with two routes:
 *
 * - `POST {basePath}/token` mints a widget token for the visitor `authorize` names;
 * - `{basePath}/v1/*` checks the token and forwards the few allowed calls with the real API key.
 *
 * Order of checks for a forwarded call: Origin → token → origin bound in the token → allowlist →
 * rate limits → body (size, JSON, `user_id` overwritten; a file: size only) → upstream. Cheap refusals come first.
 */
import { checkOrigin, preflightResponse, withCors, type OriginVerdict } from './cors.js';
import { errorResponse, newRequestId, ProxyError } from './errors.js';
import { forward, viaFetch, type UpstreamCall } from './forward.js';
import { MemoryRateLimitStore, RateLimiter } from './limits.js';
import { mintToken } from './mint.js';
import { resolveOptions, type ProxyOptions, type ResolvedOptions } from './options.js';
import { planForward, projectResponse } from './policy.js';
import { bearerToken, clientIp, MAX_BODY_BYTES, readFile, readJsonObject } from './request.js';
import { TokenService } from './tokens.js';

/** What an adapter knows about the request beyond the `Request` itself. */
export interface ProxyRequestContext {
  /** The client's socket address (the Node adapter passes it). */
  clientIp?: string | null;
  /** The path a framework stripped before handing the request over (Express `app.use('/ai', …)`). */
  mountPath?: string;
  /** The adapter's own way to the upstream (the Node adapter's keep-alive `node:http`), unless the options name a `fetch`. */
  transport?: UpstreamCall;
}

/** The proxy: call it, or use its `fetch`, as a web-standard handler. */
export interface Proxy {
  (request: Request): Promise<Response>;
  fetch(request: Request): Promise<Response>;
  /** Like `fetch`, with what an adapter knows about the connection. */
  handle(request: Request, context?: ProxyRequestContext): Promise<Response>;
  /** True when `pathname` belongs to this proxy (lets adapters pass other paths on). */
  matches(pathname: string): boolean;
  readonly basePath: string;
}

const TOKEN_METHODS = 'POST, OPTIONS';
const API_METHODS = 'GET, POST, DELETE, OPTIONS';

export function createProxy(options: ProxyOptions): Proxy {
  const resolved = resolveOptions(options);
  const tokens = new TokenService(resolved.secrets, resolved.issuer, resolved.audience, resolved.tokenTtlSeconds, resolved.now);
  const limiter = new RateLimiter(resolved.store ?? new MemoryRateLimitStore());
  const base = resolved.basePath;
  const fetchCall = viaFetch(resolved.fetch);

  const matches = (pathname: string) => base === '' || pathname === base || pathname.startsWith(`${base}/`);

  async function handle(request: Request, context: ProxyRequestContext = {}): Promise<Response> {
    const requestId = newRequestId();
    const startedAt = performance.now();
    let verdict: OriginVerdict | null = null;
    try {
      const url = new URL(request.url);
      const path = matches(url.pathname) ? url.pathname.slice(base.length) || '/' : null;
      const isToken = path === '/token';
      const isApi = path !== null && (path === '/v1' || path.startsWith('/v1/'));
      if (!isToken && !isApi) throw new ProxyError('route_not_found', `No route ${request.method} ${url.pathname}.`);

      verdict = checkOrigin(request, resolved);
      if (request.method === 'OPTIONS') return preflightResponse(verdict, isToken ? TOKEN_METHODS : API_METHODS);
      const ip = clientIp(request, resolved, context.clientIp ?? null);
      const ipRule: [string, ResolvedOptions['perIp']] = [`ip:${ip}`, ip ? resolved.perIp : null];

      if (isToken) {
        if (request.method !== 'POST') {
          throw new ProxyError('method_not_allowed', `Use POST for ${url.pathname}.`, { headers: { Allow: TOKEN_METHODS } });
        }
        await limiter.consume([ipRule]);
        const apiBase = resolved.apiBase ?? `${context.mountPath ?? ''}${base}/v1`;
        const mintContext = { options: resolved, tokens, origin: verdict.origin, apiBase, requestId, startedAt };
        return withCors(await mintToken(request, mintContext), verdict);
      }

      const grant = await tokens.verify(bearerToken(request));
      if (grant.origin && verdict.origin && grant.origin !== verdict.origin) {
        throw new ProxyError('origin_not_allowed', 'This token was issued for another origin.');
      }
      const plan = planForward(request.method, path!, url.searchParams, grant, resolved.now);
      const limit = await limiter.consume([[`sub:${grant.userId}`, resolved.perToken], ipRule]);
      let body: string | Uint8Array<ArrayBuffer> | null = null;
      if (plan.hasBody === 'file') body = await readFile(request, resolved.maxUploadBytes);
      else if (plan.hasBody) body = JSON.stringify(plan.rewriteBody(await readJsonObject(request, { maxBytes: MAX_BODY_BYTES })));
      const upstreamRequest = { method: request.method, path: plan.path, query: plan.query, body, incoming: request };
      const call = resolved.fetchGiven ? fetchCall : (context.transport ?? fetchCall);
      const answer = await forward({ ...upstreamRequest, userId: grant.userId }, resolved, limit, call);
      return withCors(plan.projectData ? await projectResponse(answer, plan.projectData) : answer, verdict);
    } catch (error) {
      if (!(error instanceof ProxyError)) resolved.onError?.(error, request);
      const refusal =
        error instanceof ProxyError ? error : new ProxyError('internal_error', 'The proxy failed to handle the request.');
      return withCors(errorResponse(refusal, requestId), verdict);
    }
  }

  const fetchHandler = (request: Request) => handle(request);
  return Object.assign(fetchHandler, { fetch: fetchHandler, handle, matches, basePath: base });
}
