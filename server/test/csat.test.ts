// Satisfaction (CSAT) on the real service: a visitor rates their conversation once (409
// `csat_already_given` after), credited to the operator who took it; bad input and other visitors'
// or accounts' conversations refused; the bot's settings of when to ask; and the support report's
// numbers (CSAT, first-response and resolution times per operator and per bot) on a fixture with
// known times, without test conversations. PGlite by default; PostgreSQL + Redis with the
// AI_CHAT_TEST_* variables.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Service } from '../src/index.ts';
import { clientFor, shopTraining, type TestClient } from './support/core.ts';
import type { DashboardClient } from './support/dashboard.ts';
import { handoffSetup, openStream, startConversation, type LiveStream } from './support/handoff.ts';
import { createTestService } from './support/test-database.ts';

let service: Service;
let api: TestClient;
let other: TestClient;
let operator: DashboardClient;
let operatorId: string;
let botId: string;
let inbox: LiveStream;
let users = 0;
const nextUser = () => `rater-${++users}`;

before(async () => {
  service = await createTestService();
  ({ api, operator, botId } = await handoffSetup(service));
  other = clientFor(service, (await service.createAccount()).apiKey);
  // an open inbox: this operator is online, so a person can be asked for
  inbox = await openStream(service.fetch, 'http://127.0.0.1/dashboard/api/inbox/events', { cookie: `aicw_session=${operator.cookie}` });
  operatorId = (await operator.call('GET', '/dashboard/api/inbox/me')).body.data.id;
});
after(async () => {
  await inbox?.close();
  await service?.close();
});

const rate = (conversationId: string, body: unknown, client = api) => client.json(`/v1/conversations/${conversationId}/csat`, { method: 'POST', body });
const stateOf = (conversationId: string, query = '', client = api) => client.json(`/v1/conversations/${conversationId}/csat${query}`);

function assertRefused(result: { res: Response; body: any }, status: number, code: string, param?: string) {
  assert.equal(result.res.status, status, JSON.stringify(result.body));
  assert.equal(result.body.success, false);
  assert.equal(result.body.error.code, code, JSON.stringify(result.body));
  if (param) assert.equal(result.body.error.param, param);
}

/** A visitor asks for a person, the operator takes it, answers, and ends it (`to`). */
async function handedOff(userId: string, to: 'bot' | 'closed' = 'closed'): Promise<string> {
  const conversationId = await startConversation(api, botId, userId);
  const asked = await api.json(`/v1/conversations/${conversationId}/handoff`, { method: 'POST', body: { user_id: userId } });
  assert.equal(asked.res.status, 200, JSON.stringify(asked.body));
  assert.equal((await operator.call('POST', `/dashboard/api/inbox/${conversationId}/take`)).status, 200);
  assert.equal((await operator.call('POST', `/dashboard/api/inbox/${conversationId}/messages`, { body: { content: 'Hello, how can I help?' } })).status, 201);
  assert.equal((await operator.call('POST', `/dashboard/api/inbox/${conversationId}/close`, { body: { to } })).status, 200);
  return conversationId;
}

describe('POST /v1/conversations/{conversation_id}/csat', () => {
  it('stores one rating per conversation, credited to the operator who took it; a second one is 409 csat_already_given', async () => {
    const user = nextUser();
    const conversationId = await handedOff(user);
    const before = await stateOf(conversationId, `?user_id=${user}`);
    assert.equal(before.res.status, 200, JSON.stringify(before.body));
    assert.deepEqual(before.body.data, { conversation_id: conversationId, survey: true, moment: 'after_handoff', csat: null });

    const given = await rate(conversationId, { rating: 5, comment: 'Quick and kind.', user_id: user, bot_id: botId });
    assert.equal(given.res.status, 201, JSON.stringify(given.body));
    assert.deepEqual(
      { ...given.body.data, created_at: undefined },
      { conversation_id: conversationId, bot_id: botId, agent_id: null, user_id: user, operator_id: operatorId, rating: 5, comment: 'Quick and kind.', created_at: undefined },
    );
    assertRefused(await rate(conversationId, { rating: 1, user_id: user }), 409, 'csat_already_given', 'conversation_id');
    const after = await stateOf(conversationId, `?user_id=${user}`);
    assert.equal(after.body.data.csat.rating, 5, 'the first rating stands');
  });

  it('refuses a rating outside 1–5, a fraction, a comment over 1,000 characters and unknown fields (400 envelope)', async () => {
    const user = nextUser();
    const conversationId = await startConversation(api, botId, user);
    for (const rating of [0, 6, 3.5, '5', null]) assertRefused(await rate(conversationId, { rating, user_id: user }), 400, 'validation_failed', 'rating');
    assertRefused(await rate(conversationId, { user_id: user }), 400, 'validation_failed', 'rating');
    assertRefused(await rate(conversationId, { rating: 4, comment: 'x'.repeat(1001), user_id: user }), 400, 'validation_failed', 'comment');
    assertRefused(await rate(conversationId, { rating: 4, stars: 4, user_id: user }), 400, 'unknown_parameter', 'stars');
    assertRefused(await rate('conv_nope', { rating: 4 }), 404, 'resource_not_found', 'conversation_id');
    assert.equal((await rate(conversationId, { rating: 4, comment: 'y'.repeat(1000), user_id: user })).res.status, 201);
  });

  it("answers 404 for another visitor's, another bot's or another account's conversation, and stores nothing", async () => {
    const user = nextUser();
    const conversationId = await startConversation(api, botId, user);
    assertRefused(await rate(conversationId, { rating: 1, user_id: 'someone-else' }), 404, 'resource_not_found', 'conversation_id');
    assertRefused(await rate(conversationId, { rating: 1, user_id: user, bot_id: 'bot_0000000000000000' }), 404, 'resource_not_found');
    assertRefused(await rate(conversationId, { rating: 1, user_id: user }, other), 404, 'resource_not_found', 'conversation_id');
    assertRefused(await stateOf(conversationId, `?user_id=${user}`, other), 404, 'resource_not_found');
    assertRefused(await stateOf(conversationId, '?user_id=someone-else'), 404, 'resource_not_found');
    assert.equal((await stateOf(conversationId, `?user_id=${user}`)).body.data.csat, null);
  });
});

describe('when the widget asks: /v1/bots/{bot_id}/csat', () => {
  it('asks after a handoff and not after the bot alone by default; each can be changed; another account gets 404', async () => {
    const botOnly = await startConversation(api, botId, nextUser());
    const withPerson = await handedOff(nextUser(), 'bot');
    assert.deepEqual((await api.json(`/v1/bots/${botId}/csat`)).body.data, { bot_id: botId, after_handoff: true, after_bot: false });
    assert.equal((await stateOf(botOnly)).body.data.survey, false);
    assert.equal((await stateOf(withPerson)).body.data.survey, true);
    // the setting each follows: the widget asks for `after_bot` itself when the visitor closes the panel
    assert.equal((await stateOf(botOnly)).body.data.moment, 'after_bot');
    assert.equal((await stateOf(withPerson)).body.data.moment, 'after_handoff');

    const put = await api.json(`/v1/bots/${botId}/csat`, { method: 'PUT', body: { after_bot: true } });
    assert.deepEqual(put.body.data, { bot_id: botId, after_handoff: true, after_bot: true });
    assert.equal((await stateOf(botOnly)).body.data.survey, true);
    await api.json(`/v1/bots/${botId}/csat`, { method: 'PUT', body: { after_handoff: false } });
    assert.equal((await stateOf(withPerson)).body.data.survey, false);
    assert.deepEqual((await api.json(`/v1/bots/${botId}/csat`)).body.data, { bot_id: botId, after_handoff: false, after_bot: true });

    assertRefused(await api.json(`/v1/bots/${botId}/csat`, { method: 'PUT', body: {} }), 400, 'validation_failed');
    assertRefused(await other.json(`/v1/bots/${botId}/csat`, { method: 'PUT', body: { after_bot: false } }), 404, 'resource_not_found', 'bot_id');
    assertRefused(await other.json(`/v1/bots/${botId}/csat`), 404, 'resource_not_found', 'bot_id');
    await api.json(`/v1/bots/${botId}/csat`, { method: 'PUT', body: { after_handoff: true, after_bot: false } });
  });
});

describe('GET /v1/analytics/support', () => {
  const db = () => service.deps.db;
  const at = (iso: string) => new Date(iso);

  /** Moves a conversation's handoff events to known times, oldest first: status changes and messages. */
  async function retime(conversationId: string, times: string[]): Promise<void> {
    const { rows } = await sql<{ seq: string }>`select seq from handoff_events where conversation_id = ${conversationId} order by seq`.execute(db());
    assert.equal(rows.length, times.length, `events of ${conversationId}`);
    for (const [i, { seq }] of rows.entries()) await sql`update handoff_events set created_at = ${at(times[i]!)} where seq = ${seq}`.execute(db());
  }
  const rateAt = async (conversationId: string, rating: number, time: string, comment?: string) => {
    assert.equal((await rate(conversationId, { rating, ...(comment && { comment }) })).res.status, 201);
    await sql`update conversation_csat set created_at = ${at(time)} where conversation_id = ${conversationId}`.execute(db());
  };

  it('counts CSAT and the response times per operator and per bot, in the range and time zone, without test conversations', async () => {
    // a bot of its own, so the totals are this fixture's
    const bot = await api.json('/v1/bots', { method: 'POST', body: { name: 'Support', training: shopTraining } });
    assert.equal(bot.res.status, 201, JSON.stringify(bot.body));
    const supportBot = bot.body.data.id as string;
    await api.json(`/v1/bots/${supportBot}/handoff`, { method: 'PUT', body: { enabled: true } });
    const saved = botId;
    botId = supportBot;
    try {
      // events of a handed-off conversation: waiting, with_person, the operator's message, closed
      const fast = await handedOff(nextUser());
      await retime(fast, ['2026-03-10T09:00:00Z', '2026-03-10T09:00:30Z', '2026-03-10T09:01:00Z', '2026-03-10T09:05:00Z']); // 60 s, 300 s
      const slow = await handedOff(nextUser(), 'bot');
      await retime(slow, ['2026-03-10T12:00:00Z', '2026-03-10T12:01:00Z', '2026-03-10T12:02:00Z', '2026-03-10T12:10:00Z']); // 120 s, 600 s
      const slowest = await handedOff(nextUser());
      await retime(slowest, ['2026-03-10T15:00:00Z', '2026-03-10T15:01:00Z', '2026-03-10T15:06:00Z', '2026-03-10T15:20:00Z']); // 360 s, 1200 s
      // asked for, never answered: a handoff, not measured
      const unanswered = await startConversation(api, supportBot, nextUser());
      await api.json(`/v1/conversations/${unanswered}/handoff`, { method: 'POST', body: {} });
      await retime(unanswered, ['2026-03-10T16:00:00Z']);
      // the day before (23:30 on the 9th in Berlin, 22:30 UTC): outside the range
      const dayBefore = await handedOff(nextUser());
      await retime(dayBefore, ['2026-03-09T22:30:00Z', '2026-03-09T22:31:00Z', '2026-03-09T22:32:00Z', '2026-03-09T22:33:00Z']);
      // a test conversation counts nowhere
      const test = await handedOff(nextUser());
      await retime(test, ['2026-03-10T10:00:00Z', '2026-03-10T10:00:01Z', '2026-03-10T10:00:02Z', '2026-03-10T10:00:03Z']);
      await rateAt(test, 1, '2026-03-10T10:01:00Z', 'test comment');
      await db().updateTable('conversations').set({ is_test: true }).where('id', '=', test).execute();

      await rateAt(fast, 5, '2026-03-10T09:06:00Z', 'Great help');
      await rateAt(slow, 4, '2026-03-10T12:11:00Z');
      await rateAt(slowest, 2, '2026-03-10T15:21:00Z', 'Took ages');
      await rateAt(dayBefore, 1, '2026-03-09T22:34:00Z', 'outside');
      // a bot-only conversation's rating: the bot's, no operator's
      const botOnly = await startConversation(api, supportBot, nextUser());
      await rateAt(botOnly, 3, '2026-03-10T17:00:00Z');

      const { res, body } = await api.json(`/v1/analytics/support?bot_id=${supportBot}&from=2026-03-10&to=2026-03-10&tz=Europe/Berlin`);
      assert.equal(res.status, 200, JSON.stringify(body));
      const report = body.data;
      assert.equal(report.from, '2026-03-09T23:00:00.000Z');
      assert.deepEqual(report.totals, {
        handoffs: 4,
        csat: { responses: 4, satisfied: 2, satisfied_share: 0.5, mean: 3.5 },
        first_response: { count: 3, mean_seconds: 180, median_seconds: 120 },
        resolution: { count: 3, mean_seconds: 700, median_seconds: 600 },
      });
      assert.equal(report.operators.length, 1);
      assert.equal(report.operators[0].operator_id, operatorId);
      assert.match(report.operators[0].name, /^operator\./);
      assert.deepEqual(report.operators[0].csat, { responses: 3, satisfied: 2, satisfied_share: 0.6667, mean: 3.667 });
      assert.equal(report.operators[0].handoffs, 3);
      assert.deepEqual(report.operators[0].first_response, { count: 3, mean_seconds: 180, median_seconds: 120 });
      assert.deepEqual(report.bots.map((b: { bot_id: string }) => b.bot_id), [supportBot]);
      assert.deepEqual(report.bots[0].resolution, report.totals.resolution);
      assert.deepEqual(
        report.comments.map((c: { conversation_id: string; comment: string; rating: number; operator_id: string }) => [c.conversation_id, c.comment, c.rating, c.operator_id]),
        [[slowest, 'Took ages', 2, operatorId], [fast, 'Great help', 5, operatorId]],
      );

      // the same day in UTC holds the same handoffs; `limit` bounds the lists
      const utc = await api.json(`/v1/analytics/support?bot_id=${supportBot}&from=2026-03-10&to=2026-03-10&limit=1`);
      assert.equal(utc.body.data.totals.handoffs, 4);
      assert.equal(utc.body.data.comments.length, 1, 'limit bounds the comments');
      // another account sees none of it, and not the bot
      assertRefused(await other.json(`/v1/analytics/support?bot_id=${supportBot}`), 404, 'resource_not_found', 'bot_id');
      const others = await other.json('/v1/analytics/support?from=2026-03-01&to=2026-03-31');
      assert.equal(others.body.data.totals.handoffs, 0);
      assert.equal(others.body.data.totals.csat.responses, 0);
      assert.deepEqual(others.body.data.comments, []);
      assertRefused(await api.json('/v1/analytics/support?tz=Mars/Olympus'), 400, 'validation_failed', 'tz');
    } finally {
      botId = saved;
    }
  });
});
