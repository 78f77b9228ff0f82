/**
 * Short-lived tokens from a `token-url` (the host's token proxy).
 *
 * `POST token-url` with the page's cookies (`credentials: 'same-origin'` by default; `include` for a
 * proxy on another origin) answers the envelope `{success: true, data: {token, expires_at, api_base?}}`.
 * The token is cached and renewed shortly before it expires, and once more when the service answers 401.
 *
 * When no token comes, the error says why with its own code (see `classify`), and the console gets
 * one warning per cause naming the fix: a misconfigured page should not look like an expired session.
 */
import type { ErrorEnvelope, SuccessEnvelope } from '../../client/types.js';
import { TokenUnavailableError } from '../core/error-detail.js';
import type { WidgetErrorCode } from '../core/events.js';

/** `data` of a `token-url`'s answer, as the widget accepts it (the proxy's `TokenResponseData` is one). */
interface TokenResponseData {
  token: string;
  /** ISO time or epoch seconds. */
  expires_at?: string | number | null;
  /** Where to send API calls with this token (the proxy's `/v1`), when the proxy says. */
  api_base?: string;
}

/** Whether the token request carries cookies: same-origin only (the default), or also to another origin. */
export type TokenCredentials = 'same-origin' | 'include';

/** Renew this long before `expires_at`, so a request never leaves with a token about to die. */
const RENEW_BEFORE_MS = 60_000;

function expiryMs(value: TokenResponseData['expires_at']): number {
  if (typeof value === 'number') return value < 1e12 ? value * 1000 : value;
  if (typeof value === 'string') {
    const t = Date.parse(value);
    if (!Number.isNaN(t)) return t;
  }
  return Number.POSITIVE_INFINITY; // no expiry given: keep until a 401 says otherwise
}

/** Causes already explained in the console on this page, per token URL: told once, not on every send. */
const warned = new Set<string>();

function warnOnce(url: string, code: WidgetErrorCode, text: string): void {
  if (warned.has(`${code} ${url}`)) return;
  warned.add(`${code} ${url}`);
  console.warn(`<ai-chat-widget>: ${text}`);
}

const pageOrigin = () => globalThis.location?.origin ?? '';

/** Codes a proxy answers for a visitor it will not serve: the session's verdict, not a setup fault. */
const REFUSALS = new Set([401, 403]);

/**
 * Why `response` (or its absence) gave no token: the error for the widget, and the developer's
 * warning. `url` is the absolute token URL.
 */
function classify(
  url: string,
  credentials: TokenCredentials,
  reason: 'initial' | 'unauthorized',
  response: Response | null,
  error: { code?: string; message?: string } | undefined,
): TokenUnavailableError {
  const fail = (code: WidgetErrorCode, message: string, retryable = false) => {
    warnOnce(url, code, message);
    return new TokenUnavailableError(message, response?.status ?? null, reason, code, retryable);
  };
  const crossOrigin = new URL(url).origin !== pageOrigin();
  if (!response) {
    return fail(
      'token_endpoint_unreachable',
      `token-url ${url} could not be reached. Is the server up?` +
        (crossOrigin
          ? ` It is on another origin: its CORS answer must allow ${pageOrigin()} (add it to the proxy's \`allowedOrigins\`).`
          : ''),
      true,
    );
  }
  const { status } = response;
  if (status === 404 || status === 405) {
    return fail(
      'token_endpoint_not_found',
      `token-url ${url} answered ${status}: there is no token proxy at that URL. Check the path the proxy is ` +
        `mounted at (its \`basePath\`); for a proxy on another origin, give token-url as an absolute URL.`,
    );
  }
  const errorCode = error?.code;
  if (errorCode === 'origin_not_allowed') {
    // the refusal says where to list the page: the bot's website channel, or the proxy's allowedOrigins
    return fail('origin_not_allowed', `${url} refuses pages on "${pageOrigin()}": ${error!.message}`);
  }
  if (status === 429) return fail('rate_limited', `token-url ${url} answered 429: too many token requests.`, true);
  if (status >= 500) {
    return fail(errorCode === 'service_unavailable' || errorCode === 'upstream_timeout' ? errorCode : 'upstream_error',
      `token-url ${url} answered ${status}: the token proxy failed.`, true);
  }
  if (REFUSALS.has(status)) {
    // the visitor has no session the proxy accepts: expected on a signed-out page, so told once, softly
    warnOnce(
      url,
      'unauthorized',
      `token-url ${url} answered ${status}: the proxy's authorize() refused this visitor.` +
        (crossOrigin && credentials !== 'include'
          ? ' It is on another origin, so the page sends it no cookies: set token-credentials="include".'
          : ' Set allowAnonymous on the proxy to serve signed-out visitors.'),
    );
    return new TokenUnavailableError(`The token endpoint answered ${status}.`, status, reason);
  }
  return fail(
    'invalid_token_response',
    `token-url ${url} answered ${status} ${response.headers.get('content-type') ?? 'without a content type'}, ` +
      `not the token proxy's JSON {success: true, data: {token}}. Is the URL the proxy, not a page?`,
  );
}

/** `relative` resolved against `base`; `null` when it is no URL at all. */
function resolveUrl(relative: string, base: string): string | null {
  try {
    return new URL(relative, base).href;
  } catch {
    return null;
  }
}

export class TokenSource {
  /** The `api_base` of the last grant, if it named one, as an absolute URL. */
  apiBase: string | null = null;
  private token: string | null = null;
  private expiresAt = 0;
  private inFlight: Promise<string> | null = null;
  /** `token-url`, absolute: relative `api_base`s resolve against it, not against the page. */
  private readonly url: string;

  constructor(
    url: string,
    private readonly body: () => Record<string, string>,
    private readonly credentials: TokenCredentials = 'same-origin',
  ) {
    this.url = new URL(url, globalThis.location?.href).href;
  }

  /**
   * A valid token: the cached one unless it is near expiry or `reason` is `unauthorized` (the
   * server refused it). Rejects with a `TokenUnavailableError`.
   */
  get(reason: 'initial' | 'unauthorized' = 'initial'): Promise<string> {
    if (reason === 'initial' && this.token && Date.now() < this.expiresAt - RENEW_BEFORE_MS) {
      return Promise.resolve(this.token);
    }
    // concurrent callers share one request
    this.inFlight ??= this.fetchToken(reason).finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async fetchToken(reason: 'initial' | 'unauthorized'): Promise<string> {
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        credentials: this.credentials,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(this.body()),
      });
    } catch {
      throw classify(this.url, this.credentials, reason, null, undefined);
    }
    type Answer = SuccessEnvelope<TokenResponseData> | ErrorEnvelope | null;
    const envelope = (await response.json().catch(() => null)) as Answer;
    const grant = envelope?.success ? envelope.data : null;
    const apiBase = typeof grant?.api_base === 'string' ? resolveUrl(grant.api_base, this.url) : undefined;
    if (!response.ok || typeof grant?.token !== 'string' || !grant.token || apiBase === null) {
      this.token = null;
      throw classify(this.url, this.credentials, reason, response, envelope && !envelope.success ? envelope.error : undefined);
    }
    this.token = grant.token;
    if (apiBase) this.apiBase = apiBase;
    this.expiresAt = expiryMs(grant.expires_at);
    return this.token;
  }
}
