/**
 * `/dashboard/api/inbox`: the operator inbox on the session-authenticated dashboard surface (see
 * docs/dashboard-api.md): the list (waiting first, with wait time), take, reply, typing, close, the
 * offline messages, the operator's profile, and the inbox's live events stream. Any signed-in user
 * of the account may act as an operator.
 */
import { Hono } from 'hono';
import type { AppContext, AppEnv } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { pathId, readJson, readQuery } from '../http/validate.ts';
import { requireSession, signedIn } from '../sessions/middleware.ts';
import type { DashboardServices } from '../dashboard/services.ts';
import type { Assignments } from './assignment.ts';
import type { InboxService } from './inbox.ts';
import type { OfflineMessages } from './offline-messages.ts';
import type { OperatorPresences } from './presence.ts';
import { announcePresence } from './presence-routes.ts';
import type { HandoffService, Operator } from './service.ts';
import { accountTopic } from './bus.ts';
import { closeRequestSchema, inboxQuerySchema, noteRequestSchema, offlineReplySchema, operatorProfileInputSchema, operatorReplySchema } from './schema.ts';
import { eventStream, resumePoint } from './stream.ts';

/** What these routes use of the service graph (services.ts builds it). */
export interface InboxRouteDeps {
  handoff: HandoffService;
  inbox: InboxService;
  presences: OperatorPresences;
  assignments: Assignments;
  offlineMessages: OfflineMessages;
  dashboard: DashboardServices;
}

function operatorOf(c: AppContext): Operator {
  const session = signedIn(c);
  return { userId: session.userId, accountId: session.accountId };
}

export function inboxRoutes(deps: InboxRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  // Open inbox streams per user in this process (every dashboard page keeps one open): closing one
  // tab must not take an operator offline while another of their tabs is open here (a tab on another
  // instance re-marks them within 15 s).
  const openStreams = new Map<string, number>();
  // Each operator's presence writes, one after another: a tab opened while the last one's close was
  // still deleting the presence row could be marked online first and then offline by that delete.
  const presenceWrites = new Map<string, Promise<void>>();
  const inOrder = (userId: string, write: () => Promise<void>): Promise<void> => {
    const next = (presenceWrites.get(userId) ?? Promise.resolve()).then(write);
    const settled = next.catch(() => {});
    presenceWrites.set(userId, settled);
    void settled.then(() => presenceWrites.get(userId) === settled && presenceWrites.delete(userId));
    return next;
  };
  const { handoff, inbox, presences } = deps;
  const conversationId = (c: AppContext) => pathId(c, 'conversation_id', 'conv', 'conversation');
  router.use('*', requireSession(deps.dashboard.sessions));

  router.get('/', async (c) => ok(c, { items: await inbox.list(signedIn(c).accountId, readQuery<{ q?: string; label?: string }>(c, inboxQuerySchema)) }));
  router.get('/counts', async (c) => {
    const session = signedIn(c);
    return ok(c, await inbox.counts(session.accountId, session.userId));
  });
  router.get('/offline-messages', async (c) => ok(c, { items: await deps.offlineMessages.list(signedIn(c).accountId) }));
  router.post('/offline-messages/:offline_message_id/reply', async (c) => {
    const input = await readJson<{ subject: string; text: string }>(c, offlineReplySchema);
    return ok(c, await deps.offlineMessages.answer(operatorOf(c), pathId(c, 'offline_message_id', 'ofm', 'offline message'), input));
  });

  router.get('/me', async (c) => ok(c, await handoff.operatorProfile(signedIn(c).userId)));
  router.put('/me', async (c) => {
    const input = await readJson<{ display_name?: string | null; avatar_url?: string | null }>(c, operatorProfileInputSchema);
    return ok(c, await inbox.setProfile(signedIn(c).userId, input));
  });

  router.get('/events', async (c) => {
    const operator = operatorOf(c);
    const { sessionId } = signedIn(c);
    resumePoint(c); // a bad Last-Event-ID is refused before the stream counts
    openStreams.set(operator.userId, (openStreams.get(operator.userId) ?? 0) + 1);
    let connecting = true; // opening a page is activity; a heartbeat only says the page is still open
    return eventStream(c, handoff, {
      accountId: operator.accountId,
      topic: accountTopic(operator.accountId),
      // Their own dashboard reads their presence itself (the operator bar); the stream brings the team's.
      skip: (event) => event.type === 'presence' && (event.data as { user_id: string }).user_id === operator.userId,
      onHeartbeat: async () => {
        const activity = connecting;
        connecting = false;
        // Signed out elsewhere, expired, or removed from the team: the stream ends (and with their
        // last one, their presence), however long the page stays open.
        if (!activity && !(await deps.dashboard.sessions.isLive(sessionId))) throw new Error('the session ended');
        await inOrder(operator.userId, () => presences.touch(operator.accountId, operator.userId, activity));
        if (activity) await announcePresence(deps, operator.accountId, operator.userId); // their dashboard opened
        // An operator whose dashboard opens may be online now; each heartbeat also gives out what a
        // lost trigger (an instance stopped between a change and its drain) left waiting.
        await deps.assignments.drain(operator.accountId);
      },
      onClose: async () => {
        const left = (openStreams.get(operator.userId) ?? 1) - 1;
        if (left > 0) return void openStreams.set(operator.userId, left);
        openStreams.delete(operator.userId);
        // offline only if no tab of theirs opened here meanwhile
        await inOrder(operator.userId, async () => {
          if (openStreams.has(operator.userId)) return;
          await presences.leave(operator.userId);
          await announcePresence(deps, operator.accountId, operator.userId, 'offline');
        });
      },
    });
  });

  router.post('/:conversation_id/take', async (c) => ok(c, await handoff.take(operatorOf(c), conversationId(c))));
  router.post('/:conversation_id/messages', async (c) => {
    const { content, attachments } = await readJson<{ content: string; attachments?: string[] }>(c, operatorReplySchema);
    return ok(c, await handoff.reply(operatorOf(c), conversationId(c), content, attachments), 201);
  });
  // The team's private notes: any conversation of the account, whoever holds it.
  router.get('/:conversation_id/notes', async (c) => ok(c, { items: await handoff.notes(signedIn(c).accountId, conversationId(c)) }));
  router.post('/:conversation_id/notes', async (c) => {
    const { content } = await readJson<{ content: string }>(c, noteRequestSchema);
    return ok(c, await handoff.note(operatorOf(c), conversationId(c), content), 201);
  });
  router.post('/:conversation_id/typing', async (c) => {
    await handoff.typing(operatorOf(c), conversationId(c));
    return ok(c, { conversation_id: conversationId(c), typing: true });
  });
  router.post('/:conversation_id/close', async (c) => {
    const { to } = await readJson<{ to: 'bot' | 'closed' }>(c, closeRequestSchema);
    return ok(c, await handoff.close(operatorOf(c), conversationId(c), to));
  });
  return router;
}
