/**
 * Standard Webhooks signatures (the `standardwebhooks` library, the specification's own): the
 * secret is `whsec_` + base64 of 32 random bytes, and each request carries `webhook-id` (the
 * event's id, the same on every try), `webhook-timestamp` (Unix seconds of this try) and
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export function signedHeaders(secret: string, eventId: string, at: Date, body: string): Record<string, string> {
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(eventId, at, body),
  };
}
