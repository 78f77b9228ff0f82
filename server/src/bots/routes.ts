/** `/v1/bots`: create, list, read, update (retrains), its model's quality report and "try it", and send a message to a bot. */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import type { ClassifyRequest, CreateBotRequest, UpdateBotRequest } from '../../../src/client/types.ts';
import { accountId, type AppEnv } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { idempotent } from '../http/idempotency.ts';
import { pathId, readJson, readQuery } from '../http/validate.ts';
import type { Database } from '../db/schema.ts';
import type { TurnResponseDeps } from '../turns/respond.ts';
import { answerBotMessage } from './messages.ts';
import { classifyRequestSchema, createBotSchema, listBotsQuerySchema, updateBotSchema } from './schema.ts';
import type { BotService } from './service.ts';

/** What these routes use of the service graph (services.ts builds it). */
export interface BotRouteDeps extends TurnResponseDeps {
  db: Kysely<Database>;
  bots: BotService;
}

export function botRoutes(deps: BotRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();

  router.post('/', idempotent(deps.db), async (c) => {
    const input = await readJson<CreateBotRequest>(c, createBotSchema);
    return ok(c, await deps.bots.create(accountId(c), input), 201);
  });

  router.get('/', async (c) => {
    const query = readQuery<{ limit: number; cursor?: string }>(c, listBotsQuerySchema);
    return ok(c, await deps.bots.list(accountId(c), query));
  });

  router.get('/:bot_id', async (c) => {
    const botId = pathId(c, 'bot_id', 'bot', 'bot');
    return ok(c, await deps.bots.get(accountId(c), botId));
  });

  router.put('/:bot_id', async (c) => {
    const botId = pathId(c, 'bot_id', 'bot', 'bot');
    const input = await readJson<UpdateBotRequest>(c, updateBotSchema);
    return ok(c, await deps.bots.update(accountId(c), botId, input));
  });

  router.delete('/:bot_id', async (c) => {
    const botId = pathId(c, 'bot_id', 'bot', 'bot');
    return ok(c, await deps.bots.delete(accountId(c), botId));
  });

  router.get('/:bot_id/quality', async (c) => {
    const botId = pathId(c, 'bot_id', 'bot', 'bot');
    return ok(c, await deps.bots.quality(accountId(c), botId));
  });

  router.post('/:bot_id/classify', async (c) => {
    const botId = pathId(c, 'bot_id', 'bot', 'bot');
    const { text } = await readJson<ClassifyRequest>(c, classifyRequestSchema);
    return ok(c, await deps.bots.classify(accountId(c), botId, text));
  });

  router.post('/:bot_id/messages', idempotent(deps.db), async (c) => {
    const botId = pathId(c, 'bot_id', 'bot', 'bot');
    return answerBotMessage(c, deps, botId);
  });

  return router;
}
