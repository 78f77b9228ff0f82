/** `/v1/conversations`: the filtered list, one conversation, and its delete (messages go with it). */
import { Hono } from 'hono';
import type { ConversationListQuery, LabelsUpdate } from '../../../src/client/types.ts';
import { accountId, type AppContext, type AppEnv } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { pathId, readJson, readQuery } from '../http/validate.ts';
import type { ConversationService } from './service.ts';
import { labelsUpdateSchema, listConversationsQuerySchema } from './schema.ts';

/** What these routes use of the service graph (services.ts builds it). */
export interface ConversationRouteDeps {
  conversations: ConversationService;
}

export function conversationRoutes(deps: ConversationRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const conversationId = (c: AppContext) => pathId(c, 'conversation_id', 'conv', 'conversation');

  router.get('/', async (c) => {
    const query = readQuery<ConversationListQuery & { limit: number }>(c, listConversationsQuerySchema);
    return ok(c, await deps.conversations.list(accountId(c), query));
  });

  router.get('/:conversation_id', async (c) => ok(c, await deps.conversations.get(accountId(c), conversationId(c))));
  router.delete('/:conversation_id', async (c) => ok(c, await deps.conversations.delete(accountId(c), conversationId(c))));
  router.post('/:conversation_id/labels', async (c) => {
    const id = conversationId(c);
    return ok(c, await deps.conversations.updateLabels(accountId(c), id, await readJson<LabelsUpdate>(c, labelsUpdateSchema)));
  });
  return router;
}
