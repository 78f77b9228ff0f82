/** The classifier's parts on their own: the bucket table and the vocabulary built with it. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extract } from '../src/nlu/classifier/features.ts';
import { BucketTable, bucketIndex, buildVocabulary, vectorize } from '../src/nlu/classifier/vectorizer.ts';

describe('the bucket table', () => {
  it('keeps every bucket and its value while it grows', () => {
    const table = new BucketTable();
    // Far more buckets than its first size, some of them colliding on their low bits.
    const buckets = Array.from({ length: 20_000 }, (_, i) => (i * 4096 + (i % 7)) % (1 << 22));
    buckets.forEach((bucket, i) => {
      const slot = table.add(bucket);
      table.values[slot] = i + 1;
    });
    assert.equal(table.size, new Set(buckets).size);
    const last = new Map(buckets.map((bucket, i) => [bucket, i + 1]));
    for (const [bucket, value] of last) assert.equal(table.get(bucket), value);
    let missing = 0;
    while (last.has(missing)) missing++;
    assert.equal(table.get(missing), -1);
    assert.deepEqual([...table.buckets()], [...last.keys()].sort((a, b) => a - b));
  });
});

describe('the vocabulary', () => {
  it('counts each bucket once per text, however many texts it takes to grow the table', () => {
    const texts = Array.from({ length: 3000 }, (_, i) => `order ${i} pizza number ${i * 7} please`);
    const raws = texts.map(extract);
    const vocabulary = buildVocabulary(raws, 1);
    const df = new Map<number, number>();
    for (const raw of raws) for (const bucket of raw.buckets) df.set(bucket, (df.get(bucket) ?? 0) + 1);
    assert.deepEqual([...vocabulary.buckets], [...df.keys()].sort((a, b) => a - b));
    vocabulary.buckets.forEach((bucket, i) => assert.equal(vocabulary.idf[i], Math.fround(Math.log((1 + texts.length) / (1 + df.get(bucket)!)) + 1)));
    // Training looks buckets up in the table, serving by binary search: the same vectors.
    const lookup = bucketIndex(vocabulary);
    const unseen = extract('order a pizza with olives');
    assert.deepEqual(vectorize(unseen, vocabulary, lookup), vectorize(unseen, vocabulary));
  });
});
