// Test conversations: the bot editor's preview talks to the real bot through the dashboard's
// session passthrough, and what it starts is marked as a test and counts nowhere: not in the usage,
// performance, topics or feedback reports (whole hours from the rollups, partial hours from the raw
// rows, and after a rollup rebuild), and not in the inbox queue. Only the preview's user through a
// session sets the flag: an API key's conversation is real whatever its user id, and so is the
// session's chat as another user.
// PGlite by default; PostgreSQL + Redis with AI_CHAT_TEST_DATABASE_URL / AI_CHAT_TEST_REDIS_URL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../src/index.ts';
import { rebuildRollups } from '../src/analytics/rollups.ts';
import type { TestClient } from './support/core.ts';
import type { DashboardClient } from './support/dashboard.ts';
import { handoffSetup, openStream, startConversation, type LiveStream } from './support/handoff.ts';
import { createTestService } from './support/test-database.ts';

const V1 = '/dashboard/api/v1';
const HOUR_MS = 3_600_000;

let service: Service;
let api: TestClient;
let operator: DashboardClient;
let botId: string;
let inbox: LiveStream;

before(async () => {
  service = await createTestService();
  ({ api, operator, botId } = await handoffSetup(service));
  inbox = await openStream(service.fetch, 'http://127.0.0.1/dashboard/api/inbox/events', { cookie: `aicw_session=${operator.cookie}` });
});
after(async () => {
  inbox?.close();
  await service?.close();
});

/** A visitor's turn: a greeting (an intent) or a question the bot cannot answer (a fallback). */
async function realTurn(userId: string, message: string) {
  const { res, body } = await api.json(`/v1/bots/${botId}/messages`, { method: 'POST', body: { message, user_id: userId } });
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.data;
}

/** The preview's turn: the session passthrough, as the widget in the bot editor sends it. */
async function previewTurn(message: string) {
  const res = await operator.call('POST', `${V1}/bots/${botId}/messages`, { body: { message, user_id: 'dashboard-preview:owner' } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data;
}

/**
 * Everything the reports count, over two ranges: one ending now (the current hour read from the raw
 * rows) and one ending at the next whole hour (the current hour read from the rollups).
 */
async function counted() {
  const now = Date.now();
  const from = new Date(Math.floor(now / HOUR_MS) * HOUR_MS - HOUR_MS).toISOString();
  const ranges = [`from=${from}`, `from=${from}&to=${new Date(Math.ceil((now + 1) / HOUR_MS) * HOUR_MS - 1).toISOString()}`];
  const reports = [];
  for (const range of ranges) {
    const get = async (path: string) => {
      const { res, body } = await api.json(`/v1/analytics/${path}&${range}`);
      assert.equal(res.status, 200, JSON.stringify(body));
      return body.data;
    };
    const usage = await get('usage?granularity=hour');
    const performance = await get('performance?');
    const botPerformance = await get(`performance?bot_id=${botId}`);
    const topics = await get('topics?limit=10');
    const feedback = await get('feedback?granularity=hour&limit=10');
    reports.push({
      conversations: usage.totals.conversations,
      messages: usage.totals.messages,
      series: usage.series.map((b: { conversations: number; messages: number }) => [b.conversations, b.messages]),
      performance: { replies: performance.replies, conversations: performance.conversations, fallback_rate: performance.fallback_rate },
      botPerformance: { replies: botPerformance.replies, conversations: botPerformance.conversations },
      topics: { intents: topics.intents, unanswered: topics.unanswered.map((u: { question: string; count: number }) => [u.question, u.count]) },
      feedback: { totals: feedback.totals, comments: feedback.comments.length, downvoted: feedback.most_downvoted.length },
    });
  }
  return reports;
}

describe('test conversations', () => {
  it('a chat through the dashboard session counts in no report, before and after a rollup rebuild', async () => {
    const real = await realTurn('visitor-real', 'hello');
    await realTurn('visitor-real', 'the flux capacitor is broken');
    const thumbs = await api.json(`/v1/messages/${real.message.id}/feedback`, { method: 'POST', body: { rating: 'down', comment: 'real', user_id: 'visitor-real' } });
    assert.equal(thumbs.res.status, 200, JSON.stringify(thumbs.body));
    const before = await counted();
    assert.equal(before[0]!.conversations, 1);

    const preview = await previewTurn('hello');
    await previewTurn('my toaster speaks latin');
    const rated = await operator.call('POST', `${V1}/messages/${preview.message.id}/feedback`, { body: { rating: 'down', comment: 'only a test', user_id: 'dashboard-preview:owner' } });
    assert.equal(rated.status, 200, JSON.stringify(rated.body));

    // stored and readable like any other conversation
    const transcript = await api.json(`/v1/chat/history?conversation_id=${preview.conversation_id}`);
    assert.equal(transcript.body.data.items.length, 4);
    assert.deepEqual(await counted(), before);

    const accountId = (await service.deps.db.selectFrom('conversations').select('account_id').where('id', '=', preview.conversation_id).executeTakeFirstOrThrow()).account_id;
    await rebuildRollups(service.deps.db, accountId);
    const rebuilt = await counted();
    assert.deepEqual(rebuilt.map((r) => ({ ...r, series: null })), before.map((r) => ({ ...r, series: null })));
  });

  it('only the preview\'s user through a session makes one: not an API key, not the session as another user', async () => {
    const preview = await previewTurn('hello again');
    const keyed = await realTurn('dashboard-preview:someone', 'hello');
    const chat = async (send: () => Promise<{ status: number; body: any }>) => {
      const { status, body } = await send();
      assert.equal(status, 200, JSON.stringify(body));
      return body.data.conversation_id as string;
    };
    const chatBody = (userId: string) => ({ user_id: userId, messages: [{ role: 'user', content: 'hello' }] });
    const keyedChat = await chat(async () => {
      const { res, body } = await api.json('/v1/chat', { method: 'POST', body: chatBody('dashboard-preview') });
      return { status: res.status, body };
    });
    const sessionChat = await chat(() => operator.call('POST', `${V1}/chat`, { body: chatBody('visitor-9') }));
    const sessionPreviewChat = await chat(() => operator.call('POST', `${V1}/chat`, { body: chatBody('dashboard-preview') }));
    const ids = [preview.conversation_id, keyed.conversation_id, keyedChat, sessionChat, sessionPreviewChat];
    const flags = await service.deps.db.selectFrom('conversations').select(['id', 'is_test']).where('id', 'in', ids).execute();
    const flagOf = new Map(flags.map((row) => [row.id, row.is_test]));
    assert.deepEqual(ids.map((id) => flagOf.get(id)), [true, false, false, false, true]);
  });

  it('stays out of the inbox queue when it asks for a person', async () => {
    const realId = await startConversation(api, botId, 'visitor-waiting');
    const asked = await api.json(`/v1/conversations/${realId}/handoff`, { method: 'POST', body: { user_id: 'visitor-waiting' } });
    assert.equal(asked.res.status, 200, JSON.stringify(asked.body));
    const preview = await previewTurn('hello from the editor');
    const previewAsked = await operator.call('POST', `${V1}/conversations/${preview.conversation_id}/handoff`, { body: { user_id: 'dashboard-preview:owner' } });
    assert.equal(previewAsked.status, 200, JSON.stringify(previewAsked.body));

    const queue = await operator.call('GET', '/dashboard/api/inbox');
    assert.equal(queue.status, 200, JSON.stringify(queue.body));
    assert.deepEqual(queue.body.data.items.map((c: { id: string }) => c.id), [realId]);
  });
});
