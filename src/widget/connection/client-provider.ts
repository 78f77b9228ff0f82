/**
 * Builds the `WidgetClient` for the widget's current credentials, in this order of precedence:
 * `getToken` property (host-minted tokens) → `token` property → `token-url` (a token proxy) →
 * `api-key` (development only; warns once on a non-localhost page).
 *
 * With `token-url` and no `base-url`, calls go to the `api_base` the token proxy announces (its
 * own `/v1` pass-through; a relative one is relative to the token URL, which may be on another
 * origin), else to `${location.origin}/v1`. With `base-url` alone (no key, no token, no token-url),
 * the service there mints the tokens itself (`{base-url}/widget/tokens`), for the origins its bot's
 * website channel lists: the one-snippet install.
 */
import { TokenUnavailableError } from '../core/error-detail.js';
import { WidgetClient } from './widget-client.js';
import type { Credentials } from './credentials.js';
import { TokenSource } from './token-source.js';

export type { Credentials };

/** `${location.origin}/v1`, the default base URL in a browser. */
export function defaultBaseUrl(): string {
  return `${globalThis.location?.origin ?? ''}/v1`;
}

/**
 * Whether a page on this hostname is a developer's own machine, where an `api-key` in the page is
 * acceptable. Loopback IPv4 must be a whole address: `127.example.com` is a public domain.
 */
export function isLocalHostname(host: string): boolean {
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(host)
  );
}

let warnedApiKey = false;

function same(a: Credentials, b: Credentials): boolean {
  return (
    a.baseUrl === b.baseUrl && a.apiKey === b.apiKey && a.token === b.token && a.tokenUrl === b.tokenUrl &&
    a.tokenCredentials === b.tokenCredentials && a.getToken === b.getToken
  );
}

export class ClientProvider {
  private client: Promise<WidgetClient> | null = null;
  private last: WidgetClient | null = null;
  private builtFor: Credentials | null = null;
  private tokenSource: TokenSource | null = null;

  /** @param tokenRequestBody what to POST to `token-url` (bot id, anonymous user id). */
  constructor(private readonly tokenRequestBody: () => Record<string, string>) {}

  /** The last client built, if any (for its `rateLimit`). */
  get current(): WidgetClient | null {
    return this.last;
  }

  /** Forgets the client when any credential changed since it was built. */
  update(c: Credentials): void {
    if (this.builtFor && !same(this.builtFor, c)) {
      this.client = null;
      this.last = null;
    }
  }

  /** A client for `c`; with `token-url`, first renews a token that is about to expire. */
  async get(c: Credentials): Promise<WidgetClient> {
    this.update(c);
    if (!this.client) {
      this.builtFor = { ...c };
      // a failed build (no token) is not cached: the next send asks again
      this.client = this.build(c).catch((error: unknown) => {
        this.client = null;
        throw error;
      });
    }
    const client = await this.client;
    if (this.tokenSource) client.setToken(await this.tokenSource.get());
    return client;
  }

  private async build(c: Credentials): Promise<WidgetClient> {
    this.tokenSource = null;
    let getToken: Credentials['getToken'];
    let baseUrl = c.baseUrl;
    if (c.getToken) {
      const hostGetToken = c.getToken;
      getToken = (ctx) =>
        hostGetToken(ctx).catch((error: unknown) => {
          throw new TokenUnavailableError(String((error as Error)?.message ?? error), null, ctx.reason);
        });
    } else if (!c.token && (c.tokenUrl || (c.baseUrl && !c.apiKey))) {
      const source = new TokenSource(c.tokenUrl || `${c.baseUrl.replace(/\/$/, '')}/widget/tokens`, this.tokenRequestBody, c.tokenCredentials);
      await source.get();
      this.tokenSource = source;
      baseUrl ||= source.apiBase ?? '';
      getToken = (ctx) => source.get(ctx.reason);
    } else if (!c.token && c.apiKey && !warnedApiKey && !isLocalHostname(globalThis.location?.hostname ?? '')) {
      warnedApiKey = true;
      console.warn('<ai-chat-widget>: `api-key` puts a secret key in the page; use `token-url` in production.');
    }
    this.last = new WidgetClient({
      baseUrl: baseUrl || defaultBaseUrl(),
      apiKey: getToken ? undefined : c.apiKey || undefined,
      token: getToken ? undefined : c.token || undefined,
      getToken,
    });
    return this.last;
  }
}
