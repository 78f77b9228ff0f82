/**
 * The visitor's side of handoff on /v1 (also reached through a widget token: src/proxy/policy.ts):
 * a bot's handoff settings, a conversation's handoff state, asking for a person, leaving an email
 * while nobody can answer, and the conversation's live events stream. `user_id` / `bot_id` scope a
 * call to the visitor's own conversation (another's answers 404); the proxy forces both.
 */
import { Hono } from 'hono';
import type { HandoffSettingsInput, OfflineMessageRequest } from '../../../src/client/types.ts';
import { accountId, type AppContext, type AppEnv } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { pathId, readJson, readQuery } from '../http/validate.ts';
import type { HandoffService, Visitor } from './service.ts';
import { conversationTopic } from './bus.ts';
import { eventStream } from './stream.ts';
import { eventsQuerySchema, handoffRequestSchema, handoffSettingsInputSchema, offlineMessageRequestSchema, visitorQuerySchema } from './schema.ts';

/** What these routes use of the service graph (services.ts builds it). */
export interface HandoffRouteDeps {
  handoff: HandoffService;
}

type VisitorQuery = { user_id?: string; bot_id?: string };

const toVisitor = (query: VisitorQuery): Visitor => ({ userId: query.user_id, botId: query.bot_id });

/** `/v1/bots/{bot_id}/handoff`: the bot's handoff settings. */
export function botHandoffRoutes(deps: HandoffRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const botId = (c: AppContext) => pathId(c, 'bot_id', 'bot', 'bot');
  router.get('/:bot_id/handoff', async (c) => ok(c, await deps.handoff.settings.get(accountId(c), botId(c))));
  router.put('/:bot_id/handoff', async (c) => {
    const input = await readJson<HandoffSettingsInput>(c, handoffSettingsInputSchema);
    return ok(c, await deps.handoff.settings.put(accountId(c), botId(c), input));
  });
  return router;
}

/** `/v1/conversations/{conversation_id}/handoff…` and `/events`. */
export function conversationHandoffRoutes(deps: HandoffRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const conversationId = (c: AppContext) => pathId(c, 'conversation_id', 'conv', 'conversation');

  router.get('/:conversation_id/handoff', async (c) => {
    const visitor = toVisitor(readQuery<VisitorQuery>(c, visitorQuerySchema));
    return ok(c, await deps.handoff.state(accountId(c), conversationId(c), visitor));
  });

  router.post('/:conversation_id/handoff', async (c) => {
    const visitor = toVisitor(await readJson<VisitorQuery>(c, handoffRequestSchema, { optional: true }));
    return ok(c, await deps.handoff.request(accountId(c), conversationId(c), visitor));
  });

  router.post('/:conversation_id/handoff/typing', async (c) => {
    const visitor = toVisitor(await readJson<VisitorQuery>(c, handoffRequestSchema, { optional: true }));
    await deps.handoff.visitorTyping(accountId(c), conversationId(c), visitor);
    return ok(c, { conversation_id: conversationId(c), typing: true });
  });

  router.post('/:conversation_id/handoff/offline-messages', async (c) => {
    const { user_id, bot_id, ...input } = await readJson<OfflineMessageRequest & VisitorQuery>(c, offlineMessageRequestSchema);
    return ok(c, await deps.handoff.leaveOfflineMessage(accountId(c), conversationId(c), input, toVisitor({ user_id, bot_id })), 201);
  });

  router.get('/:conversation_id/events', async (c) => {
    const query = readQuery<VisitorQuery & { max_seconds?: number }>(c, eventsQuerySchema);
    const account = accountId(c);
    const id = conversationId(c);
    await deps.handoff.conversation(account, id, toVisitor(query)); // 404 before the stream starts
    return eventStream(c, deps.handoff, { accountId: account, conversationId: id, topic: conversationTopic(id), maxSeconds: query.max_seconds });
  });
  return router;
}
