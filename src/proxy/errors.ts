/**
 * Error answers of the proxy, in the service's own envelope (`{success: false, error}`) with the
 * status fixed by `ERROR_STATUS`, so the widget and the client handle a refusal by the proxy exactly
 * like one by the service. Messages never contain a token, a key or a stack trace.
 */
import { ERROR_STATUS, type ApiErrorBody, type ErrorCode, type ErrorEnvelope } from '../client/types.js';

export interface ProxyErrorOptions {
  param?: string;
  /** Extra response headers (`Retry-After`, `WWW-Authenticate`, `Allow`…). */
  headers?: Record<string, string>;
}

/** A refusal the proxy answers itself. Thrown inside the handler, turned into a response at its edge. */
export class ProxyError extends Error {
  override name = 'ProxyError';
  readonly status: number;
  readonly param: string | undefined;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: ProxyErrorOptions = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
    this.param = options.param;
    this.headers = options.headers ?? {};
  }
}

/** A JSON response with the given status and headers. */
export function jsonResponse(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });
}

/** The error envelope for `error`, carrying the proxy's request id in the body and `X-Request-Id`. */
export function errorResponse(error: ProxyError, requestId: string): Response {
  const body: ApiErrorBody = { code: error.code, message: error.message, request_id: requestId };
  if (error.param !== undefined) body.param = error.param;
  const envelope: ErrorEnvelope = { success: false, error: body };
  return jsonResponse(envelope, error.status, { ...error.headers, 'X-Request-Id': requestId });
}

/** A fresh request id in the service's format (`req_` + 16 hex characters). */
export function newRequestId(): string {
  return `req_${crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`;
}
