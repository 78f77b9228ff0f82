/** `/dashboard/api/teammates` and `/dashboard/api/invites`: everyone sees the team; owners manage it. */
import { Hono } from 'hono';
import type { AppContext } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { ServiceError } from '../http/errors.ts';
import { pathId, readJson } from '../http/validate.ts';
import { ownersOnly, ownOrigin, requireSession, type DashboardEnv } from '../sessions/middleware.ts';
import type { Deps } from '../services.ts';
import { DEFAULT_INVITE_HOURS } from './invites.ts';
import { createInviteSchema, updateTeammateSchema, type CreateInviteInput } from './schema.ts';

export function teamRoutes(deps: Deps): Hono<DashboardEnv> {
  const router = new Hono<DashboardEnv>();
  const { users, invites, sessions, options } = deps.dashboard;
  const app = (c: unknown) => c as AppContext;
  const manage = ownersOnly('manage teammates and invites');

  // '/x/*' also matches '/x'. Not '*': this router shares its mount point with the sign-in routes.
  router.use('/teammates/*', requireSession(sessions));
  router.use('/invites/*', requireSession(sessions));

  router.get('/teammates', async (c) => ok(app(c), { items: await users.list(c.get('session').accountId) }));

  router.patch('/teammates/:user_id', manage, async (c) => {
    const userId = pathId(app(c), 'user_id', 'usr', 'teammate');
    const { role } = await readJson<{ role: 'owner' | 'member' }>(app(c), updateTeammateSchema);
    return ok(app(c), await users.setRole(c.get('session').accountId, userId, role));
  });

  router.delete('/teammates/:user_id', manage, async (c) => {
    const userId = pathId(app(c), 'user_id', 'usr', 'teammate');
    await users.remove(c.get('session').accountId, userId);
    return ok(app(c), { id: userId, deleted: true });
  });

  router.get('/invites', manage, async (c) => ok(app(c), { items: await invites.pending(c.get('session').accountId) }));

  router.post('/invites', manage, async (c) => {
    const input = await readJson<CreateInviteInput>(app(c), createInviteSchema, { optional: true });
    if (options.signup === 'closed') {
      throw new ServiceError('signup_not_allowed', 'Sign-up is closed on this service, so invites cannot be used.');
    }
    const session = c.get('session');
    const { invite, token } = await invites.create(
      session.accountId,
      session.userId,
      input.role ?? 'member',
      input.expires_in_hours ?? DEFAULT_INVITE_HOURS,
    );
    c.header('Cache-Control', 'no-store');
    // The token rides in the fragment: browsers never send it to a server, so no log or Referer sees it.
    const url = `${ownOrigin(app(c), deps.config.trustedProxies)}/dashboard/#invite=${token}`;
    return ok(app(c), { invite, token, url }, 201);
  });

  router.delete('/invites/:invite_id', manage, async (c) => {
    const inviteId = pathId(app(c), 'invite_id', 'inv', 'pending invite');
    await invites.revoke(c.get('session').accountId, inviteId);
    return ok(app(c), { id: inviteId, deleted: true });
  });

  return router;
}
