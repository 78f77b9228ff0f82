/** Constant-time checks of what a webhook request carries: a shared secret, or an HMAC of its body. */
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * `given === expected` in time that depends only on their lengths: both are hashed first, so the
 * buffers compared are always of equal length and a length mismatch teaches nothing either.
 */
export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const digest = (value: string) => createHmac('sha256', 'channel-secret-compare').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** `sha256=<hex>` of HMAC-SHA256(secret, body): the `X-Hub-Signature-256` form (Meta, GitHub). */
export function hubSignature(secret: string, body: Uint8Array): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** True when `header` is the `X-Hub-Signature-256` of `body` under `secret`. */
export function verifyHubSignature(header: string | undefined, secret: string, body: Uint8Array): boolean {
  if (!header || !/^sha256=[0-9a-f]{64}$/i.test(header)) return false;
  const given = Buffer.from(header.slice(7).toLowerCase(), 'hex');
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(given, expected);
}
