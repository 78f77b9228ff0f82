/**
 * `/v1/messages/{message_id}/feedback`: give (or change) and take back feedback on an assistant
 * answer; `/v1/conversations/{conversation_id}/feedback`: a conversation's feedback, for its
 * transcript. The report is `GET /v1/analytics/feedback` (mounted with the other reports).
 */
import { Hono } from 'hono';
import type { FeedbackRequest, FeedbackScope } from '../../../src/client/types.ts';
import { accountId, type AppContext, type AppEnv } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { pathId, readJson, readQuery } from '../http/validate.ts';
import type { FeedbackService } from './service.ts';
import { feedbackRequestSchema, feedbackScopeQuerySchema } from './schema.ts';

/** What these routes use of the service graph (services.ts builds it). */
export interface FeedbackRouteDeps {
  feedback: FeedbackService;
}

export function feedbackRoutes(deps: FeedbackRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const messageId = (c: AppContext) => pathId(c, 'message_id', 'msg', 'message');

  router.post('/:message_id/feedback', async (c) => {
    const id = messageId(c);
    const body = await readJson<FeedbackRequest>(c, feedbackRequestSchema);
    return ok(c, await deps.feedback.give(accountId(c), id, body));
  });
  router.delete('/:message_id/feedback', async (c) => {
    const id = messageId(c);
    const scope = readQuery<FeedbackScope>(c, feedbackScopeQuerySchema);
    return ok(c, await deps.feedback.remove(accountId(c), id, scope));
  });
  return router;
}

/** Mounted under `/v1/conversations`. */
export function conversationFeedbackRoutes(deps: FeedbackRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  router.get('/:conversation_id/feedback', async (c) =>
    ok(c, await deps.feedback.forConversation(accountId(c), pathId(c, 'conversation_id', 'conv', 'conversation'))),
  );
  return router;
}
