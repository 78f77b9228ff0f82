/**
 * The envelope of every response, errors and their codes, pages, and the rate-limit headers. Part
 * of the v1 wire contract (types.ts).
 */

/** `meta` of every successful response. */
export interface Meta {
  /** Also sent as the `X-Request-Id` header; quote it in bug reports. */
  request_id: string;
  /** Server-side processing time in milliseconds. */
  latency_ms: number;
  [key: string]: unknown;
}

export interface SuccessEnvelope<T> {
  success: true;
  data: T;
  meta: Meta;
}

/** Stable, machine-readable error codes. The HTTP status for each is fixed (see `ERROR_STATUS`). */
export type ErrorCode =
  | 'authentication_required'
  | 'invalid_api_key'
  | 'invalid_token'
  | 'token_expired'
  | 'invalid_signature'
  | 'permission_denied'
  | 'insufficient_scope'
  | 'origin_not_allowed'
  | 'csrf_failed'
  | 'host_not_allowed'
  | 'invalid_credentials'
  | 'signup_not_allowed'
  | 'invalid_invite'
  | 'invalid_json'
  | 'json_too_deep'
  | 'invalid_cursor'
  | 'validation_failed'
  | 'unknown_parameter'
  | 'resource_not_found'
  | 'route_not_found'
  | 'unsupported_version'
  | 'method_not_allowed'
  | 'conflict'
  | 'url_not_allowed'
  | 'import_queue_full'
  | 'idempotency_key_reused'
  | 'request_in_progress'
  | 'invalid_status_transition'
  | 'handoff_unavailable'
  | 'csat_already_given'
  | 'offline_message_answered'
  | 'email_not_configured'
  | 'email_not_sent'
  | 'secrets_key_missing'
  | 'upload_quota_exceeded'
  | 'payload_too_large'
  | 'storage_quota_exceeded'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'upstream_error'
  | 'upstream_timeout'
  | 'service_unavailable'
  | 'embeddings_unavailable'
  | 'internal_error';

/** The HTTP status each error code is answered with. */
export const ERROR_STATUS: Readonly<Record<ErrorCode, number>> = {
  authentication_required: 401,
  invalid_api_key: 401,
  invalid_token: 401,
  token_expired: 401,
  /** Channels: a platform's webhook delivery whose signature or secret token is not the channel's. */
  invalid_signature: 401,
  permission_denied: 403,
  /** A read-only API key used for anything but GET or HEAD. */
  insufficient_scope: 403,
  origin_not_allowed: 403,
  /** Dashboard: a cookie-authenticated write without a matching Origin and X-CSRF-Token. */
  csrf_failed: 403,
  /** The request's `Host` is not one of the service's names (loopback or `AI_CHAT_PUBLIC_URL`): DNS rebinding. */
  host_not_allowed: 421,
  /** Dashboard sign-in: the same answer for an unknown email and a wrong password. */
  invalid_credentials: 401,
  /** Dashboard sign-up refused by the install's policy (invite only, or closed). */
  signup_not_allowed: 403,
  /** Dashboard: an invite link that is unknown, used, revoked or expired (indistinguishable). */
  invalid_invite: 400,
  invalid_json: 400,
  json_too_deep: 400,
  invalid_cursor: 400,
  validation_failed: 400,
  unknown_parameter: 400,
  resource_not_found: 404,
  route_not_found: 404,
  unsupported_version: 404,
  method_not_allowed: 405,
  conflict: 409,
  /** Knowledge imports: a URL whose host is a private, loopback or reserved address literal. */
  url_not_allowed: 400,
  /** Knowledge imports: the account has as many jobs waiting or running as it may; retry when one has finished. */
  import_queue_full: 429,
  idempotency_key_reused: 409,
  request_in_progress: 409,
  /** Handoff: the conversation's status does not allow this (e.g. taking one another operator took). */
  invalid_status_transition: 409,
  /** Handoff: a person cannot be asked for now (handoff off, outside hours, nobody online). */
  handoff_unavailable: 409,
  /** Satisfaction: the conversation has its rating already (one per conversation). */
  csat_already_given: 409,
  /** Inbox: a teammate answered this offline message by email already. */
  offline_message_answered: 409,
  /** Inbox: the service has no SMTP server (`AI_CHAT_SMTP_URL`), so it sends no email. */
  email_not_configured: 503,
  /** Inbox: the SMTP server did not take the email; nothing was sent. */
  email_not_sent: 502,
  /** Channels: credentials cannot be stored or read: the service has no `AI_CHAT_SECRETS_KEY` (or not the key that sealed them). */
  secrets_key_missing: 503,
  /** Attachments: unsent uploads of this visitor, client address or bot hold their byte quota. */
  upload_quota_exceeded: 409,
  payload_too_large: 413,
  /** Attachments: the account's files hold its storage quota. */
  storage_quota_exceeded: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  upstream_error: 502,
  upstream_timeout: 504,
  service_unavailable: 503,
  /** The embeddings endpoint failed; only background work and logs see it (search falls back to lexical). */
  embeddings_unavailable: 503,
  internal_error: 500,
};

/** One offending value of a refused request (an entry of `error.details`): where it is and what is wrong. */
export interface ValidationIssue {
  /** JSON pointer of the offending value, e.g. `/messages/0/content`. */
  path: string;
  message: string;
}

/**
 * @deprecated Renamed `ValidationIssue`. `ErrorDetail` is the `detail` of the widget's
 * `ai-chat-error` event (`ai-chat-widget`); this alias goes in the next major version.
 */
export type ErrorDetail = ValidationIssue;

export interface ApiErrorBody {
  code: ErrorCode;
  /** Human-readable, safe to show to a developer; never contains a stack trace or secret. */
  message: string;
  /** The offending parameter (body field, query parameter or path id), when there is one. */
  param?: string;
  details?: ValidationIssue[];
  request_id?: string;
}

export interface ErrorEnvelope {
  success: false;
  error: ApiErrorBody;
}

export type Envelope<T> = SuccessEnvelope<T> | ErrorEnvelope;

/** A page of a cursor-paginated list. Pass `next_cursor` back as `cursor` to get the next page. */
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
  has_more: boolean;
}

export interface PageQuery {
  /** 1–200; default 50. */
  limit?: number;
  cursor?: string;
}

/** Parsed `X-RateLimit-*` headers. */
export interface RateLimitInfo {
  limit: number;
  remaining: number;
  /** UTC epoch seconds at which the window resets. */
  reset: number;
}
