// Data survives a restart on the same database (a PGlite data directory, or the same PostgreSQL
// database with AI_CHAT_TEST_DATABASE_URL); the first start seeds the demo.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createService } from '../src/index.ts';
import { clientFor } from './support/core.ts';
import { testDatabase, type TestDatabase } from './support/test-database.ts';

const apiKey = 'aicw_sk_persistence-test-key-0123456789';
let database: TestDatabase;
before(async () => {
  database = await testDatabase({ persistent: true });
});
after(() => database.cleanup());

describe('persistence', () => {
  it('keeps bots, models and messages across a restart, and seeds only once', async () => {
    const first = await createService({ ...database.options, apiKey, logLevel: 'silent' });
    const api = clientFor(first, apiKey);
    const seeded = (await api.json('/v1/bots')).body.data.items;
    assert.equal(seeded.length, 1, 'the demo bot is seeded on first start');
    assert.equal(seeded[0].status, 'ready');
    const demoReply = (await api.json(`/v1/bots/${seeded[0].id}/messages`, { method: 'POST', body: { message: 'how do I install it in nextjs', user_id: 'p' } })).body.data;
    assert.equal(demoReply.intent, 'install');
    assert.match(demoReply.message.content, /React template/);
    const kb = (await api.json('/v1/chat', { method: 'POST', body: { messages: [{ role: 'user', content: 'Which headers tell me about the rate limit?' }] } })).body.data;
    assert.equal(kb.source, 'knowledge');
    assert.equal(kb.citations[0].title, 'Rate limits');

    const bot = (await api.json('/v1/bots', { method: 'POST', body: { name: 'Kept', training: { intents: [{ name: 'hi', examples: ['hello', 'hi there'], responses: ['Hi!'] }] } } })).body.data;
    const reply = (await api.json(`/v1/bots/${bot.id}/messages`, { method: 'POST', body: { message: 'hello', user_id: 'keeper' } })).body.data;
    await first.close();

    const second = await createService({ ...database.options, apiKey, logLevel: 'silent' });
    try {
      const again = clientFor(second, apiKey);
      assert.equal((await again.json('/v1/bots')).body.data.items.length, 2, 'no second seed');
      const stored = (await again.json(`/v1/bots/${bot.id}`)).body.data;
      assert.equal(stored.status, 'ready');
      assert.equal(stored.trained_at, bot.trained_at);
      const history = (await again.json(`/v1/chat/history?conversation_id=${reply.conversation_id}`)).body.data.items;
      assert.deepEqual(history.map((m: { content: string }) => m.content), ['hello', 'Hi!']);
      const next = (await again.json(`/v1/bots/${bot.id}/messages`, { method: 'POST', body: { message: 'hi there', user_id: 'keeper' } })).body.data;
      assert.equal(next.intent, 'hi', 'the stored model answers without retraining');
      assert.equal(next.conversation_id, reply.conversation_id, 'the open conversation continues');
    } finally {
      await second.close();
    }
  });
});
