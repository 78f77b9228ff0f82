/**
 * `/dashboard/api`: sign-up, sign-in, sign-out, the signed-in user, and password change. Sign-in and
 * sign-up are rate limited per client address, sign-in also per email address (whether or not the
 * address is known), with the service's shared limiter: exact across instances with Redis.
 */
import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import type { RateLimitPlan } from '../accounts/service.ts';
import { clientAddress } from '../http/client-ip.ts';
import type { AppContext } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { ServiceError } from '../http/errors.ts';
import { readJson } from '../http/validate.ts';
import type { NewSession } from '../sessions/service.ts';
import {
  clearSessionCookie,
  requireSession,
  sessionToken,
  setSessionCookie,
  type DashboardEnv,
} from '../sessions/middleware.ts';
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

export function authRoutes(deps: Deps): Hono<DashboardEnv> {
  const router = new Hono<DashboardEnv>();
  const { users, sessions, options, installAccountId } = deps.dashboard;
  const trusted = deps.config.trustedProxies;
  const app = (c: unknown) => c as AppContext;

  /** Rate-limit buckets are per install (its first account id): two installs sharing a Redis do not share them. */
  async function charge(c: AppContext, bucket: string, plan: RateLimitPlan): Promise<void> {
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

  router.get('/signup', async (c) =>
    ok(app(c), { policy: options.signup, install_claimed: await users.installClaimed() }),
  );

  router.post('/signup', async (c) => {
    const input = await readJson<SignUpInput>(app(c), signUpSchema);
    await charge(app(c), `signup:ip:${address(app(c))}`, options.perAddress);
    let session: NewSession | undefined;
    const user = await users.signUp(input, async (trx, userId) => {
      session = await sessions.create(userId, trx);
    });
    await sessions.end(sessionToken(app(c)));
    setSessionCookie(app(c), session!, trusted);
    return ok(app(c), await sessionBody(user.id, user.accountId, session!), 201);
  });

  router.post('/signin', async (c) => {
    const input = await readJson<SignInInput>(app(c), signInSchema);
    await charge(app(c), `signin:ip:${address(app(c))}`, options.perAddress);
    await charge(app(c), `signin:email:${emailBucket(input.email)}`, options.perAccount);
    const user = await users.verify(input.email, input.password);
    // A new session id on every sign-in (no fixation); the one the browser held, if any, ends.
    await sessions.end(sessionToken(app(c)));
    const session = await sessions.create(user.id);
    setSessionCookie(app(c), session, trusted);
    return ok(app(c), await sessionBody(user.id, user.accountId, session));
  });

  router.use('/signout', requireSession(sessions));
  router.post('/signout', async (c) => {
    await sessions.end(sessionToken(app(c)));
    clearSessionCookie(app(c), trusted);
    return ok(app(c), { signed_out: true });
  });

  router.use('/me', requireSession(sessions));
  router.get('/me', async (c) => {
    const session = c.get('session');
    return ok(app(c), await sessionBody(session.userId, session.accountId, session));
  });

  router.use('/me/password', requireSession(sessions));
  router.put('/me/password', async (c) => {
    const session = c.get('session');
    const input = await readJson<ChangePasswordInput>(app(c), changePasswordSchema);
    await charge(app(c), `password:user:${session.userId}`, options.perAccount);
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
    setSessionCookie(app(c), fresh!, trusted);
    return ok(app(c), await sessionBody(session.userId, session.accountId, fresh!));
  });

  return router;
}
