// The NLU engine on its own: training in a worker, parsing, entities, guards, templates.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { checkTraining, createNluEngine, renderTemplate, resolveThreshold } from '../src/nlu/index.ts';
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
    const intents = Array.from({ length: 80 }, (_, i) => ({
      name: `t${i}`,
      examples: Array.from({ length: 20 }, (_, j) => `sentence ${j} for topic ${i} token${i}_${j} shared${j % 7}`),
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

  it('rejects languages it does not support', async () => {
    await assert.rejects(nlu.train('xx', { intents: [{ name: 'a', examples: ['a'], responses: ['b'] }] }), { name: 'NluTrainingError' });
  });
});

describe('training checks and templates', () => {
  it('reports undeclared placeholders, duplicates and dangerous regexes with JSON pointers', () => {
    const problems = checkTraining({
      intents: [
        { name: 'a', examples: ['buy {thing}'], responses: ['x'] },
        { name: 'a', examples: ['x'], responses: ['y'] },
      ],
      entities: [
        { name: 'n', type: 'regex', pattern: '(x+)+y' },
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
