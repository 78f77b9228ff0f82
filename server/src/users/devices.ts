/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): every successful
 * sign-in gives the browser `aicw_device`, a token signed for that user. A sign-in that presents a
 * valid one for the email it tries is exempt from the per-email limit (it is still limited per
 * email and address, and per device). So whoever guesses a user's password from elsewhere locks
 * out only browsers the user never signed in from, never the ones they did.
 *
 * The token is `<user id>.<device id>.<issued at, epoch s>.<HMAC-SHA256>`, keyed by the user's
 * password hash: any instance checks it without shared state, nobody without the database can forge
 * one, and a password change revokes every device at once.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { setCookie } from 'hono/cookie';
import type { AppContext } from '../http/context.ts';
import { requestIsHttps } from '../sessions/middleware.ts';

export const DEVICE_COOKIE = 'aicw_device';
/** Only sign-in reads it. */
const DEVICE_COOKIE_PATH = '/dashboard/api/signin';
/** A device not signed in from for this long is unknown again. */
export const DEVICE_LIFETIME_SECONDS = 90 * 24 * 3600;

const TOKEN = /^(usr_[A-Za-z0-9]{1,64})\.([A-Za-z0-9_-]{22})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

function mac(key: string, userId: string, deviceId: string, issuedAt: number): string {
  return createHmac('sha256', key).update(`aicw-device\n${userId}\n${deviceId}\n${issuedAt}`).digest('base64url');
}

/** A new device token for the user whose password hash is `key`. */
export function issueDeviceToken(userId: string, key: string, now = Date.now()): string {
  const deviceId = randomBytes(16).toString('base64url');
  const issuedAt = Math.floor(now / 1000);
  return `${userId}.${deviceId}.${issuedAt}.${mac(key, userId, deviceId, issuedAt)}`;
}

/** The user a well-formed token names (its signature still unchecked), else null. */
export function deviceTokenUser(token: string | undefined): string | null {
  return token ? (TOKEN.exec(token)?.[1] ?? null) : null;
}

/** The token's device id when `key` signed it and it has not expired, else null. */
export function verifiedDevice(token: string, key: string, now = Date.now()): string | null {
  const parts = TOKEN.exec(token);
  if (!parts) return null;
  const [, userId, deviceId, issued, signature] = parts as unknown as [string, string, string, string, string];
  const issuedAt = Number(issued);
  const age = now / 1000 - issuedAt;
  if (age < 0 || age > DEVICE_LIFETIME_SECONDS) return null;
  const expected = Buffer.from(mac(key, userId, deviceId, issuedAt));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected) ? deviceId : null;
}

export function setDeviceCookie(c: AppContext, token: string, trustedProxies: number): void {
  setCookie(c, DEVICE_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Strict',
    secure: requestIsHttps(c, trustedProxies),
    path: DEVICE_COOKIE_PATH,
    maxAge: DEVICE_LIFETIME_SECONDS,
  });
}
