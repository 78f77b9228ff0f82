// The loop of the durable queues' workers (server/src/jobs/queue-worker.ts): what `drain()` promises
// the tests that move a clock and then act as the worker themselves.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QueueWorker } from '../src/jobs/queue-worker.ts';

/** A step whose every call waits until the test settles it: `true` when it found work. */
function scriptedStep() {
  const calls: { settle: (found: boolean) => void; settled: boolean }[] = [];
  const step = () =>
    new Promise<boolean>((resolve) => {
      const call = { settled: false, settle: (found: boolean) => ((call.settled = true), resolve(found)) };
      calls.push(call);
    });
  return { calls, step };
}

/** Lets every promise callback that is ready run. */
const flushCallbacks = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('QueueWorker.drain', () => {
  it('waits for a run a kick started while it waited, though its own step found nothing', async () => {
    const { calls, step } = scriptedStep();
    const worker = new QueueWorker(step, (error) => assert.fail(String(error)));
    worker.kick(); // run 1
    worker.kick(); // during run 1: it runs once more when it ends
    let drained = false;
    const draining = worker.drain().then(() => (drained = true));
    calls[0]!.settle(false); // run 1 ends and run 2 starts
    // The newest step answers first, as a database does when an older step holds the work claimed:
    // drain's own step then finds nothing while run 2 is still at it.
    while (!drained) {
      await flushCallbacks();
      if (drained) break;
      const open = calls.filter((call) => !call.settled);
      assert.ok(open.length, 'drain neither returned nor stepped');
      open.at(-1)!.settle(false);
    }
    await draining;
    assert.ok(calls.every((call) => call.settled), 'drain returned while run 2 still handled the work it claimed');
    assert.ok(calls.length >= 3);
  });

  it('steps until a step finds nothing', async () => {
    const { calls, step } = scriptedStep();
    const worker = new QueueWorker(step, (error) => assert.fail(String(error)));
    const draining = worker.drain();
    for (const found of [true, true, false]) {
      await flushCallbacks();
      calls.at(-1)!.settle(found);
    }
    await draining;
    assert.equal(calls.length, 3);
  });
});
