/** Success and error envelopes, with the `meta` every response carries. */
import type { ApiErrorBody, ErrorEnvelope, Meta, SuccessEnvelope } from '../../../src/client/types.ts';
import type { AppContext } from './context.ts';
import type { ServiceError } from './errors.ts';

export function meta(c: AppContext, extra: Record<string, unknown> = {}): Meta {
  return {
    request_id: c.get('requestId'),
    latency_ms: Math.round((performance.now() - c.get('startedAt')) * 100) / 100,
    ...extra,
  };
}

export function successBody<T>(c: AppContext, data: T, extraMeta?: Record<string, unknown>): SuccessEnvelope<T> {
  return { success: true, data, meta: meta(c, extraMeta) };
}

/** Answers `{success: true, data, meta}`. */
export function ok<T>(c: AppContext, data: T, status: 200 | 201 | 202 = 200, extraMeta?: Record<string, unknown>) {
  return c.json(successBody(c, data, extraMeta), status);
}

export function errorBody(c: AppContext, error: ServiceError): ErrorEnvelope {
  const body: ApiErrorBody = { code: error.code, message: error.message, request_id: c.get('requestId') };
  if (error.param !== undefined) body.param = error.param;
  if (error.details?.length) body.details = error.details;
  return { success: false, error: body };
}
