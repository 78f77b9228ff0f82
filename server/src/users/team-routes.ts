/** `/dashboard/api/teammates` and `/dashboard/api/invites`: everyone sees the team (with each one's presence); owners manage it. */
import { Hono } from 'hono';
import type { Teammate } from '../../../src/dashboard/types.ts';
import type { AppEnv } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { ServiceError } from '../http/errors.ts';
import { pathId, readJson } from '../http/validate.ts';
import { ownersOnly, ownOrigin, requireSession, signedIn } from '../sessions/middleware.ts';
import type { ServiceConfig } from '../config.ts';
import type { DashboardServices } from '../dashboard/services.ts';
import type { OperatorPresences } from '../handoff/presence.ts';
import { DEFAULT_INVITE_HOURS } from './invites.ts';
import { createInviteSchema, updateTeammateSchema, type CreateInviteInput } from './schema.ts';

/** What these routes use of the service graph (services.ts builds it). */
export interface TeamRouteDeps {
  config: Pick<ServiceConfig, 'trustedProxies'>;
  dashboard: DashboardServices;
  presences: Pick<OperatorPresences, 'ofAccount'>;
}

export function teamRoutes(deps: TeamRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const { users, invites, sessions, options } = deps.dashboard;
  const manage = ownersOnly('manage teammates and invites');

  // '/x/*' also matches '/x'. Not '*': this router shares its mount point with the sign-in routes.
  router.use('/teammates/*', requireSession(sessions));
  router.use('/invites/*', requireSession(sessions));

  router.get('/teammates', async (c) => {
    const accountId = signedIn(c).accountId;
    const [team, presence] = await Promise.all([users.list(accountId), deps.presences.ofAccount(accountId)]);
    const items: Teammate[] = team.map((user) => ({ ...user, presence: presence.get(user.id) ?? 'offline' }));
    return ok(c, { items });
  });

  router.patch('/teammates/:user_id', manage, async (c) => {
    const userId = pathId(c, 'user_id', 'usr', 'teammate');
    const { role } = await readJson<{ role: 'owner' | 'member' }>(c, updateTeammateSchema);
    return ok(c, await users.setRole(signedIn(c).accountId, userId, role));
  });

  router.delete('/teammates/:user_id', manage, async (c) => {
    const userId = pathId(c, 'user_id', 'usr', 'teammate');
    await users.remove(signedIn(c).accountId, userId);
    return ok(c, { id: userId, deleted: true });
  });

  router.get('/invites', manage, async (c) => ok(c, { items: await invites.pending(signedIn(c).accountId) }));

  router.post('/invites', manage, async (c) => {
    const input = await readJson<CreateInviteInput>(c, createInviteSchema, { optional: true });
    if (options.signup === 'closed') {
      throw new ServiceError('signup_not_allowed', 'Sign-up is closed on this service, so invites cannot be used.');
    }
    const session = signedIn(c);
    const { invite, token } = await invites.create(
      session.accountId,
      session.userId,
      input.role ?? 'member',
      input.expires_in_hours ?? DEFAULT_INVITE_HOURS,
    );
    c.header('Cache-Control', 'no-store');
    // The token rides in the fragment: browsers never send it to a server, so no log or Referer sees it.
    const url = `${ownOrigin(c, deps.config.trustedProxies)}/dashboard/#invite=${token}`;
    return ok(c, { invite, token, url }, 201);
  });

  router.delete('/invites/:invite_id', manage, async (c) => {
    const inviteId = pathId(c, 'invite_id', 'inv', 'pending invite');
    await invites.revoke(signedIn(c).accountId, inviteId);
    return ok(c, { id: inviteId, deleted: true });
  });

  return router;
}
