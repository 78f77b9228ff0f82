// The NLU engine on its own: training in a worker, parsing, entities, guards, templates.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { answerWithIntent, checkTraining, createNluEngine, renderTemplate, resolveThreshold } from '../src/nlu/index.ts';
import { storeClassifier } from '../src/nlu/classifier/model.ts';
import type { StoredModel } from '../src/nlu/stored-model.ts';
import { trainClassifier } from '../src/nlu/classifier/train.ts';
import { shopTraining } from './support/core.ts';

const nlu = createNluEngine();
after(() => nlu.close());

describe('NluEngine', () => {
  it('trains to a JSON model that parses intents and both entity kinds after a JSON round trip', async () => {
    const { model, stats } = await nlu.train('en', shopTraining as never);
    assert.equal(stats.intents, 4);
    assert.equal(stats.examples, 18);
    const stored = JSON.parse(JSON.stringify(model)); // as the database gives it back
    const install = await nlu.parse(stored, 'en', 'setup for svelte please', { cacheKey: 'k1' });
    assert.equal(install.intent, 'install');
    assert.deepEqual(install.entities, [{ entity: 'framework', value: 'svelte', text: 'svelte' }]);
    const order = await nlu.parse(stored, 'en', 'status of order ORD-654321');
    assert.equal(order.intent, 'order.status');
    assert.deepEqual(order.entities, [{ entity: 'order_id', value: 'ORD-654321', text: 'ORD-654321' }]);
    // Parsing twice from the same stored object must work (nlp.js mutates what it imports).
    assert.equal((await nlu.parse(stored, 'en', 'hello')).intent, 'greeting');
    assert.equal((await nlu.parse(stored, 'en', 'hello')).intent, 'greeting');
  });

  it('refuses an intent when no content word of the message is known to it', async () => {
    const { model } = await nlu.train('en', shopTraining as never);
    for (const text of ['what is the weather on mars', 'who won the football game yesterday']) {
      const parsed = await nlu.parse(model, 'en', text);
      assert.equal(parsed.intent, null, text);
    }
  });

  it('trains French and Spanish models', async () => {
    const fr = await nlu.train('fr', {
      intents: [
        { name: 'salut', examples: ['bonjour', 'salut', 'bonsoir à vous'], responses: ['Bonjour !'] },
        { name: 'prix', examples: ['combien ça coûte', 'quel est le prix', 'c\'est gratuit ?'], responses: ['C\'est gratuit.'] },
      ],
    });
    assert.equal((await nlu.parse(fr.model, 'fr', 'Quel est le prix ?')).intent, 'prix');
    const es = await nlu.train('es', {
      intents: [
        { name: 'saludo', examples: ['hola', 'buenos días', 'buenas tardes'], responses: ['¡Hola!'] },
        { name: 'precio', examples: ['cuánto cuesta', 'cuál es el precio', 'es gratis'], responses: ['Es gratis.'] },
      ],
    });
    assert.equal((await nlu.parse(es.model, 'es', '¿Cuánto cuesta?')).intent, 'precio');
  });

  it('keeps the event loop free while training', async () => {
    // Large enough (3,000 examples) that training outlasts several timer ticks on a fast machine:
    // the classifier trains a small set in a few milliseconds.
    const intents = Array.from({ length: 100 }, (_, i) => ({
      name: `t${i}`,
      examples: Array.from({ length: 30 }, (_, j) => `sentence ${j} for topic ${i} token${i}_${j} shared${j % 7}`),
      responses: ['x'],
    }));
    let ticks = 0;
    let maxGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
      ticks++;
    }, 10);
    try {
      await nlu.train('en', { intents });
    } finally {
      clearInterval(timer);
    }
    assert.ok(ticks >= 5, `timers kept firing during training (${ticks})`);
    assert.ok(maxGap < 250, `no long stall of the event loop (max gap ${Math.round(maxGap)} ms)`);
  });

  it('trains in its threads exactly the model one thread trains: the served model and its calibration are the data\'s alone', async () => {
    // The engine fits the model and cross-validates it on two threads at once when it has two cores
    // and enough examples; here even these 96 are enough.
    const intents = Array.from({ length: 12 }, (_, i) => ({
      name: `topic${i}`,
      examples: Array.from({ length: 8 }, (_, j) => `question ${j} about subject${i} and detail${(i * j) % 5}`),
      responses: ['x'],
    }));
    const split = createNluEngine({ splitTrainingAt: 1 });
    const model = await split.train('en', { intents }).then((trained) => trained.model as StoredModel).finally(() => split.close());
    const examples = intents.flatMap((intent, i) => intent.examples.map((text) => ({ text, intent: i })));
    const alone = trainClassifier(intents.map((i) => i.name), examples, 'en');
    assert.deepEqual(JSON.parse(JSON.stringify(model.classifier)), JSON.parse(JSON.stringify(storeClassifier(alone.classifier))));
    assert.deepEqual(JSON.parse(JSON.stringify(model.quality)), JSON.parse(JSON.stringify(alone.quality)));
    assert.ok(model.classifier.threshold > 0, 'calibrated');
  });

  it('rejects languages it does not support', async () => {
    await assert.rejects(nlu.train('xx', { intents: [{ name: 'a', examples: ['a'], responses: ['b'] }] }), { name: 'NluTrainingError' });
  });
});

describe('training checks and templates', () => {
  it('reports undeclared placeholders, duplicates and regexes the linear-time engine cannot run, with JSON pointers', () => {
    const problems = checkTraining({
      intents: [
        { name: 'a', examples: ['buy {thing}'], responses: ['x'] },
        { name: 'a', examples: ['x'], responses: ['y'] },
      ],
      entities: [
        { name: 'n', type: 'regex', pattern: '(x+)\\1y' },
        { name: 'n', type: 'regex', pattern: '[' },
      ],
    });
    assert.deepEqual(
      problems.map((p) => p.path).sort(),
      ['/entities/0/pattern', '/entities/1/name', '/entities/1/pattern', '/intents/0/examples/0', '/intents/1/name'],
    );
    assert.equal(problems.length, 5);
  });

  it('renders templates and resolves thresholds', () => {
    assert.equal(renderTemplate('Order {order_id} for {name}', [{ entity: 'order_id', value: 'ORD-1', text: 'ord-1' }]), 'Order ORD-1 for name');
    assert.equal(resolveThreshold(undefined), 0.65);
    assert.equal(resolveThreshold({ fallback: { threshold: 0.9 } }), 0.9);
  });
});

/** Intents that never name their entities as `{entity}` in examples. */
const orderTraining = {
  intents: [
    {
      name: 'cancel',
      examples: ['cancel my order', 'please cancel the order', 'I want to cancel an order'],
      responses: ['Order {order_number} has been cancelled.'],
    },
    { name: 'greeting', examples: ['hello', 'hi there', 'good morning'], responses: ['Hello!'] },
  ],
  entities: [
    { name: 'order_number', type: 'regex' as const, pattern: '#?\\d{6}' },
    { name: 'colour', type: 'list' as const, values: [{ value: 'red', synonyms: ['crimson'] }] },
  ],
};

/**
 * A model holding a regex entity as stored, past the training checks (as a model trained under
 * older checks may): it must still run on RE2 under the pattern worker's deadline.
 */
function withNlpjsRegexRule(model: unknown, name: string, source: string): unknown {
  const stored = structuredClone(model) as { regexes: { name: string; pattern: string }[] };
  stored.regexes = [...stored.regexes.filter((r) => r.name !== name), { name, pattern: source }];
  return stored;
}

describe('entities', () => {
  it('are extracted from any message, not only when some example names them', async () => {
    const { model } = await nlu.train('en', orderTraining);
    const cancel = await nlu.parse(model, 'en', 'please cancel order #884422');
    assert.equal(cancel.intent, 'cancel');
    assert.deepEqual(cancel.entities, [{ entity: 'order_number', value: '#884422', text: '#884422' }]);
    const colour = await nlu.parse(model, 'en', 'cancel the crimson order');
    assert.deepEqual(colour.entities, [{ entity: 'colour', value: 'red', text: 'crimson' }]);
  });

  it('of a list match whole words, ignoring case and accents, in time linear in the message', { timeout: 60_000 }, async () => {
    const products = Array.from({ length: 1000 }, (_, i) => ({
      value: `product${i}`,
      synonyms: Array.from({ length: 50 }, (_, j) => `synonym ${i} ${j} word`),
    }));
    const { model } = await nlu.train('en', {
      intents: [{ name: 'buy', examples: ['I want to buy it', 'purchase'], responses: ['OK'] }],
      entities: [
        { name: 'product', type: 'list', values: products },
        { name: 'city', type: 'list', values: [{ value: 'Zürich', synonyms: ['zurich city'] }] },
      ],
    });
    // nlp.js compared each of these 51,000 texts with every run of words: 449 s for this message.
    assert.deepEqual((await nlu.parse(model, 'en', 'word '.repeat(800))).entities, []);
    const found = await nlu.parse(model, 'en', 'is SYNONYM 7 3 word sold in ZURICH? not synonym7');
    assert.deepEqual(found.entities, [
      { entity: 'product', value: 'product7', text: 'synonym 7 3 word' },
      { entity: 'city', value: 'Zürich', text: 'Zürich' },
    ]);
  });

  it('count as evidence for an intent only when its examples name them', async () => {
    const { model } = await nlu.train('en', orderTraining);
    const parsed = await nlu.parse(model, 'en', 'crimson 123456');
    assert.equal(parsed.intent, null);
    assert.equal(parsed.entities.length, 2);
  });

  it('of models trained before still match, on RE2 and not on a backtracking RegExp', { timeout: 60_000 }, async () => {
    const { model } = await nlu.train('en', shopTraining as never);
    const legacy = withNlpjsRegexRule(withNlpjsRegexRule(model, 'order_id', 'ORD-\\d{6}'), 'hostile', '(a|a)+$');
    const order = await nlu.parse(legacy, 'en', 'status of order ORD-654321');
    assert.deepEqual(order.entities, [{ entity: 'order_id', value: 'ORD-654321', text: 'ORD-654321' }]);
    // 2^40 steps for a backtracking engine: this would not finish.
    const hostile = await nlu.parse(legacy, 'en', `${'a'.repeat(40)}!`);
    assert.deepEqual(hostile.entities, []);
  });

  it('are matched under a deadline: past it the message is answered without them, and the next one is matched', async () => {
    const errors: unknown[] = [];
    // Compiling the pattern takes ~50 ms, matching the long message seconds: the deadline falls between.
    const engine = createNluEngine({ patternTimeoutMs: 400, onPatternError: (error) => errors.push(error) });
    try {
      const { model } = await engine.train('en', shopTraining as never);
      // Too large for the training checks (7,000 RE2 instructions): only an old model can hold it.
      const legacy = withNlpjsRegexRule(withNlpjsRegexRule(model, 'order_id', 'ORD-\\d{6}'), 'slow', '(\\w+\\s?){1,1000}!');
      const slow = await engine.parse(legacy, 'en', 'lorem ipsum '.repeat(700), { cacheKey: 'legacy' });
      assert.deepEqual(slow.entities, []);
      assert.equal(errors.length, 1);
      assert.match(String(errors[0]), /longer than 400 ms/);
      const next = await engine.parse(legacy, 'en', 'status of order ORD-654321', { cacheKey: 'legacy' });
      assert.deepEqual(next.entities, [{ entity: 'order_id', value: 'ORD-654321', text: 'ORD-654321' }]);
    } finally {
      await engine.close();
    }
  });
});

describe('the pattern worker', () => {
  it('answers a message without its regex entities once they waited too long behind another message', async () => {
    const errors: unknown[] = [];
    const engine = createNluEngine({ patternTimeoutMs: 5000, patternQueueMs: 100, onPatternError: (error) => errors.push(error) });
    try {
      const { model } = await engine.train('en', shopTraining as never);
      const legacy = withNlpjsRegexRule(model, 'slow', '(\\w+\\s?){1,1000}!');
      await engine.parse(legacy, 'en', 'hello', { cacheKey: 'slow' }); // compiles the pattern
      const slowStarted = engine.patterns.nextStart();
      const slow = engine.parse(legacy, 'en', 'lorem ipsum '.repeat(700), { cacheKey: 'slow' }); // seconds of matching
      await slowStarted; // the thread is busy with it: the next message queues behind it
      const other = await engine.parse(model, 'en', 'status of order ORD-654321', { cacheKey: 'other' });
      assert.equal(other.intent, 'order.status');
      assert.deepEqual(other.entities, []);
      assert.match(String(errors[0]), /waited longer than 100 ms/);
      await slow;
    } finally {
      await engine.close();
    }
  });
});

describe('intent answers', () => {
  async function answer(training: typeof orderTraining, text: string) {
    const { model } = await nlu.train('en', training);
    return answerWithIntent(nlu, { read: async () => ({ model, training }), language: 'en', cacheKey: `answers:${JSON.stringify(training)}` }, text);
  }

  it('fill a response with the entities of the message', async () => {
    assert.equal((await answer(orderTraining, 'please cancel order #884422')).text, 'Order #884422 has been cancelled.');
  });

  it('ask for a missing entity rather than show its name', async () => {
    const reply = await answer(orderTraining, 'please cancel my order');
    assert.equal(reply.intent, 'cancel');
    assert.equal(reply.text, 'Could you tell me the order number?');
  });

  it('choose a response that needs no missing entity when there is one', async () => {
    const training = structuredClone(orderTraining);
    training.intents[0]!.responses = ['Order {order_number} has been cancelled.', 'Your order has been cancelled.'];
    for (const text of ['please cancel my order', 'cancel my order', 'I want to cancel an order']) {
      assert.equal((await answer(training, text)).text, 'Your order has been cancelled.', text);
    }
    // With the number given, either response may be picked, both complete.
    assert.match((await answer(training, 'cancel order #884422')).text ?? '', /^(Order #884422 has|Your order has) been cancelled\.$/);
  });
});
