// Feedback on answers: POST /v1/messages/{id}/feedback is idempotent per message
// and rater and changeable, DELETE takes it back, only the conversation's own user may rate its
// assistant messages, and GET /v1/analytics/feedback counts it per bucket, bot and agent, with the
// answers most downvoted. All over the real service and a real database.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clientFor, startTestService, type TestClient } from './support/core.ts';

let api: TestClient;
let other: TestClient;

before(async () => {
  api = await startTestService();
  other = clientFor(api.service, (await api.service.createAccount()).apiKey);
});
after(() => api.service.close());

/** One chat turn; returns the stored user and assistant message ids and the conversation. */
async function turn(client: TestClient, body: Record<string, unknown>) {
  const { res, body: reply } = await client.json('/v1/chat', { method: 'POST', body: { messages: [{ role: 'user', content: 'Where is my parcel?' }], ...body } });
  assert.equal(res.status, 200, JSON.stringify(reply));
  return { answer: reply.data.message.id as string, conversation: reply.data.conversation_id as string };
}

/** One bot turn: the untrained bot's stock fallback, the same text in every conversation. */
async function botTurn(botId: string, userId: string, client = api) {
  const { res, body } = await client.json(`/v1/bots/${botId}/messages`, { method: 'POST', body: { message: 'hello?', user_id: userId } });
  assert.equal(res.status, 200, JSON.stringify(body));
  return { answer: body.data.message.id as string, question: body.data.user_message.id as string, conversation: body.data.conversation_id as string };
}

async function createBot(client: TestClient, name: string): Promise<string> {
  const { res, body } = await client.json('/v1/bots', { method: 'POST', body: { name } });
  assert.equal(res.status, 201, JSON.stringify(body));
  return body.data.id;
}

const give = (messageId: string, body: unknown, client = api) =>
  client.json(`/v1/messages/${messageId}/feedback`, { method: 'POST', body });
const take = (messageId: string, query = '', client = api) =>
  client.json(`/v1/messages/${messageId}/feedback${query}`, { method: 'DELETE' });

function assertRefused(result: { res: Response; body: any }, status: number, code: string, param?: string) {
  assert.equal(result.res.status, status, JSON.stringify(result.body));
  assert.equal(result.body.success, false);
  assert.equal(result.body.error.code, code, JSON.stringify(result.body));
  if (param) assert.equal(result.body.error.param, param);
}

describe('POST /v1/messages/{message_id}/feedback', () => {
  it('stores feedback once per message and user: given again it is replaced, reason and comment included', async () => {
    const { answer, conversation } = await turn(api, { user_id: 'rater-1' });
    const first = await give(answer, { rating: 'down', reason: 'incorrect', comment: 'The parcel was not late.', user_id: 'rater-1' });
    assert.equal(first.res.status, 200, JSON.stringify(first.body));
    assert.deepEqual(
      { ...first.body.data, created_at: undefined, updated_at: undefined },
      {
        message_id: answer, conversation_id: conversation, user_id: 'rater-1', bot_id: null, agent_id: null,
        rating: 'down', reason: 'incorrect', comment: 'The parcel was not late.', created_at: undefined, updated_at: undefined,
      },
    );
    // the same call again: the same answer (idempotent)
    const again = await give(answer, { rating: 'down', reason: 'incorrect', comment: 'The parcel was not late.', user_id: 'rater-1' });
    assert.equal(again.body.data.rating, 'down');
    assert.equal(again.body.data.created_at, first.body.data.created_at);
    // changed: a thumbs up without reason or comment replaces both
    const changed = await give(answer, { rating: 'up', user_id: 'rater-1' });
    assert.equal(changed.res.status, 200);
    assert.deepEqual([changed.body.data.rating, changed.body.data.reason, changed.body.data.comment], ['up', null, null]);
    assert.equal(changed.body.data.created_at, first.body.data.created_at);
    assert.ok(changed.body.data.updated_at >= first.body.data.updated_at);
    const rows = await api.service.deps.db.selectFrom('message_feedback').selectAll().where('message_id', '=', answer).execute();
    assert.equal(rows.length, 1, 'one row per message and user');
  });

  it('refuses a reason with a thumbs up, an unknown reason, a long comment and unknown fields (400 envelope)', async () => {
    const { answer } = await turn(api, { user_id: 'rater-2' });
    assertRefused(await give(answer, { rating: 'up', reason: 'incorrect', user_id: 'rater-2' }), 400, 'validation_failed', 'reason');
    assertRefused(await give(answer, { rating: 'down', reason: 'rude', user_id: 'rater-2' }), 400, 'validation_failed', 'reason');
    assertRefused(await give(answer, { rating: 'meh', user_id: 'rater-2' }), 400, 'validation_failed', 'rating');
    assertRefused(await give(answer, { user_id: 'rater-2' }), 400, 'validation_failed', 'rating');
    assertRefused(await give(answer, { rating: 'down', comment: 'x'.repeat(1001), user_id: 'rater-2' }), 400, 'validation_failed', 'comment');
    assertRefused(await give(answer, { rating: 'down', stars: 5, user_id: 'rater-2' }), 400, 'unknown_parameter', 'stars');
    const longest = await give(answer, { rating: 'down', comment: 'x'.repeat(1000), user_id: 'rater-2' });
    assert.equal(longest.res.status, 200, JSON.stringify(longest.body));
  });

  it('answers 404 for a user message, another user, another bot, another account and ids that do not exist', async () => {
    const botId = await createBot(api, 'Feedback scope bot');
    const { answer, question } = await botTurn(botId, 'owner-1');
    const otherBot = await createBot(api, 'Another bot');
    assertRefused(await give(question, { rating: 'up', user_id: 'owner-1' }), 404, 'resource_not_found', 'message_id');
    assertRefused(await give(answer, { rating: 'up', user_id: 'someone-else' }), 404, 'resource_not_found', 'message_id');
    assertRefused(await give(answer, { rating: 'up' }), 404, 'resource_not_found', 'message_id');
    assertRefused(await give(answer, { rating: 'up', user_id: 'owner-1', bot_id: otherBot }), 404, 'resource_not_found', 'message_id');
    assertRefused(await give(answer, { rating: 'up', user_id: 'owner-1' }, other), 404, 'resource_not_found', 'message_id');
    assertRefused(await give('msg_doesnotexist0001', { rating: 'up', user_id: 'owner-1' }), 404, 'resource_not_found', 'message_id');
    assertRefused(await give('not-an-id', { rating: 'up', user_id: 'owner-1' }), 404, 'resource_not_found', 'message_id');
    const own = await give(answer, { rating: 'up', user_id: 'owner-1', bot_id: botId });
    assert.equal(own.res.status, 200, JSON.stringify(own.body));
    assert.equal(own.body.data.bot_id, botId);
    // a conversation without a user is rated without user_id
    const anonymous = await turn(api, {});
    assert.equal((await give(anonymous.answer, { rating: 'down' })).res.status, 200);
    assertRefused(await give(anonymous.answer, { rating: 'down', user_id: 'owner-1' }), 404, 'resource_not_found', 'message_id');
  });

  it('DELETE takes the feedback back; a second DELETE and another user answer 404', async () => {
    const { answer } = await turn(api, { user_id: 'rater-3' });
    assert.equal((await give(answer, { rating: 'down', user_id: 'rater-3' })).res.status, 200);
    assertRefused(await take(answer, '?user_id=rater-4'), 404, 'resource_not_found', 'message_id');
    assertRefused(await take(answer, '?user_id=rater-3', other), 404, 'resource_not_found', 'message_id');
    assertRefused(await take(answer, '?user_id=rater-3&color=red'), 400, 'unknown_parameter', 'color');
    const removed = await take(answer, '?user_id=rater-3');
    assert.equal(removed.res.status, 200, JSON.stringify(removed.body));
    assert.deepEqual(removed.body.data, { id: answer, deleted: true, conversations: 0, messages: 0 });
    assertRefused(await take(answer, '?user_id=rater-3'), 404, 'resource_not_found', 'message_id');
    // and it can be given again
    assert.equal((await give(answer, { rating: 'up', user_id: 'rater-3' })).res.status, 200);
  });
});

describe('GET /v1/analytics/feedback', () => {
  it('counts per day, per bot and agent, the reasons, and the answers with the most thumbs down', async () => {
    const account = clientFor(api.service, (await api.service.createAccount()).apiKey);
    const botA = await createBot(account, 'Bot A');
    const botB = await createBot(account, 'Bot B');
    const turnsA = [];
    for (const user of ['a1', 'a2', 'a3', 'a4']) turnsA.push({ user, ...(await botTurn(botA, user, account)) });
    const turnB = { user: 'b1', ...(await botTurn(botB, 'b1', account)) };
    // three thumbs down on bot A's stock answer (in three conversations), one up; one down on B
    await giveOk(account, turnsA[0]!, { rating: 'down', reason: 'not_helpful' });
    await giveOk(account, turnsA[1]!, { rating: 'down', reason: 'not_helpful' });
    await giveOk(account, turnsA[2]!, { rating: 'up' });
    await giveOk(account, turnsA[2]!, { rating: 'down', reason: 'incorrect' }); // changed: counted once, as down
    await giveOk(account, turnsA[3]!, { rating: 'up' });
    await giveOk(account, turnB, { rating: 'down' });

    const { res, body } = await account.json('/v1/analytics/feedback');
    assert.equal(res.status, 200, JSON.stringify(body));
    const report = body.data;
    assert.deepEqual(report.totals, { up: 1, down: 4 });
    assert.equal(report.granularity, 'day');
    assert.equal(report.series.length, 8, 'every day of the default 7-day range');
    assert.deepEqual(report.series.at(-1).up + report.series.at(-1).down, 5, 'all of it today');
    assert.deepEqual(report.owners, [
      { bot_id: botA, agent_id: null, up: 1, down: 3 },
      { bot_id: botB, agent_id: null, up: 0, down: 1 },
    ]);
    assert.deepEqual(report.reasons, [
      { reason: 'not_helpful', count: 2 },
      { reason: 'incorrect', count: 1 },
    ]);
    const stock = (await account.json(`/v1/chat/history?conversation_id=${turnsA[0]!.conversation}`)).body.data.items.at(-1).content;
    const top = report.most_downvoted[0];
    // bot B's fallback is the same stock text as bot A's: one answer, downvoted 4 times
    assert.equal(top.answer, stock.slice(0, 500));
    assert.equal(top.down, 4);
    assert.equal(top.up, 1);
    assert.equal(top.message_id, turnB.answer, 'the latest downvoted message');
    assert.equal(top.conversation_id, turnB.conversation);

    const onlyB = (await account.json(`/v1/analytics/feedback?bot_id=${botB}&granularity=hour`)).body.data;
    assert.deepEqual(onlyB.totals, { up: 0, down: 1 });
    assert.deepEqual(onlyB.owners, [{ bot_id: botB, agent_id: null, up: 0, down: 1 }]);
    assert.equal(onlyB.most_downvoted[0].down, 1);

    // feedback goes with its conversation
    assert.equal((await account.json(`/v1/conversations/${turnB.conversation}`, { method: 'DELETE' })).res.status, 200);
    const after = (await account.json('/v1/analytics/feedback')).body.data;
    assert.deepEqual(after.totals, { up: 1, down: 3 });
    assert.equal(after.most_downvoted[0].message_id, turnsA[2]!.answer);

    // nothing leaks into another account's report
    assert.deepEqual((await other.json('/v1/analytics/feedback')).body.data.totals, { up: 0, down: 0 });
  });

  it('refuses a bot of another account (404) and bad ranges (400)', async () => {
    const foreignBot = await createBot(other, 'Foreign');
    assertRefused(await api.json(`/v1/analytics/feedback?bot_id=${foreignBot}`), 404, 'resource_not_found', 'bot_id');
    assertRefused(await api.json('/v1/analytics/feedback?from=2026-02-01&to=2026-01-01'), 400, 'validation_failed', 'from');
    assertRefused(await api.json('/v1/analytics/feedback?limit=0'), 400, 'validation_failed', 'limit');
  });
});

describe("visitors' comments", () => {
  it('the report lists the newest comments with rating, reason, answer, conversation, bot and time; capped by limit', async () => {
    const account = clientFor(api.service, (await api.service.createAccount()).apiKey);
    const bot = await createBot(account, 'Commented');
    const turns = [];
    for (const user of ['c1', 'c2', 'c3']) turns.push({ user, ...(await botTurn(bot, user, account)) });
    await giveOk(account, turns[0]!, { rating: 'down', reason: 'incorrect', comment: 'My parcel was not late.' });
    await giveOk(account, turns[1]!, { rating: 'up' }); // no comment: not listed
    await giveOk(account, turns[2]!, { rating: 'up', comment: 'Quick and right.' });
    const stock = (await account.json(`/v1/chat/history?conversation_id=${turns[0]!.conversation}`)).body.data.items.at(-1).content;

    const { res, body } = await account.json('/v1/analytics/feedback');
    assert.equal(res.status, 200, JSON.stringify(body));
    const comments = body.data.comments;
    assert.deepEqual(
      comments.map((c: Record<string, unknown>) => ({ ...c, updated_at: typeof c.updated_at })),
      [
        { message_id: turns[2]!.answer, conversation_id: turns[2]!.conversation, bot_id: bot, agent_id: null, rating: 'up', reason: null, comment: 'Quick and right.', answer: stock.slice(0, 500), updated_at: 'string' },
        { message_id: turns[0]!.answer, conversation_id: turns[0]!.conversation, bot_id: bot, agent_id: null, rating: 'down', reason: 'incorrect', comment: 'My parcel was not late.', answer: stock.slice(0, 500), updated_at: 'string' },
      ],
      'newest first',
    );
    assert.deepEqual((await account.json('/v1/analytics/feedback?limit=1')).body.data.comments.map((c: { comment: string }) => c.comment), ['Quick and right.']);
    assert.deepEqual((await other.json('/v1/analytics/feedback')).body.data.comments, [], "not in another account's report");

    const document = (await account.json('/v1/openapi.json')).body;
    const schema = document.components.schemas.FeedbackReport;
    assert.ok(schema.required.includes('comments'), 'the OpenAPI document describes the comments');
    assert.ok(document.paths['/v1/conversations/{conversation_id}/feedback'].get, 'and the conversation feedback');
  });

  it("GET /v1/conversations/{id}/feedback: the conversation's feedback; 404 for another account's or a missing one", async () => {
    const first = await turn(api, { user_id: 'conv-rater' });
    const second = await api.json('/v1/chat', {
      method: 'POST',
      body: { conversation_id: first.conversation, user_id: 'conv-rater', messages: [{ role: 'user', content: 'And the refund?' }] },
    });
    assert.equal(second.res.status, 200, JSON.stringify(second.body));
    await giveOk(api, { user: 'conv-rater', answer: second.body.data.message.id }, { rating: 'down', reason: 'incomplete', comment: 'Which refund?' });
    await giveOk(api, { user: 'conv-rater', answer: first.answer }, { rating: 'up' });

    const { res, body } = await api.json(`/v1/conversations/${first.conversation}/feedback`);
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.deepEqual(
      body.data.items.map((f: Record<string, unknown>) => [f.message_id, f.rating, f.reason, f.comment]),
      [
        [first.answer, 'up', null, null],
        [second.body.data.message.id, 'down', 'incomplete', 'Which refund?'],
      ],
      'oldest answer first',
    );
    assertRefused(await other.json(`/v1/conversations/${first.conversation}/feedback`), 404, 'resource_not_found', 'conversation_id');
    assertRefused(await api.json('/v1/conversations/conv_doesnotexist/feedback'), 404, 'resource_not_found', 'conversation_id');
  });
});

async function giveOk(client: TestClient, turn: { user: string; answer: string }, body: Record<string, unknown>) {
  const result = await give(turn.answer, { ...body, user_id: turn.user }, client);
  assert.equal(result.res.status, 200, JSON.stringify(result.body));
}
