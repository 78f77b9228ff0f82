/** The classifier's parts on their own: the bucket table, the vocabulary built with it, calibration, word clusters. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extract } from '../src/nlu/classifier/features.ts';
import { BucketTable, bucketIndex, buildVocabulary, vectorize } from '../src/nlu/classifier/vectorizer.ts';
import { classify, loadClassifier, storeClassifier } from '../src/nlu/classifier/model.ts';
import { wordClustersOf } from '../src/nlu/classifier/word-clusters.ts';
import { trainClassifier } from '../src/nlu/classifier/train.ts';

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
    const raws = texts.map((text) => extract(text));
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

describe('calibration', () => {
  it('answers a bot of one example per intent with its intents, not a flattened guess', () => {
    // Cross-validation cannot hold out an intent's only example and still know the intent: such
    // examples say nothing about the temperature, which would otherwise flatten every answer.
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];
    const texts = words.flatMap((a) => words.map((b) => `${a}${b}`)).slice(0, 80);
    const { classifier } = trainClassifier(
      texts.map((_, i) => `intent${i}`),
      texts.map((text, intent) => ({ text, intent })),
    );
    assert.equal(classifier.temperature, 1);
    for (const [intent, text] of texts.entries()) {
      const { best, probability } = classify(classifier, text);
      assert.equal(best, intent, text);
      assert.ok(probability >= classifier.threshold, `${text}: ${probability} below ${classifier.threshold}`);
    }
  });
});

describe('word clusters', () => {
  // Two intents whose examples never say "money" or "vehicle": only the words' clusters (GloVe
  // neighbours "cash", "car") can tell which one a question with them means.
  const intents = ['withdraw_cash', 'sell_car'];
  const examples = [
    ...['i need cash', 'withdraw cash', 'get some cash out', 'cash from the machine'].map((text) => ({ text, intent: 0 })),
    ...['sell my car', 'i want to sell the car', 'how much for my car', 'car trade in'].map((text) => ({ text, intent: 1 })),
  ];
  const questions: [string, number][] = [
    ['money', 0],
    ['vehicle', 1],
  ];

  it('are neighbours in the shipped English clusters', () => {
    const clusters = wordClustersOf('en')!;
    assert.ok(clusters.size >= 49_000, `${clusters.size} words`);
    // Function words carry no cluster: seen with every intent, they would only cost.
    assert.equal(clusters.get('the'), undefined);
    assert.equal(clusters.get('what'), undefined);
    assert.deepEqual(clusters.get('money'), clusters.get('cash'));
    assert.equal(clusters.get('vehicle')![1], clusters.get('car')![1]);
    assert.equal(wordClustersOf('de'), undefined);
  });

  it('let an English bot understand a word its examples never used', () => {
    const { classifier } = trainClassifier(intents, examples, 'en');
    assert.equal(classifier.clusters, 'en');
    for (const [text, intent] of questions) {
      const { best, probability } = classify(classifier, text);
      assert.equal(best, intent, text);
      assert.ok(probability >= classifier.threshold, `${text}: ${probability} below ${classifier.threshold}`);
    }
  });

  it('are not used for a language without them, and a stored model scores as it was trained', () => {
    const { classifier: german } = trainClassifier(intents, examples, 'de');
    assert.equal(german.clusters, undefined);
    // Without clusters "money" shares nothing with either intent: no confident answer.
    assert.ok(classify(german, 'money').probability < 0.6);
    const { classifier } = trainClassifier(intents, examples, 'en');
    const reloaded = loadClassifier(JSON.parse(JSON.stringify(storeClassifier(classifier))));
    assert.equal(reloaded.clusters, 'en');
    for (const [text] of questions) assert.deepEqual(classify(reloaded, text), classify(classifier, text));
  });
});
