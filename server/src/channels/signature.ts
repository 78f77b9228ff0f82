/** Constant-time checks of what a webhook request carries: a shared secret, or an HMAC of its body (Meta's, Slack's). */
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
  return sameDigest(header, 'sha256=', createHmac('sha256', secret).update(body).digest());
}

/** How far a Slack request's timestamp may be from now, either way: an older request replayed is refused. */
export const SLACK_MAX_SKEW_SECONDS = 5 * 60;

/** `v0=<hex>` of HMAC-SHA256(secret, `v0:{timestamp}:{body}`): Slack's `X-Slack-Signature`. */
export function slackSignature(secret: string, timestamp: string, body: Uint8Array): string {
  return `v0=${slackDigest(secret, timestamp, body).toString('hex')}`;
}

/**
 * True when `header` is Slack's signature of `body` sent at `timestamp` (Unix seconds) and that
 * time is within 5 minutes of `nowMs`: the signature covers the timestamp, so a captured request
 * cannot be replayed later with a fresh one.
 */
export function verifySlackSignature(header: string | undefined, timestamp: string | undefined, secret: string, body: Uint8Array, nowMs: number): boolean {
  if (!timestamp || !/^[0-9]{1,12}$/.test(timestamp) || Math.abs(nowMs / 1000 - Number(timestamp)) > SLACK_MAX_SKEW_SECONDS) return false;
  return sameDigest(header, 'v0=', slackDigest(secret, timestamp, body));
}

function slackDigest(secret: string, timestamp: string, body: Uint8Array): Buffer {
  return createHmac('sha256', secret).update(`v0:${timestamp}:`).update(body).digest();
}

/** True when `header` is `prefix` and the hex of `expected`, compared in constant time. */
function sameDigest(header: string | undefined, prefix: string, expected: Buffer): boolean {
  if (!header?.startsWith(prefix)) return false;
  const hex = header.slice(prefix.length);
  if (!/^[0-9a-f]+$/i.test(hex) || hex.length !== expected.length * 2) return false;
  return timingSafeEqual(Buffer.from(hex.toLowerCase(), 'hex'), expected);
}
