/**
 * Satisfaction (CSAT) on /v1: `/conversations/{id}/csat` (a visitor rates their conversation once;
 * whether to ask, and the rating given), `/bots/{id}/csat` (when the widget asks). The report is
 * `GET /v1/analytics/support` (mounted with the other reports, analytics/routes.ts).
 */
import { Hono } from 'hono';
import type { CsatRequest, CsatSettingsInput } from '../../../src/client/types.ts';
import { accountId, type AppContext, type AppEnv } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { pathId, readJson, readQuery } from '../http/validate.ts';
import { visitorQuerySchema } from '../handoff/schema.ts';
import type { CsatService } from './service.ts';
import { csatRequestSchema, csatSettingsInputSchema } from './schema.ts';

/** What these routes use of the service graph (services.ts builds it). */
export interface CsatRouteDeps {
  csat: CsatService;
}

/** Mounted under `/v1/conversations`. */
export function conversationCsatRoutes(deps: CsatRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const conversationId = (c: AppContext) => pathId(c, 'conversation_id', 'conv', 'conversation');
  router.get('/:conversation_id/csat', async (c) => {
    const id = conversationId(c);
    const query = readQuery<{ user_id?: string; bot_id?: string }>(c, visitorQuerySchema);
    return ok(c, await deps.csat.state(accountId(c), id, { userId: query.user_id, botId: query.bot_id }));
  });
  router.post('/:conversation_id/csat', async (c) => {
    const id = conversationId(c);
    const body = await readJson<CsatRequest>(c, csatRequestSchema);
    return ok(c, await deps.csat.give(accountId(c), id, body), 201);
  });
  return router;
}

/** Mounted under `/v1/bots`. */
export function botCsatRoutes(deps: CsatRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const botId = (c: AppContext) => pathId(c, 'bot_id', 'bot', 'bot');
  router.get('/:bot_id/csat', async (c) => ok(c, await deps.csat.settings(accountId(c), botId(c))));
  router.put('/:bot_id/csat', async (c) => {
    const id = botId(c);
    const input = await readJson<CsatSettingsInput>(c, csatSettingsInputSchema);
    return ok(c, await deps.csat.putSettings(accountId(c), id, input));
  });
  return router;
}
