/**
 * Assignment of conversations on /v1 (assignment.ts): `GET/PUT /v1/assignment` (automatic or not,
 * operators' capacities) and `PUT/DELETE /v1/conversations/{conversation_id}/assignment` (assign or
 * transfer to a teammate, unassign). The dashboard reaches them with its session through
 * `/dashboard/api/v1`, as the inbox's labels and canned replies; a widget token never does.
 */
import { Hono } from 'hono';
import type { AssignmentSettingsInput, AssignRequest } from '../../../src/client/types.ts';
import { accountId, type AppContext, type AppEnv } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { pathId, readJson } from '../http/validate.ts';
import type { Assignments } from './assignment.ts';
import { assignmentSettingsInputSchema, assignRequestSchema } from './schema.ts';

/** What these routes use of the service graph (services.ts builds it). */
export interface AssignmentRouteDeps {
  assignments: Assignments;
}

/** `/v1/assignment`. */
export function assignmentRoutes(deps: AssignmentRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  router.get('/', async (c) => ok(c, await deps.assignments.settings(accountId(c))));
  router.put('/', async (c) => {
    const input = await readJson<AssignmentSettingsInput>(c, assignmentSettingsInputSchema);
    return ok(c, await deps.assignments.update(accountId(c), input));
  });
  return router;
}

/** `/v1/conversations/{conversation_id}/assignment`. */
export function conversationAssignmentRoutes(deps: AssignmentRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const conversationId = (c: AppContext) => pathId(c, 'conversation_id', 'conv', 'conversation');
  router.put('/:conversation_id/assignment', async (c) => {
    const id = conversationId(c);
    const { operator_id } = await readJson<AssignRequest>(c, assignRequestSchema);
    return ok(c, await deps.assignments.assign(accountId(c), id, operator_id));
  });
  router.delete('/:conversation_id/assignment', async (c) => ok(c, await deps.assignments.unassign(accountId(c), conversationId(c))));
  return router;
}
