/**
 * The one error type of the service. Anything thrown while handling a request is turned into the
 * error envelope by `http/error-handler.ts`; a `ServiceError` keeps its code, anything else becomes
 * `internal_error` with no details (the stack goes to the log only).
 */
import { ERROR_STATUS, type ErrorCode, type ValidationIssue } from '../../../src/client/types.ts';

export interface ServiceErrorOptions {
  param?: string;
  details?: ValidationIssue[];
  /** Extra response headers, e.g. `Retry-After`, `Allow`, `WWW-Authenticate`. */
  headers?: Record<string, string>;
  cause?: unknown;
}

export class ServiceError extends Error {
  override name = 'ServiceError';
  readonly code: ErrorCode;
  readonly param?: string;
  readonly details?: ValidationIssue[];
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: ServiceErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.param = options.param;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** 404 for an id that does not exist *for this account* (other tenants' ids look the same). */
export function notFound(param: string, what: string): ServiceError {
  return new ServiceError('resource_not_found', `No ${what} with that ${param} exists.`, { param });
}

export function invalid(param: string, message: string): ServiceError {
  return new ServiceError('validation_failed', message, {
    param,
    details: [{ path: `/${param}`, message }],
  });
}
