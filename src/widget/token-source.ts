/**
 * Short-lived tokens from a `token-url` (the host's token proxy).
 *
 * `POST token-url` with the page's cookies (`credentials: 'same-origin'`) answers the envelope
 * `{success: true, data: {token, expires_at, api_base?}}`. The token is cached and renewed shortly before it
 * expires, and once more when the service answers 401.
 */
import type { SuccessEnvelope } from '../client/types.js';
import { TokenUnavailableError } from './error-detail.js';

interface TokenGrant {
  token: string;
  /** ISO time or epoch seconds. */
  expires_at?: string | number | null;
  /** Where to send API calls with this token (the proxy's `/v1`), when the proxy says. */
  api_base?: string;
}

/** Renew this long before `expires_at`, so a request never leaves with a token about to die. */
const RENEW_BEFORE_MS = 60_000;

function expiryMs(value: TokenGrant['expires_at']): number {
  if (typeof value === 'number') return value < 1e12 ? value * 1000 : value;
  if (typeof value === 'string') {
    const t = Date.parse(value);
    if (!Number.isNaN(t)) return t;
  }
  return Number.POSITIVE_INFINITY; // no expiry given: keep until a 401 says otherwise
}

export class TokenSource {
  /** The `api_base` of the last grant, if it named one. */
  apiBase: string | null = null;
  private token: string | null = null;
  private expiresAt = 0;
  private inFlight: Promise<string> | null = null;

  constructor(
    private readonly url: string,
    private readonly body: () => Record<string, string>,
  ) {}

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
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(this.body()),
      });
    } catch {
      throw new TokenUnavailableError('The token endpoint could not be reached.', null, reason);
    }
    const envelope = (await response.json().catch(() => null)) as SuccessEnvelope<TokenGrant> | null;
    if (!response.ok || !envelope?.success || typeof envelope.data?.token !== 'string') {
      this.token = null;
      throw new TokenUnavailableError(`The token endpoint answered ${response.status}.`, response.status, reason);
    }
    this.token = envelope.data.token;
    this.apiBase = typeof envelope.data.api_base === 'string' ? envelope.data.api_base : this.apiBase;
    this.expiresAt = expiryMs(envelope.data.expires_at);
    return this.token;
  }
}
