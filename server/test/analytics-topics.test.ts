// The topics report (GET /v1/analytics/topics): the intents replies answered with and the questions
// that got a fallback reply, most frequent first, per account, per bot, validated at the edge.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../src/index.ts';
import { caller, memoryService, type Caller } from './support/api.ts';

let service: Service;
before(async () => {
  service = await memoryService();
});
after(() => service.close());

const TRAINING = {
  intents: [
    { name: 'hours', examples: ['when are you open', 'opening hours', 'what time do you open'], responses: ['We are open 9 to 5.'] },
    { name: 'greeting', examples: ['hello', 'hi there', 'good morning'], responses: ['Hello!'] },
  ],
};

async function ask(call: Caller, botId: string, content: string) {
  const res = await call('/v1/chat', { body: { bot_id: botId, messages: [{ role: 'user', content }] } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data;
}

describe('topics report', () => {
  it('counts intents and groups unanswered questions case-insensitively, most frequent first', async () => {
    const { apiKey } = await service.createAccount();
    const call = caller(service, apiKey);
    const bot = (await call('/v1/bots', { body: { name: 'Shop', training: TRAINING } })).body.data;
    const other = (await call('/v1/bots', { body: { name: 'Other', training: TRAINING } })).body.data;
    for (const text of ['when are you open', 'opening hours', 'hello']) await ask(call, bot.id, text);
    const fallbacks = ['Do you sell hats', 'do you sell HATS  ', 'Can I pay with gold coins'];
    for (const text of fallbacks) assert.equal((await ask(call, bot.id, text)).source, 'fallback', text);
    await ask(call, other.id, 'good morning');

    const all = await call('/v1/analytics/topics');
    assert.equal(all.status, 200);
    assert.deepEqual(all.body.data.intents, [
      { intent: 'greeting', count: 2 },
      { intent: 'hours', count: 2 },
    ]);
    assert.deepEqual(
      all.body.data.unanswered.map((q: { question: string; count: number }) => [q.question, q.count]),
      [
        ['do you sell HATS', 2],
        ['Can I pay with gold coins', 1],
      ],
    );

    const one = await call(`/v1/analytics/topics?bot_id=${other.id}&limit=1`);
    assert.deepEqual(one.body.data.intents, [{ intent: 'greeting', count: 1 }]);
    assert.deepEqual(one.body.data.unanswered, []);
    assert.equal(one.body.data.bot_id, other.id);
  });

  it('sees only its own account, and validates the query', async () => {
    const { apiKey } = await service.createAccount();
    const call = caller(service, apiKey);
    const empty = await call('/v1/analytics/topics');
    assert.deepEqual([empty.body.data.intents, empty.body.data.unanswered], [[], []]);
    for (const [query, code, status] of [
      ['limit=0', 'validation_failed', 400],
      ['limit=x', 'validation_failed', 400],
      ['color=red', 'unknown_parameter', 400],
      ['bot_id=bot_missing123456', 'resource_not_found', 404],
    ] as const) {
      const res = await call(`/v1/analytics/topics?${query}`);
      assert.equal(res.status, status, query);
      assert.equal(res.body.error.code, code, query);
    }
  });
});
