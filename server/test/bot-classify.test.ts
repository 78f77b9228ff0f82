// `POST /v1/bots/{id}/classify`, the owner's "try it": the top three intents and the fallback
// decision a turn would make, with nothing stored or counted; validated, key-scoped, rate limited.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clientFor, startTestService, type TestClient } from './support/core.ts';

let api: TestClient;
before(async () => {
  api = await startTestService();
});
after(() => api.service.close());

const training = {
  intents: [
    { name: 'refund', examples: ['I want a refund', 'can I get my money back', 'refund my order', 'how do refunds work', 'request a refund'], responses: ['Refunds take 5 days.'] },
    { name: 'shipping', examples: ['when will my package arrive', 'how long does shipping take', 'track my delivery', 'shipping costs', 'where is my parcel'], responses: ['Shipping takes 3 days.'] },
    { name: 'opening_hours', examples: ['what are your opening hours', 'when are you open', 'are you open on sunday', 'what time do you close', 'store hours'], responses: ['9 to 5.'] },
    { name: 'greeting', examples: ['hello', 'hi there', 'good morning', 'hey'], responses: ['Hello!'] },
  ],
};

async function createBot(client: TestClient, body: Record<string, unknown>): Promise<string> {
  const { res, body: envelope } = await client.json('/v1/bots', { method: 'POST', body });
  assert.equal(res.status, 201, JSON.stringify(envelope));
  return envelope.data.id;
}

const classify = (client: TestClient, botId: string, body: unknown) => client.json(`/v1/bots/${botId}/classify`, { method: 'POST', body });

describe('POST /v1/bots/{id}/classify', () => {
  let botId: string;
  before(async () => {
    botId = await createBot(api, { name: 'Shop', training });
  });

  it('gives the three most probable intents, most first, and no fallback for a clear question', async () => {
    const { res, body } = await classify(api, botId, { text: 'please refund my money' });
    assert.equal(res.status, 200, JSON.stringify(body));
    const { intents, fallback, threshold } = body.data;
    assert.equal(intents.length, 3);
    assert.equal(intents[0].name, 'refund');
    assert.ok(intents[0].confidence >= intents[1].confidence && intents[1].confidence >= intents[2].confidence, JSON.stringify(intents));
    assert.equal(new Set(intents.map((i: { name: string }) => i.name)).size, 3);
    assert.equal(fallback, false);
    assert.ok(threshold > 0 && threshold < 1);
    assert.equal(threshold, (await api.json(`/v1/bots/${botId}/quality`)).body.data.threshold);
    // the same decision a turn makes
    const turn = (await api.json(`/v1/bots/${botId}/messages`, { method: 'POST', body: { message: 'please refund my money', user_id: 'u' } })).body.data;
    assert.equal(turn.intent, 'refund');
    assert.equal(turn.confidence, intents[0].confidence);
  });

  it('says a question off every topic falls back, and applies the owner\'s threshold', async () => {
    const offTopic = (await classify(api, botId, { text: 'what is the weather on mars' })).body.data;
    assert.equal(offTopic.fallback, true);
    const strict = await createBot(api, { name: 'Strict', training: { ...training, fallback: { threshold: 1 } } });
    const { body } = await classify(api, strict, { text: 'please refund my money' });
    assert.equal(body.data.threshold, 1);
    assert.equal(body.data.intents[0].name, 'refund');
    assert.equal(body.data.fallback, true);
  });

  it('stores no conversation and counts no message', async () => {
    const client = clientFor(api.service, (await api.service.createAccount()).apiKey);
    const id = await createBot(client, { name: 'Quiet', training });
    assert.equal((await classify(client, id, { text: 'where is my parcel' })).res.status, 200);
    assert.deepEqual((await client.json('/v1/conversations')).body.data.items, []);
    const usage = (await client.json('/v1/analytics/usage')).body.data;
    assert.equal(usage.totals.messages, 0);
    assert.equal(usage.totals.conversations, 0);
  });

  it('refuses bad input with the envelope', async () => {
    const refusals: [unknown, string][] = [
      [{}, 'validation_failed'],
      [{ text: '' }, 'validation_failed'],
      [{ text: 'x'.repeat(4001) }, 'validation_failed'],
      [{ text: 3 }, 'validation_failed'],
      [{ text: 'hi', extra: true }, 'unknown_parameter'],
    ];
    for (const [body, code] of refusals) {
      const { res, body: envelope } = await classify(api, botId, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(envelope.success, false);
      assert.equal(envelope.error.code, code);
    }
    const untrained = await createBot(api, { name: 'Untrained' });
    const conflict = await classify(api, untrained, { text: 'hello' });
    assert.equal(conflict.res.status, 409);
    assert.equal(conflict.body.error.code, 'conflict');
    assert.equal((await classify(api, 'bot_000000000000000000000000', { text: 'hello' })).res.status, 404);
  });

  it('is scoped to the key\'s account and rate limited like the other bot routes', async () => {
    const { apiKey } = await api.service.createAccount({ rateLimit: { points: 2, durationSeconds: 60 } });
    const other = clientFor(api.service, apiKey);
    const foreign = await classify(other, botId, { text: 'refund' });
    assert.equal(foreign.res.status, 404);
    assert.equal(foreign.body.error.code, 'resource_not_found');
    assert.equal((await classify(other, botId, { text: 'refund' })).res.status, 404);
    const limited = await classify(other, botId, { text: 'refund' });
    assert.equal(limited.res.status, 429);
    assert.equal(limited.body.error.code, 'rate_limited');
    const anonymous = await api.json(`/v1/bots/${botId}/classify`, { method: 'POST', body: { text: 'refund' }, auth: null });
    assert.equal(anonymous.res.status, 401);
  });
});
