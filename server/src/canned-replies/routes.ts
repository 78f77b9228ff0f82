/**
 * `/v1/canned-replies`: the texts an account's team inserts in the inbox by shortcut. On /v1, so an
 * API key manages them as the dashboard does through its session passthrough.
 */
import { Hono } from 'hono';
import type { CannedReplyRequest } from '../../../src/client/types.ts';
import { accountId, type AppContext, type AppEnv } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { pathId, readJson } from '../http/validate.ts';
import { cannedReplyInputSchema, cannedReplyUpdateSchema } from './schema.ts';
import type { CannedReplyService } from './service.ts';

/** What these routes use of the service graph (services.ts builds it). */
export interface CannedReplyRouteDeps {
  cannedReplies: CannedReplyService;
}

export function cannedReplyRoutes(deps: CannedReplyRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const { cannedReplies } = deps;
  const replyId = (c: AppContext) => pathId(c, 'canned_reply_id', 'cnr', 'canned reply');

  router.get('/', async (c) => ok(c, { items: await cannedReplies.list(accountId(c)) }));
  router.post('/', async (c) => ok(c, await cannedReplies.create(accountId(c), await readJson<CannedReplyRequest>(c, cannedReplyInputSchema)), 201));
  router.patch('/:canned_reply_id', async (c) => {
    const id = replyId(c);
    return ok(c, await cannedReplies.update(accountId(c), id, await readJson<Partial<CannedReplyRequest>>(c, cannedReplyUpdateSchema)));
  });
  router.delete('/:canned_reply_id', async (c) => ok(c, await cannedReplies.remove(accountId(c), replyId(c))));
  return router;
}
