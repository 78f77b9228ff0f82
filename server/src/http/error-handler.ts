/** The one place errors become responses: the envelope, the right status, never a stack trace. */
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppContext } from './context.ts';
import { errorBody } from './envelope.ts';
import { ServiceError } from './errors.ts';
import type { Logger } from '../logger.ts';

export function toServiceError(error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  return new ServiceError('internal_error', 'An internal error occurred. Quote the request id when reporting it.', {
    cause: error,
  });
}

export function errorResponse(c: AppContext, error: unknown, logger: Logger): Response {
  const serviceError = toServiceError(error);
  if (serviceError.code === 'internal_error') {
    logger.error('request failed', {
      request_id: c.get('requestId'),
      method: c.req.method,
      path: c.req.path,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  }
  for (const [name, value] of Object.entries(serviceError.headers)) c.header(name, value);
  return c.json(errorBody(c, serviceError), serviceError.status as ContentfulStatusCode);
}
