/**
 * `GET /dashboard/api/inbox/{conversation_id}/visitor`: who the visitor of one of the account's
 * conversations is (what the widget told: page, referrer, locale, time zone, name and email) and
 * their other conversations, newest first (conversations/visitor.ts). Any signed-in user of the
 * account; another account's conversation answers 404 like one that does not exist.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { pathId } from '../http/validate.ts';
import { requireSession, signedIn } from '../sessions/middleware.ts';
import type { ConversationService } from '../conversations/service.ts';
import type { DashboardServices } from '../dashboard/services.ts';

export interface InboxVisitorRouteDeps {
  conversations: Pick<ConversationService, 'visitor'>;
  dashboard: DashboardServices;
}

export function inboxVisitorRoutes(deps: InboxVisitorRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  router.get('/:conversation_id/visitor', requireSession(deps.dashboard.sessions), async (c) => {
    const conversationId = pathId(c, 'conversation_id', 'conv', 'conversation');
    return ok(c, await deps.conversations.visitor(signedIn(c).accountId, conversationId));
  });
  return router;
}
