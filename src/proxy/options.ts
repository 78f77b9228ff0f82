/**
 * Options of `createProxy()` and their validation. Mistakes in the host's configuration throw at
 * start-up (a `TypeError`/`RangeError`), never on the first visitor's request.
 */
import type { RateLimitRule, RateLimitStore } from './limits.js';

export type { RateLimitRule };

/** What a token allows. Every token carries all three unless `authorize` narrows them. */
export type ProxyScope = 'chat:write' | 'chat:read' | 'bot:message';

export const ALL_SCOPES: readonly ProxyScope[] = ['chat:write', 'chat:read', 'bot:message'];

/** Who is asking for a token, as the host application's own session check decides. */
export interface ProxyIdentity {
  /** The end user's id, 1–128 characters of `[A-Za-z0-9._:@-]`; becomes every forwarded `user_id`. */
  userId: string;
  /** The one bot this user may talk to; overrides `ProxyOptions.botId`. */
  botId?: string;
  /** The one agent this user may chat with through `POST /v1/chat` (`agent_id`). */
  agentId?: string;
  /** Narrower scopes than the default (all of them). */
  scopes?: ProxyScope[];
  /** Extra claims put into the token (registered claims such as `sub` or `exp` cannot be overridden). */
  claims?: Record<string, unknown>;
  /**
   * The user's name (1–100 characters) and email (a valid address, at most 254), as the host's sign-in
   * knows them: they replace whatever the widget sends of them (`identify()`), and the inbox shows them as verified.
   */
  name?: string;
  email?: string;
}

export interface ProxyRateLimitOptions {
  /** Per token subject (the user), across renewed tokens. Default 20 per 60 s. `false` turns it off. */
  perToken?: RateLimitRule | false;
  /** Per client IP, token minting included. Default 60 per 60 s. Only applies when the IP is known. */
  perIp?: RateLimitRule | false;
  /** Where counts live. Default: this process's memory (use a shared store with several instances). */
  store?: RateLimitStore;
}

export interface ProxyOptions {
  /** The real API key. It only ever travels proxy → upstream, never to a browser. */
  apiKey: string;
  /** The service origin (optionally with a path prefix), e.g. `https://api.example.com`; `/v1/…` is appended. */
  upstream: string;
  /** HS256 signing secret, at least 32 bytes. */
  secret?: string | Uint8Array;
  /** Several secrets for rotation: the first signs, all verify. Use instead of `secret`. */
  secrets?: (string | Uint8Array)[];
  /** The host's session check. `null` (or throwing `ProxyError`) refuses; see `allowAnonymous`. */
  authorize?: (request: Request) => ProxyIdentity | null | Promise<ProxyIdentity | null>;
  /** Mint tokens for anonymous visitors (`anon_…` ids) when there is no `authorize` or it answers `null`. */
  allowAnonymous?: boolean;
  /** Exact origins (`https://shop.example`) allowed to call the proxy cross-origin; CORS is answered for them. */
  allowedOrigins?: string[];
  /** The bot tokens are minted for when `authorize` names none. */
  botId?: string;
  /** Further bots a widget may ask for in its token request (`{"bot_id": …}`). */
  allowedBotIds?: string[];
  /** Path the proxy is reached under, as the handler sees it (default `''`). Express strips its mount path. */
  basePath?: string;
  /** `api_base` announced to the widget; default: the mount path + `basePath` + `/v1`. */
  apiBase?: string;
  /** Token lifetime, 1–900 s; default 600. */
  tokenTtlSeconds?: number;
  rateLimit?: ProxyRateLimitOptions;
  /** Read the client IP from `CF-Connecting-IP` / `X-Forwarded-For`, and the scheme of the proxy's own origin from `X-Forwarded-Proto` (only behind a proxy that sets them). */
  trustProxyHeaders?: boolean;
  /** Your own way to find the client IP (checked before the headers). */
  getClientIp?: (request: Request) => string | null | undefined;
  /** Upstream time to answer (headers), in ms; default 30,000. A stream is not cut once it has started. */
  upstreamTimeoutMs?: number;
  /** Largest file a visitor may upload through the proxy (`POST /v1/attachments`), in bytes; default 10 MiB. The bot's own limit applies upstream. */
  maxUploadBytes?: number;
  /** The `fetch` used for upstream calls (default: the global one). */
  fetch?: typeof fetch;
  /** `iss` of minted tokens; default `ai-chat-widget-proxy`. */
  issuer?: string;
  /** `aud` of minted tokens; default `ai-chat-widget`. */
  audience?: string;
  /** Called with unexpected errors (a throwing `authorize`, a bug); the client only sees `internal_error`. */
  onError?: (error: unknown, request: Request) => void;
  /**
   * The clock of token lifetimes, in epoch milliseconds: when a minted token expires, whether a
   * token has expired, how long its events stream may last. Default `Date.now`; a test advances its
   * own instead of waiting for a token to expire.
   */
  now?: () => number;
}

export interface ResolvedOptions {
  apiKey: string;
  upstream: string;
  secrets: Uint8Array[];
  authorize: ProxyOptions['authorize'];
  allowAnonymous: boolean;
  allowedOrigins: ReadonlySet<string>;
  botId: string | undefined;
  allowedBotIds: ReadonlySet<string>;
  basePath: string;
  apiBase: string | undefined;
  tokenTtlSeconds: number;
  perToken: RateLimitRule | null;
  perIp: RateLimitRule | null;
  store: RateLimitStore | undefined;
  trustProxyHeaders: boolean;
  getClientIp: ProxyOptions['getClientIp'];
  upstreamTimeoutMs: number;
  maxUploadBytes: number;
  fetch: typeof fetch;
  /** True when the options named a `fetch`: an adapter's own transport (`ProxyRequestContext`) is then not used. */
  fetchGiven: boolean;
  issuer: string;
  audience: string;
  onError: ProxyOptions['onError'];
  now: () => number;
}

const MIN_SECRET_BYTES = 32;
export const MAX_TOKEN_TTL_SECONDS = 900;

/** The service's rule for ids chosen by the caller (user ids). */
export const USER_ID_PATTERN = /^[A-Za-z0-9._:@-]{1,128}$/;
/** A visitor's name (`ProxyIdentity.name`, the service's `visitor.name`): 1–100 characters, no control characters. */
export const VISITOR_NAME = /^[^\u0000-\u001f\u007f]{1,100}$/u;
/** A visitor's email (also at most 254 characters). */
export const VISITOR_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function secretBytes(secret: string | Uint8Array): Uint8Array {
  const bytes = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
  if (!(bytes instanceof Uint8Array) || bytes.byteLength < MIN_SECRET_BYTES) {
    throw new TypeError(`createProxy: every signing secret must be at least ${MIN_SECRET_BYTES} bytes`);
  }
  return bytes;
}

function rule(value: RateLimitRule | false | undefined, fallback: RateLimitRule, name: string): RateLimitRule | null {
  if (value === false) return null;
  const r = value ?? fallback;
  if (!(Number.isInteger(r.points) && r.points > 0 && r.windowSeconds > 0 && Number.isFinite(r.windowSeconds))) {
    throw new RangeError(`createProxy: rateLimit.${name} needs a positive integer \`points\` and \`windowSeconds\``);
  }
  return r;
}

function normaliseBasePath(path: string | undefined): string {
  if (!path || path === '/') return '';
  if (!path.startsWith('/')) throw new TypeError('createProxy: `basePath` must start with "/"');
  return path.replace(/\/+$/, '');
}

function normaliseUpstream(upstream: string): string {
  let url: URL;
  try {
    url = new URL(upstream);
  } catch {
    throw new TypeError('createProxy: `upstream` must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError('createProxy: `upstream` must be an absolute http(s) URL');
  }
  if (url.search || url.hash) throw new TypeError('createProxy: `upstream` must not have a query or fragment');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function normaliseOrigin(origin: string): string {
  const url = new URL(origin);
  if (url.origin === 'null' || url.origin !== origin.replace(/\/$/, '')) {
    throw new TypeError(`createProxy: allowedOrigins entries must be bare origins like "https://example.com" (got ${origin})`);
  }
  return url.origin;
}

export function resolveOptions(options: ProxyOptions): ResolvedOptions {
  if (!options || typeof options.apiKey !== 'string' || !options.apiKey) {
    throw new TypeError('createProxy: `apiKey` is required');
  }
  const rawSecrets = options.secrets ?? (options.secret !== undefined ? [options.secret] : []);
  if (!rawSecrets.length) throw new TypeError('createProxy: `secret` (or `secrets`) is required');
  const ttl = options.tokenTtlSeconds ?? 600;
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_TOKEN_TTL_SECONDS) {
    throw new RangeError(`createProxy: \`tokenTtlSeconds\` must be an integer from 1 to ${MAX_TOKEN_TTL_SECONDS}`);
  }
  if (!options.authorize && !options.allowAnonymous) {
    throw new TypeError('createProxy: give `authorize`, or set `allowAnonymous: true` to serve anonymous visitors');
  }
  const timeout = options.upstreamTimeoutMs ?? 30_000;
  if (!(timeout > 0)) throw new RangeError('createProxy: `upstreamTimeoutMs` must be positive');
  const maxUploadBytes = options.maxUploadBytes ?? 10 * 1024 * 1024;
  if (!Number.isInteger(maxUploadBytes) || maxUploadBytes < 1) throw new RangeError('createProxy: `maxUploadBytes` must be a positive integer');
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw new TypeError('createProxy: no `fetch` available; pass one');
  return {
    apiKey: options.apiKey,
    upstream: normaliseUpstream(options.upstream),
    secrets: rawSecrets.map(secretBytes),
    authorize: options.authorize,
    allowAnonymous: options.allowAnonymous ?? false,
    allowedOrigins: new Set((options.allowedOrigins ?? []).map(normaliseOrigin)),
    botId: options.botId,
    allowedBotIds: new Set(options.allowedBotIds ?? []),
    basePath: normaliseBasePath(options.basePath),
    apiBase: options.apiBase,
    tokenTtlSeconds: ttl,
    perToken: rule(options.rateLimit?.perToken, { points: 20, windowSeconds: 60 }, 'perToken'),
    perIp: rule(options.rateLimit?.perIp, { points: 60, windowSeconds: 60 }, 'perIp'),
    store: options.rateLimit?.store,
    trustProxyHeaders: options.trustProxyHeaders ?? false,
    getClientIp: options.getClientIp,
    upstreamTimeoutMs: timeout,
    maxUploadBytes,
    // bound: some runtimes (workers) refuse a fetch called with another `this`
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    fetchGiven: options.fetch !== undefined,
    issuer: options.issuer ?? 'ai-chat-widget-proxy',
    audience: options.audience ?? 'ai-chat-widget',
    onError: options.onError,
    now: options.now ?? (() => Date.now()), // read late: a test may mock Date
  };
}
