/**
 * Short-lived tokens from a `token-url` (the host's token proxy).
 *
 * `POST token-url` with the page's cookies (`credentials: 'same-origin'` by default; `include` for a
 * proxy on another origin) answers the envelope `{success: true, data: {token, expires_at, api_base?}}`.
 * The token is cached and renewed shortly before it expires, and once more when the service answers 401.
 *
 * When no token comes, the error says why with its own code, and the console gets one warning per
 * cause naming the fix (`refusal`): a misconfigured page should not look like an expired session.
 */
import type { ErrorEnvelope, SuccessEnvelope } from '../../client/types.js';
import { loadAddon } from '../addons/loader.js';
import { TokenUnavailableError } from '../core/error-detail.js';
import type { TokenCredentials } from './credentials.js';

/** `data` of a `token-url`'s answer, as the widget accepts it (the proxy's `TokenResponseData` is one). */
interface TokenResponseData {
  token: string;
  /** ISO time or epoch seconds. */
  expires_at?: string | number | null;
  /** Where to send API calls with this token (the proxy's `/v1`), when the proxy says. */
  api_base?: string;
}


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

/**
 * Why `response` (or its absence) gave no token, as the widget's error: the diagnosis add-on names
 * the cause and tells the console how to fix it (token-diagnosis.ts). Without the add-on, only
 * whether the URL answered at all. `url` is the absolute token URL.
 */
async function refusal(
  url: string,
  credentials: TokenCredentials,
  reason: 'initial' | 'unauthorized',
  response: Response | null,
  error: { code?: string; message?: string } | undefined,
): Promise<TokenUnavailableError> {
  const why = await loadAddon('token-diagnosis').then(({ diagnose }) => diagnose(url, credentials, response, error), () => null);
  return new TokenUnavailableError(why?.message ?? `token-url ${url} gave no token.`, response?.status ?? null, reason,
    why?.code ?? (response ? 'unauthorized' : 'token_endpoint_unreachable'), why?.retryable ?? !response);
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
      throw await refusal(this.url, this.credentials, reason, null, undefined);
    }
    type Answer = SuccessEnvelope<TokenResponseData> | ErrorEnvelope | null;
    const envelope = (await response.json().catch(() => null)) as Answer;
    const grant = envelope?.success ? envelope.data : null;
    const apiBase = typeof grant?.api_base === 'string' ? resolveUrl(grant.api_base, this.url) : undefined;
    if (!response.ok || typeof grant?.token !== 'string' || !grant.token || apiBase === null) {
      this.token = null;
      throw await refusal(this.url, this.credentials, reason, response, envelope && !envelope.success ? envelope.error : undefined);
    }
    this.token = grant.token;
    if (apiBase) this.apiBase = apiBase;
    this.expiresAt = expiryMs(grant.expires_at);
    return this.token;
  }
}
