/**
 * `/dashboard/api`: sign-up, sign-in, sign-out, the signed-in user, and password change. Sign-in and
 * sign-up are rate limited per client address, sign-in also per email address (whether or not the
 * address is known), with the service's shared limiter: exact across instances with Redis.
 */
import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import type { RateLimitPlan } from '../accounts/service.ts';
import { clientAddress } from '../http/client-ip.ts';
import type { AppContext, AppEnv } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { ServiceError } from '../http/errors.ts';
import { readJson } from '../http/validate.ts';
import type { NewSession } from '../sessions/service.ts';
import { clearSessionCookie, requireSession, sessionToken, setSessionCookie, signedIn } from '../sessions/middleware.ts';
import type { Deps } from '../services.ts';
import {
  changePasswordSchema,
  normalizeEmail,
  signInSchema,
  signUpSchema,
  type ChangePasswordInput,
  type SignInInput,
  type SignUpInput,
} from './schema.ts';

export function authRoutes(deps: Deps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const { users, sessions, options, installAccountId } = deps.dashboard;
  const trusted = deps.config.trustedProxies;

  /** Rate-limit buckets are per install (its first account id): two installs sharing a Redis do not share them. */
  async function charge(bucket: string, plan: RateLimitPlan): Promise<void> {
    const result = await deps.rateLimits.consume(`dash:${installAccountId}:${bucket}`, plan);
    if (!result.allowed) {
      throw new ServiceError('rate_limited', `Too many attempts; retry in ${result.retryAfterSeconds} s.`, {
        headers: { 'Retry-After': String(result.retryAfterSeconds) },
      });
    }
  }
  const address = (c: AppContext) => clientAddress(c.req.raw.headers, c.env, trusted) ?? 'unknown';
  const emailBucket = (email: string) => createHash('sha256').update(normalizeEmail(email)).digest('hex');

  async function sessionBody(userId: string, accountId: string, session: Pick<NewSession, 'csrfToken' | 'expiresAt'>) {
    const [user, account] = await Promise.all([
      users.get(userId),
      deps.db.selectFrom('accounts').select(['id', 'name']).where('id', '=', accountId).executeTakeFirstOrThrow(),
    ]);
    return { user, account, csrf_token: session.csrfToken, session_expires_at: session.expiresAt.toISOString() };
  }

  router.get('/signup', async (c) => ok(c, { policy: options.signup, install_claimed: await users.installClaimed() }));

  router.post('/signup', async (c) => {
    const input = await readJson<SignUpInput>(c, signUpSchema);
    await charge(`signup:ip:${address(c)}`, options.perAddress);
    let session: NewSession | undefined;
    const user = await users.signUp(input, async (trx, userId) => {
      session = await sessions.create(userId, trx);
    });
    await sessions.end(sessionToken(c));
    setSessionCookie(c, session!, trusted);
    return ok(c, await sessionBody(user.id, user.accountId, session!), 201);
  });

  router.post('/signin', async (c) => {
    const input = await readJson<SignInInput>(c, signInSchema);
    await charge(`signin:ip:${address(c)}`, options.perAddress);
    await charge(`signin:email:${emailBucket(input.email)}`, options.perAccount);
    const user = await users.verify(input.email, input.password);
    // A new session id on every sign-in (no fixation); the one the browser held, if any, ends.
    await sessions.end(sessionToken(c));
    const session = await sessions.create(user.id);
    setSessionCookie(c, session, trusted);
    return ok(c, await sessionBody(user.id, user.accountId, session));
  });

  router.use('/signout', requireSession(sessions));
  router.post('/signout', async (c) => {
    await sessions.end(sessionToken(c));
    clearSessionCookie(c, trusted);
    return ok(c, { signed_out: true });
  });

  router.use('/me', requireSession(sessions));
  router.get('/me', async (c) => {
    const session = signedIn(c);
    return ok(c, await sessionBody(session.userId, session.accountId, session));
  });

  router.use('/me/password', requireSession(sessions));
  router.put('/me/password', async (c) => {
    const session = signedIn(c);
    const input = await readJson<ChangePasswordInput>(c, changePasswordSchema);
    await charge(`password:user:${session.userId}`, options.perAccount);
    let fresh: NewSession | undefined;
    await users.changePassword(
      session.userId,
      input.current_password,
      input.new_password,
      async (trx) => {
        fresh = await sessions.create(session.userId, trx);
      },
      (trx) => sessions.endAll(session.userId, trx),
    );
    setSessionCookie(c, fresh!, trusted);
    return ok(c, await sessionBody(session.userId, session.accountId, fresh!));
  });

  return router;
}
