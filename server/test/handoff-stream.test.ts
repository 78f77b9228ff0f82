// A handoff stream waits once per event on one long-lived abort signal: each wait must take its
// abort listener off again, or a busy stream logs MaxListenersExceededWarning (11 listeners) and
// keeps one closure per event it ever delivered.
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../src/index.ts';
import { accountTopic, HandoffBus } from '../src/handoff/bus.ts';
import { pauseUntil } from '../src/handoff/stream.ts';
import { handoffSetup, openStream } from './support/handoff.ts';
import { testDatabase, type TestDatabase } from './support/test-database.ts';

describe('handoff stream waits', () => {
  it('leave no abort listener behind on the shared signal, however many there are', async () => {
    const stop = new AbortController();
    for (let i = 0; i < 50; i++) {
      const pause = pauseUntil(stop.signal, 60_000);
      pause.wake();
      await pause.done;
    }
    assert.equal(getEventListeners(stop.signal, 'abort').length, 0);

    const pending = pauseUntil(stop.signal, 60_000);
    assert.equal(getEventListeners(stop.signal, 'abort').length, 1);
    stop.abort();
    await pending.done; // an abort ends a wait too, and removes its listener
    assert.equal(getEventListeners(stop.signal, 'abort').length, 0);
    await pauseUntil(stop.signal, 60_000).done; // already aborted: resolves at once
    assert.equal(getEventListeners(stop.signal, 'abort').length, 0);
  });

  // Over a real socket: in process, each write waits for the reader, so the stream seldom waits at all.
  describe('on a live inbox stream', () => {
    let database: TestDatabase;
    let running: RunningServer;
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    before(async () => {
      database = await testDatabase();
      running = await startServer({ ...database.options, seed: false, logLevel: 'silent' });
      process.on('warning', onWarning);
    });
    after(async () => {
      process.off('warning', onWarning);
      // The stream's keep-alive socket would hold close() until it times out.
      (running?.server as import('node:http').Server | undefined)?.closeAllConnections();
      await running?.close();
      await database?.cleanup();
    });

    it('delivers many events without a MaxListenersExceededWarning', async () => {
      const { service } = running;
      const { operator } = await handoffSetup(service);
      const inbox = await openStream((request) => fetch(request), `${running.url}/dashboard/api/inbox/events`, {
        cookie: `aicw_session=${operator.cookie}`,
      });
      try {
        for (let i = 0; i < 30; i++) {
          service.deps.handoffBus.publish([accountTopic(service.devAccountId)], { type: 'typing', id: null, data: { n: i } });
          const event = await inbox.next();
          assert.equal(JSON.parse(event.data).n, i);
        }
        // process warnings are emitted on the next tick: let one pass after the last wait began
        await new Promise((resolve) => setImmediate(resolve));
        assert.deepEqual(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message), []);
      } finally {
        inbox.close();
      }
    });
  });
});

describe('handoff bus completeness', () => {
  const silent = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };
  const redis = { publish: async () => 0, duplicate: () => ({}) as never };
  it('hears every stored event only without Redis over a database no other process writes', () => {
    assert.equal(new HandoffBus(silent as never, undefined, { singleProcessDatabase: true }).complete, true);
    assert.equal(new HandoffBus(silent as never, undefined, { singleProcessDatabase: false }).complete, false, 'other instances write PostgreSQL');
    assert.equal(new HandoffBus(silent as never, redis, { singleProcessDatabase: true }).complete, false, 'Redis may drop a publish');
    assert.equal(new HandoffBus(silent as never).complete, false);
  });

  it("is the service's when it runs on embedded PGlite alone", async () => {
    const database = await testDatabase();
    const running = await startServer({ ...database.options, seed: false, logLevel: 'silent' });
    try {
      assert.equal(running.service.deps.handoffBus.complete, !database.options.databaseUrl && !database.options.redisUrl);
    } finally {
      await running.close();
      await database.cleanup();
    }
  });
});
