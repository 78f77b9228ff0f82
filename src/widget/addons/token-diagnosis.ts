/**
 * Why a `token-url` gave no token, for the developer: the error code the widget reports and the
 * console warning that names the fix, once per cause and token URL on the page. A misconfigured
 * page should not look like an expired session.
 *
 * An add-on (token-source.ts loads it when a token request fails): a page whose tokens come never
 * downloads these explanations.
 */
import type { WidgetErrorCode } from '../core/events.js';

/** What the widget's `TokenUnavailableError` says (token-source.ts builds it: the class is the widget's own). */
export interface Diagnosis {
  code: WidgetErrorCode;
  message: string;
  retryable: boolean;
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
 * Why `response` (or its absence) gave no token, warning the developer. `url` is the absolute token
 * URL; `error` the answer's error envelope, if it had one.
 */
export function diagnose(
  url: string,
  credentials: 'same-origin' | 'include',
  response: Response | null,
  error: { code?: string; message?: string } | undefined,
): Diagnosis {
  const fail = (code: WidgetErrorCode, message: string, retryable = false): Diagnosis => {
    warnOnce(url, code, message);
    return { code, message, retryable };
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
    return { code: 'unauthorized', message: `The token endpoint answered ${status}.`, retryable: false };
  }
  return fail(
    'invalid_token_response',
    `token-url ${url} answered ${status} ${response.headers.get('content-type') ?? 'without a content type'}, ` +
      `not the token proxy's JSON {success: true, data: {token}}. Is the URL the proxy, not a page?`,
  );
}
