// The webhook worker's own timing, as `bench/webhooks.ts` measures it: events are queued by the
// database (nothing kicks the worker), so its poll bounds their delay and must sit well inside the
// goal of delivery within 1 s; and a full batch of requests at once is no leak warning.
import assert from 'node:assert/strict';
import { after, before, describe, it, mock } from 'node:test';
import { FakePlatform } from './support/fake-platform.ts';
import { startTestService, type TestClient } from './support/core.ts';

const receiver = new FakePlatform(() => ({ status: 200, body: { ok: true } }));

before(() => receiver.listen());
after(() => receiver.close());

async function subscribed(api: TestClient, path: string): Promise<string> {
  const subscription = await api.json('/v1/webhooks', { method: 'POST', body: { url: `${receiver.url}${path}`, events: ['message.created'] } });
  assert.equal(subscription.res.status, 201, JSON.stringify(subscription.body));
  const bot = await api.json('/v1/bots', { method: 'POST', body: { name: 'Shop' } });
  assert.equal(bot.res.status, 201, JSON.stringify(bot.body));
  return bot.body.data.id;
}

describe('webhook worker', () => {
  it('sends an event the database queued at its next poll, 250 ms by default', { timeout: 20_000 }, async () => {
    // Only the intervals are mocked: the worker's poll moves when the test says, everything else runs.
    mock.timers.enable({ apis: ['setInterval'] });
    let api: TestClient | undefined;
    try {
      api = await startTestService({ webhooks: { allowPrivateHosts: true } });
      const botId = await subscribed(api, '/polled');
      const turn = await api.json(`/v1/bots/${botId}/messages`, { method: 'POST', body: { message: 'hello', user_id: 'ada' } });
      assert.equal(turn.res.status, 200, JSON.stringify(turn.body));
      // Nothing kicked the worker: the events wait for its poll (draining here would send them).
      assert.equal(receiver.calls('/polled').length, 0);
      const arrived = receiver.next('/polled');
      mock.timers.tick(250);
      assert.equal((await arrived).body.type, 'message.created');
    } finally {
      mock.timers.reset();
      await api?.service.close();
    }
  });

  it('sends a full batch side by side without a MaxListenersExceededWarning', async () => {
    const api = await startTestService({ webhooks: { allowPrivateHosts: true, pollMs: 3_600_000 } });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const botId = await subscribed(api, '/batch');
      // 8 turns: 16 message.created, one batch of requests at once on the worker's one abort signal
      for (let i = 0; i < 8; i++) await api.json(`/v1/bots/${botId}/messages`, { method: 'POST', body: { message: 'hello', user_id: `visitor-${i}` } });
      await api.service.deps.webhooks.drain();
      assert.equal(receiver.calls('/batch').length, 16);
      await new Promise((resolve) => setImmediate(resolve)); // a warning is emitted on the next tick
      assert.deepEqual(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message), []);
    } finally {
      process.off('warning', onWarning);
      await api.service.close();
    }
  });
});
