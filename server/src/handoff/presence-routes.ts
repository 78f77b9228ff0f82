/**
 * `/dashboard/api/me/presence`: the signed-in operator's presence (presence.ts). `GET` reads it,
 * `PUT {status}` chooses `online`, `away` or `offline`, and `POST /activity` is the dashboard's
 * heartbeat of a person at work (sent at most about once a minute while they use it), which keeps
 * `online` from showing as `away`.
 */
import { Hono } from 'hono';
import type { PresenceStatus } from '../../../src/dashboard/types.ts';
import type { AppEnv } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { readJson, type JsonSchema } from '../http/validate.ts';
import { requireSession, signedIn } from '../sessions/middleware.ts';
import type { DashboardServices } from '../dashboard/services.ts';
import type { Assignments } from './assignment.ts';
import { PRESENCE_STATUSES, type OperatorPresences } from './presence.ts';

export interface PresenceRouteDeps {
  presences: OperatorPresences;
  /** An operator coming online may take what waits (automatic assignment). */
  assignments: Assignments;
  dashboard: DashboardServices;
}

const presenceInputSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: { status: { enum: [...PRESENCE_STATUSES], description: '`online` takes visitors; `away` and `offline` do not.' } },
};

export function presenceRoutes(deps: PresenceRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const { presences } = deps;
  router.use('*', requireSession(deps.dashboard.sessions));

  router.get('/', async (c) => ok(c, await presences.get(signedIn(c).userId)));
  router.put('/', async (c) => {
    const { status } = await readJson<{ status: PresenceStatus }>(c, presenceInputSchema);
    const session = signedIn(c);
    const presence = await presences.choose(session.accountId, session.userId, status);
    if (presence.status === 'online') await deps.assignments.drain(session.accountId);
    return ok(c, presence);
  });
  router.post('/activity', async (c) => {
    const session = signedIn(c);
    const presence = await presences.active(session.accountId, session.userId);
    if (presence.status === 'online') await deps.assignments.drain(session.accountId); // back from away
    return ok(c, presence);
  });
  return router;
}
