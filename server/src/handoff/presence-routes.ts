/**
 * `/dashboard/api/me/presence`: the signed-in operator's presence (presence.ts). `GET` reads it,
 * `PUT {status}` chooses `online`, `away` or `offline`, and `POST /activity` is the dashboard's
 * heartbeat of a person at work (sent at most about once a minute while they use it), which keeps
 * `online` from showing as `away`. Each change is told to the account's inbox streams as a
 * `presence` event (the Team page follows it).
 */
import { Hono } from 'hono';
import type { PresenceStatus } from '../../../src/dashboard/types.ts';
import type { AppEnv } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { readJson, type JsonSchema } from '../http/validate.ts';
import { requireSession, signedIn } from '../sessions/middleware.ts';
import type { DashboardServices } from '../dashboard/services.ts';
import type { Assignments } from './assignment.ts';
import { accountTopic } from './bus.ts';
import { PRESENCE_STATUSES, type OperatorPresences } from './presence.ts';
import type { HandoffService } from './service.ts';

export interface PresenceRouteDeps {
  presences: OperatorPresences;
  /** An operator coming online may take what waits (automatic assignment). */
  assignments: Assignments;
  dashboard: DashboardServices;
  handoff: Pick<HandoffService, 'bus'>;
}

/**
 * Tells the account's inbox streams what an operator shows now. Not stored (like typing): a stream
 * that missed one reads the team again when it reconnects. An idle `online` turning `away` is a rule
 * of the clock, not a change, so it sends nothing.
 */
export async function announcePresence(deps: Pick<PresenceRouteDeps, 'presences' | 'handoff'>, accountId: string, userId: string, status?: PresenceStatus): Promise<void> {
  const shown = status ?? (await deps.presences.get(userId)).status;
  deps.handoff.bus.publish([accountTopic(accountId)], { type: 'presence', id: null, data: { user_id: userId, status: shown } });
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
    await announcePresence(deps, session.accountId, session.userId, presence.status);
    if (presence.status === 'online') await deps.assignments.drain(session.accountId);
    return ok(c, presence);
  });
  router.post('/activity', async (c) => {
    const session = signedIn(c);
    const before = await presences.get(session.userId);
    const presence = await presences.active(session.accountId, session.userId);
    if (presence.status !== before.status) await announcePresence(deps, session.accountId, session.userId, presence.status);
    if (presence.status === 'online') await deps.assignments.drain(session.accountId); // back from away
    return ok(c, presence);
  });
  return router;
}
