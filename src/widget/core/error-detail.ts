/** Maps whatever a request threw to the `ai-chat-error` detail, and to the strings shown in the UI. */
import { isApiError, isNetworkError, isTimeoutError } from '../../client/index.js';
import type { ErrorDetail, WidgetErrorCode } from './events.js';
import type { WidgetStrings } from '../locales/strings.js';

/**
 * Thrown by the widget's token plumbing (`token-url` or a host `getToken`) when no token can be
 * had. `reason` is the client's: `unauthorized` means a renewal after a 401 failed. `code` says why
 * (`unauthorized`: the visitor's session was refused; the others are setup or reachability faults,
 * see `WidgetErrorCode`), and `message` tells the developer what to fix.
 */
export class TokenUnavailableError extends Error {
  override name = 'TokenUnavailableError';
  constructor(
    message: string,
    readonly status: number | null,
    readonly reason: 'initial' | 'unauthorized',
    readonly code: WidgetErrorCode = 'unauthorized',
    readonly retryable = false,
  ) {
    super(message);
  }
}

/** Thrown instead of sending while the browser says it is offline (see `Connectivity`). */
export class OfflineError extends Error {
  override name = 'OfflineError';
  constructor() {
    super('the browser is offline');
  }
}

/** What an unreadable answer (an HTML error page, a broken body) most likely means, by its status. */
const SERVER_CODES: Record<number, WidgetErrorCode> = {
  500: 'internal_error',
  502: 'upstream_error',
  503: 'service_unavailable',
  504: 'upstream_timeout',
};

/** A page whose chat cannot work until its developer changes something (the console says what). */
const SETUP_CODES: readonly WidgetErrorCode[] = ['token_endpoint_not_found', 'origin_not_allowed', 'invalid_token_response'];

export function toErrorDetail(error: unknown): ErrorDetail {
  if (error instanceof OfflineError) {
    return { code: 'network_error', message: error.message, status: null, requestId: null, retryable: true };
  }
  if (error instanceof TokenUnavailableError) {
    // a refused session is "expired" when it was a renewal; a setup fault keeps its own code
    const refused = error.code === 'unauthorized';
    return {
      code: refused ? (error.reason === 'unauthorized' ? 'token_expired' : 'unauthorized') : error.code,
      message: error.message,
      status: error.status,
      requestId: null,
      retryable: error.retryable,
    };
  }
  if (isApiError(error)) {
    let code = error.code as WidgetErrorCode | 'invalid_response';
    // Every 401 means "no usable credentials" to a host; keep the one it can act on distinctly.
    if (error.status === 401) code = code === 'token_expired' ? 'token_expired' : 'unauthorized';
    if (code === 'invalid_response') code = SERVER_CODES[error.status] ?? 'unknown_error';
    return {
      code,
      message: error.serverMessage,
      status: error.status,
      requestId: error.requestId ?? null,
      retryable: error.retryable,
    };
  }
  const network = isNetworkError(error);
  if (network || isTimeoutError(error)) {
    return {
      code: network ? 'network_error' : 'timeout',
      message: (error as Error).message,
      status: null,
      requestId: null,
      retryable: true,
    };
  }
  return {
    code: 'unknown_error',
    message: error instanceof Error ? error.message : String(error),
    status: null,
    requestId: null,
    retryable: false,
  };
}

/** The short, localised sentence shown next to a failed message. */
export function errorText(code: WidgetErrorCode, strings: WidgetStrings): string {
  if (code === 'network_error') return strings.errorNetwork;
  if (code === 'timeout') return strings.errorTimeout;
  if (Object.values(SERVER_CODES).includes(code)) return strings.errorServer;
  if (code === 'unauthorized' || code === 'token_expired') return strings.errorAuth;
  if (code === 'token_endpoint_unreachable') return strings.errorUnavailable;
  if (SETUP_CODES.includes(code)) return strings.errorSetup;
  return strings.errorGeneric;
}

/** A random id; `crypto.randomUUID` needs a secure context, so fall back to `getRandomValues`. */
export function randomId(prefix: string): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return `${prefix}_${c.randomUUID()}`;
  const bytes = c.getRandomValues(new Uint8Array(16));
  return `${prefix}_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
