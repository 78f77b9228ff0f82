// The batcher behind group commit (server/src/db/batcher.ts): which calls share a batch, what a
// caller gets when the batch fails, and that a shared read is never older than its call.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Batcher, SharedRead, type BatchItem } from '../src/db/batcher.ts';

/** A runner that records each batch and answers each item with its input doubled, after `gate`. */
function recordingRunner(gate: () => Promise<void> = async () => {}) {
  const batches: { key: string; inputs: number[] }[] = [];
  const runner = async (key: string, items: BatchItem<number, number>[]) => {
    batches.push({ key, inputs: items.map((item) => item.input) });
    await gate();
    for (const item of items) item.resolve(item.input * 2);
  };
  return { batches, runner };
}

describe('Batcher', () => {
  it('runs the calls made in one turn of the event loop as one batch, per key', async () => {
    const { batches, runner } = recordingRunner();
    const batcher = new Batcher(runner);
    const results = await Promise.all([batcher.call('a', 1), batcher.call('a', 2), batcher.call('b', 3), batcher.call('a', 4)]);
    assert.deepEqual(results, [2, 4, 6, 8]);
    assert.deepEqual(batches, [
      { key: 'a', inputs: [1, 2, 4] },
      { key: 'b', inputs: [3] },
    ]);
  });

  it('sends calls made while a batch is in flight in the next batch, started when it ends', async () => {
    let release!: () => void;
    const { batches, runner } = recordingRunner(() => (batches.length === 1 ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve()));
    const batcher = new Batcher(runner);
    const first = batcher.call('a', 1);
    await new Promise((resolve) => setImmediate(resolve)); // the first batch is now running
    const later = [batcher.call('a', 2), batcher.call('a', 3)];
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(batches.length, 1, 'nothing more runs while the first batch is in flight');
    release();
    assert.deepEqual(await Promise.all([first, ...later]), [2, 4, 6]);
    assert.deepEqual(batches.map((batch) => batch.inputs), [[1], [2, 3]]);
  });

  it('holds at most maxSize calls per batch', async () => {
    const { batches, runner } = recordingRunner();
    const batcher = new Batcher(runner, 2);
    await Promise.all([1, 2, 3, 4, 5].map((n) => batcher.call('a', n)));
    assert.deepEqual(batches.map((batch) => batch.inputs), [[1, 2], [3, 4], [5]]);
  });

  it('gives each caller its own error, and the runner’s error to those it left unsettled; the key works again after', async () => {
    let failing = true;
    const batcher = new Batcher<number, number>(async (_key, items) => {
      if (!failing) return items.forEach((item) => item.resolve(item.input));
      for (const item of items) if (item.input % 2) item.reject(new Error(`odd ${item.input}`));
      throw new Error('the batch failed');
    });
    const results = await Promise.allSettled([1, 2, 3].map((n) => batcher.call('a', n)));
    assert.deepEqual(
      results.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : r.value)),
      ['odd 1', 'the batch failed', 'odd 3'],
    );
    failing = false;
    assert.equal(await batcher.call('a', 7), 7);
  });

  it('rejects calls that a runner returning normally left unsettled, rather than leaving them hanging', async () => {
    const batcher = new Batcher<number, number>(async (_key, items) => items[0]!.resolve(0));
    const results = await Promise.allSettled([batcher.call('a', 1), batcher.call('a', 2)]);
    assert.equal(results[0]!.status, 'fulfilled');
    assert.equal(results[1]!.status, 'rejected');
  });
});

describe('SharedRead', () => {
  it('shares one read among concurrent callers, and never answers a caller from a read started before its call', async () => {
    let value = 0;
    let reads = 0;
    let release: (() => void) | undefined;
    const read = new SharedRead(async () => {
      reads++;
      const seen = value; // what the database holds when the read starts
      if (reads === 1) await new Promise<void>((resolve) => (release = resolve));
      return seen;
    });
    const early = [read.get('k'), read.get('k')];
    await new Promise((resolve) => setImmediate(resolve)); // the first read has started, seeing 0
    value = 1; // a write committed after that read started…
    const late = read.get('k'); // …and a caller asking after it
    release!();
    assert.deepEqual(await Promise.all(early), [0, 0]);
    assert.equal(await late, 1, 'the late caller gets a read started after its call');
    assert.equal(reads, 2);
  });
});
