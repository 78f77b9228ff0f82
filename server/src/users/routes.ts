/**
 * `/dashboard/api`: sign-up, sign-in, sign-out, the signed-in user, and password change.
 *
 * Sign-in limits failed attempts, so that guessing is slow but nobody can lock a user out from
 * everywhere: per client address (an IPv6 /64), per email and address, and per email (whether or
 * not the email is known) for devices the user never signed in from. A browser with the user's
 * device cookie (devices.ts) is counted per device instead of per email. A right password gives
 * its attempt back and starts its email-and-address count over. Sign-up is limited per address.
 * All of it uses the service's shared limiter: exact across instances with Redis.
 */
import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import type { Kysely } from 'kysely';
import type { RateLimitPlan, RateLimits } from '../rate-limit/limiter.ts';
import { addressGroup, clientAddress } from '../http/client-ip.ts';
import type { AppContext, AppEnv } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { ServiceError } from '../http/errors.ts';
import { readJson } from '../http/validate.ts';
import type { NewSession } from '../sessions/service.ts';
import { clearSessionCookie, requireSession, sessionToken, setSessionCookie, signedIn } from '../sessions/middleware.ts';
import type { ServiceConfig } from '../config.ts';
import type { DashboardServices } from '../dashboard/services.ts';
import type { Database } from '../db/schema.ts';
import { DEVICE_COOKIE, deviceTokenUser, issueDeviceToken, setDeviceCookie, verifiedDevice } from './devices.ts';
import {
  changePasswordSchema,
  normalizeEmail,
  signInSchema,
  signUpSchema,
  type ChangePasswordInput,
  type SignInInput,
  type SignUpInput,
} from './schema.ts';

/** What these routes use of the service graph (services.ts builds it). */
export interface AuthRouteDeps {
  db: Kysely<Database>;
  config: Pick<ServiceConfig, 'trustedProxies'>;
  rateLimits: RateLimits;
  dashboard: DashboardServices;
}

type Budget = [bucket: string, plan: RateLimitPlan];

export function authRoutes(deps: AuthRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const { users, sessions, options, installAccountId } = deps.dashboard;
  const trusted = deps.config.trustedProxies;

  /** Rate-limit buckets are per install (its first account id): two installs sharing a Redis do not share them. */
  const bucketKey = (bucket: string) => `dash:${installAccountId}:${bucket}`;
  async function charge(...budgets: [bucket: string, plan: RateLimitPlan][]): Promise<void> {
    const result = await deps.rateLimits.consumeEach(budgets.map(([bucket, plan]) => [bucketKey(bucket), plan] as const));
    if (!result.allowed) {
      throw new ServiceError('rate_limited', `Too many attempts; retry in ${result.retryAfterSeconds} s.`, {
        headers: { 'Retry-After': String(result.retryAfterSeconds) },
      });
    }
  }
  const address = (c: AppContext) => addressGroup(clientAddress(c.req.raw.headers, c.env, trusted) ?? 'unknown');
  const emailBucket = (email: string) => createHash('sha256').update(normalizeEmail(email)).digest('hex');

  const reward = ([bucket, plan]: Budget) => deps.rateLimits.reward(bucketKey(bucket), plan);

  /** The device id of this browser's device cookie when it is valid for `email`'s user, else null. */
  async function knownDevice(c: AppContext, email: string): Promise<string | null> {
    const token = getCookie(c, DEVICE_COOKIE);
    const userId = deviceTokenUser(token);
    const key = userId && (await users.deviceKey(userId, email));
    return key ? verifiedDevice(token!, key) : null;
  }

  /** Sets this browser's device cookie, signed with the user's password hash as it is now. */
  async function rememberDevice(c: AppContext, userId: string): Promise<void> {
    const key = await users.deviceKey(userId);
    if (key) setDeviceCookie(c, issueDeviceToken(userId, key), trusted);
  }

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
    await charge([`signup:ip:${address(c)}`, options.perAddress]);
    let session: NewSession | undefined;
    const user = await users.signUp(input, async (trx, userId) => {
      session = await sessions.create(userId, trx);
    });
    await sessions.end(sessionToken(c));
    setSessionCookie(c, session!, trusted);
    await rememberDevice(c, user.id);
    return ok(c, await sessionBody(user.id, user.accountId, session!), 201);
  });

  router.post('/signin', async (c) => {
    const input = await readJson<SignInInput>(c, signInSchema);
    const email = emailBucket(input.email);
    const from = address(c);
    const device = await knownDevice(c, input.email);
    const perAddress: Budget = [`signin:ip:${from}`, options.perAddress];
    const perEmailAddress: Budget = [`signin:email-ip:${email}:${from}`, options.perEmailAddress];
    const perEmailOrDevice: Budget = device
      ? [`signin:device:${device}`, options.perEmailAddress]
      : [`signin:email:${email}`, options.perAccount];
    await charge(perAddress, perEmailAddress, perEmailOrDevice);
    const user = await users.verify(input.email, input.password);
    // A right password is no guess: its attempt is given back, and its email and address start over.
    await Promise.all([
      reward(perAddress),
      deps.rateLimits.reset(bucketKey(perEmailAddress[0]), perEmailAddress[1]),
      device ? deps.rateLimits.reset(bucketKey(perEmailOrDevice[0]), perEmailOrDevice[1]) : reward(perEmailOrDevice),
    ]);
    await rememberDevice(c, user.id);
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
    await charge([`password:user:${session.userId}`, options.perAccount]);
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
    await rememberDevice(c, session.userId); // the new password hash revoked the one it had
    return ok(c, await sessionBody(session.userId, session.accountId, fresh!));
  });

  return router;
}
