/**
 * The session cookie and the request checks of the dashboard surface:
 *
 * - the cookie is `HttpOnly` (no script reads it), `SameSite=Lax` (not sent on cross-site
 *   sub-requests), `Path=/dashboard` (the /v1 API never receives it), and `Secure` whenever the
 *   request came over HTTPS — directly, or as told by `X-Forwarded-Proto` from a trusted proxy
 *   (`trustedProxies`, the same setting as for client addresses);
 * - every write (anything but GET/HEAD) must come from this origin: the `Origin` header must equal
 *   the request's own scheme + host. Browsers send Origin on every such fetch, so a missing one is
 *   refused too. This also stops sign-in/sign-up CSRF (a foreign page signing you in as someone);
 * - every write with a session must also carry `X-CSRF-Token` equal to the session's token, which
 *   the dashboard receives in the JSON of sign-in, sign-up and `GET /me` (never in a cookie).
 */
import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppContext, AppEnv } from '../http/context.ts';
import { ServiceError } from '../http/errors.ts';
import type { NewSession, SessionService, SessionUser } from './service.ts';

export const SESSION_COOKIE = 'aicw_session';
export const COOKIE_PATH = '/dashboard';
export const CSRF_HEADER = 'X-CSRF-Token';

/** The session of each signed-in request, set by `requireSession` (the request context is the key). */
const signedInUsers = new WeakMap<AppContext, SessionUser>();

/** The signed-in user of this request; only on routes behind `requireSession`. */
export function signedIn(c: AppContext): SessionUser {
  const session = signedInUsers.get(c);
  if (!session) throw new Error('signedIn() used on a route without requireSession');
  return session;
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** The right-most value of a header a trusted proxy appended to (`X-Forwarded-Proto: https`). */
function lastForwarded(c: AppContext, name: string): string | undefined {
  return c.req.header(name)?.split(',').at(-1)?.trim().toLowerCase() || undefined;
}

export function requestIsHttps(c: AppContext, trustedProxies: number): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  return trustedProxies > 0 && lastForwarded(c, 'x-forwarded-proto') === 'https';
}

/** This request's own origin as the browser sees it (the scheme may be the proxy's). */
export function ownOrigin(c: AppContext, trustedProxies: number): string {
  const url = new URL(c.req.url);
  return `${requestIsHttps(c, trustedProxies) ? 'https' : 'http'}://${url.host}`;
}

export function setSessionCookie(c: AppContext, session: NewSession, trustedProxies: number): void {
  setCookie(c, SESSION_COOKIE, session.token, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: requestIsHttps(c, trustedProxies),
    path: COOKIE_PATH,
    expires: session.expiresAt,
  });
}

export function clearSessionCookie(c: AppContext, trustedProxies: number): void {
  deleteCookie(c, SESSION_COOKIE, { path: COOKIE_PATH, secure: requestIsHttps(c, trustedProxies), httpOnly: true, sameSite: 'Lax' });
}

export function sessionToken(c: AppContext): string | undefined {
  return getCookie(c, SESSION_COOKIE);
}

function sameString(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Refuses a write whose Origin is not this origin (403 `csrf_failed`). */
export function sameOriginWrites(trustedProxies: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!SAFE_METHODS.has(c.req.method)) {
      const origin = c.req.header('origin');
      const expected = ownOrigin(c, trustedProxies);
      if (!origin || origin !== expected) {
        throw new ServiceError(
          'csrf_failed',
          origin ? `Origin ${origin.slice(0, 200)} may not write here; only ${expected} may.` : 'A write needs an Origin header.',
        );
      }
    }
    await next();
  };
}

/**
 * A write without the session's `X-CSRF-Token` gets this error (403 `csrf_failed`); reads, and writes
 * with it, null. `bearer` (the /v1 passthrough only) also takes the token as `Authorization: Bearer`:
 * the dashboard's bot preview is the real widget, whose only header of its own is that one. It
 * proves the same thing: a cross-site page can neither read the token nor send that header here
 * (no CORS), and the cookie remains the credential.
 */
export function csrfTokenRefusal(c: AppContext, session: SessionUser, options: { bearer?: boolean } = {}): ServiceError | null {
  if (SAFE_METHODS.has(c.req.method)) return null;
  const token = c.req.header(CSRF_HEADER) ?? (options.bearer ? bearerToken(c) : undefined);
  if (token && sameString(token, session.csrfToken)) return null;
  return new ServiceError('csrf_failed', `Send the session's CSRF token in the ${CSRF_HEADER} header.`);
}

function bearerToken(c: AppContext): string | undefined {
  return /^Bearer[ ]+([\x21-\x7e]{1,512})[ ]*$/i.exec(c.req.header('authorization') ?? '')?.[1];
}

/** 401 without a live session; on writes, 403 unless `X-CSRF-Token` matches the session's token. */
export function requireSession(sessions: SessionService): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const session = await sessions.lookup(sessionToken(c));
    if (!session) throw new ServiceError('authentication_required', 'Sign in to the dashboard first.');
    const refused = csrfTokenRefusal(c, session);
    if (refused) throw refused;
    signedInUsers.set(c, session);
    await next();
  };
}

/** 403 `permission_denied` unless the signed-in user is an owner. */
export function ownersOnly(what: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (signedIn(c).role !== 'owner') throw new ServiceError('permission_denied', `Only owners can ${what}.`);
    await next();
  };
}
