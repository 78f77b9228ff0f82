// On the real service: a tenant's entity regex can never block it (ReDoS), patterns the
// linear-time engine cannot run are refused at create/update, and entities are extracted from any
// message on both endpoints that answer with intents.
//
// The 50 ms bound is the issue's own demand. It is asserted on the CPU time the process (all its
// threads) spends answering, the fastest of a few attempts: on a shared 2-core CI machine wall time
// mostly measures the neighbours, while a backtracking regex burns its seconds as CPU on every
// attempt. Wall time gets a generous bound, and another tenant must answer meanwhile.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { clientFor, type TestClient } from './support/core.ts';
import { createTestService } from './support/test-database.ts';

/** The bound for a message to a bot with a hostile pattern. */
const ANSWER_MS = 50;
/** Generous: another tenant's request only has to answer while the hostile one is processed. */
const OTHER_TENANT_MS = 1000;
/** This file sends hundreds of requests; the rate limit is not under test here. */
const HUGE_PLAN = { points: 1_000_000, durationSeconds: 60 };

let hostile: TestClient;
let bystander: TestClient;
let bystanderBot: string;

before(async () => {
  const service = await createTestService();
  hostile = clientFor(service, (await service.createAccount({ name: 'hostile', rateLimit: HUGE_PLAN })).apiKey);
  bystander = clientFor(service, (await service.createAccount({ name: 'bystander', rateLimit: HUGE_PLAN })).apiKey);
  bystanderBot = await createBot(bystander, {
    intents: [{ name: 'hours', examples: ['when are you open', 'opening hours', 'what time do you open'], responses: ['9 to 5.'] }],
  });
});
after(() => hostile.service.close());

async function createBot(client: TestClient, training: unknown): Promise<string> {
  const { res, body } = await client.json('/v1/bots', { method: 'POST', body: { name: 'b', training } });
  assert.equal(res.status, 201, JSON.stringify(body));
  assert.equal(body.data.status, 'ready');
  return body.data.id;
}

/** A bot whose only entity is `pattern`. (An example names it: nlp.js only ran entity rules then.) */
function trainingWith(pattern: string) {
  return {
    intents: [{ name: 'order', examples: ['where is my order', 'track my order', 'track order {code}'], responses: ['On its way.'] }],
    entities: [{ name: 'code', type: 'regex', pattern }],
  };
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/**
 * The fastest of `attempts` runs: CPU ms (user + system, all threads) and wall ms. Each attempt
 * sends another message (`i`: the attempt), so none is answered from a cache.
 */
async function fastest(work: (i: number) => Promise<unknown>, attempts = 5): Promise<{ cpu: number; wall: number }> {
  const best = { cpu: Infinity, wall: Infinity };
  for (let i = 0; i < attempts; i++) {
    const cpu = process.cpuUsage();
    const { ms } = await timed(() => work(i));
    const used = process.cpuUsage(cpu);
    best.cpu = Math.min(best.cpu, (used.user + used.system) / 1000);
    best.wall = Math.min(best.wall, ms);
  }
  return best;
}

function assertFast({ cpu, wall }: { cpu: number; wall: number }, what: string): void {
  assert.ok(cpu < ANSWER_MS, `${what} took ${Math.round(cpu)} ms of CPU`);
  assert.ok(wall < OTHER_TENANT_MS, `${what} answered in ${Math.round(wall)} ms`);
}

async function botMessage(client: TestClient, botId: string, message: string) {
  const { res, body } = await client.json(`/v1/bots/${botId}/messages`, { method: 'POST', body: { message, user_id: 'u1' } });
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.data;
}

async function chatMessage(client: TestClient, botId: string, content: string) {
  const { res, body } = await client.json('/v1/chat', { method: 'POST', body: { bot_id: botId, messages: [{ role: 'user', content }] } });
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.data;
}

describe('hostile entity regexes (ReDoS)', () => {
  // The timeouts only matter when the bound is broken: a backtracking engine would hang here for hours.
  it('answers the issue\'s patterns within 50 ms on both endpoints while another tenant keeps answering', { timeout: 120_000 }, async () => {
    for (const pattern of ['(a|a)+$', '((a)+)+$']) {
      const botId = await createBot(hostile, trainingWith(pattern));
      // Load both models once: loading is not what is measured.
      await botMessage(hostile, botId, 'track my order');
      await botMessage(bystander, bystanderBot, 'opening hours');
      // 28 `a` + `!` blocked a backtracking engine for ~30 s; each further `a` doubled it.
      for (const length of [28, 60, 1000, 3999]) {
        const hostileMessage = (i: number) => `${'a'.repeat(length - i)}!`;
        const [own, other] = await Promise.all([
          botMessage(hostile, botId, hostileMessage(0)),
          timed(() => botMessage(bystander, bystanderBot, 'when are you open')),
        ]);
        assert.equal(own.intent, null);
        assert.equal(other.value.intent, 'hours');
        assert.ok(other.ms < OTHER_TENANT_MS, `the other tenant answered in ${Math.round(other.ms)} ms`);
        // The bound is for the messages; a 4,000-character one mostly measures storing it.
        if (length > 1000) continue;
        assertFast(await fastest((i) => botMessage(hostile, botId, hostileMessage(i))), `${pattern} × ${length} chars`);
        assertFast(await fastest((i) => chatMessage(hostile, botId, hostileMessage(i))), `${pattern} × ${length} chars on /v1/chat`);
      }
    }
  });

  it('answers generated nested and alternating patterns within 50 ms, or refuses them at the field', { timeout: 120_000 }, async () => {
    // Shapes that make a backtracking engine explode: nested quantifiers, overlapping alternatives.
    const atom = fc.constantFrom('a', 'a?', '.', '\\w', '[ab]', '(?:a|a)', '(?:a|ab)', '(?:aa|a)');
    const quantifier = fc.constantFrom('+', '*', '{1,8}', '{2,}', '+?');
    const pattern = fc.letrec<{ node: string }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        atom,
        fc.tuple(tie('node'), quantifier).map(([inner, q]) => `(${inner})${q}`),
        fc.tuple(tie('node'), tie('node')).map(([left, right]) => `(?:${left}|${right})`),
        fc.tuple(tie('node'), tie('node')).map(([left, right]) => `${left}${right}`),
      ),
    })).node.map((body) => `(${body})+$`);

    await fc.assert(
      fc.asyncProperty(pattern, fc.integer({ min: 20, max: 200 }), async (source, length) => {
        const { res, body } = await hostile.json('/v1/bots', { method: 'POST', body: { name: 'p', training: trainingWith(source) } });
        if (res.status === 400) {
          // Too large a program, or matches empty text: refused at the field, never at message time.
          assert.equal(body.error.code, 'validation_failed', JSON.stringify(body));
          assert.equal(body.error.param, 'training.entities.0.pattern', JSON.stringify(body));
          return;
        }
        assert.equal(res.status, 201, JSON.stringify(body));
        const botId = body.data.id as string;
        await botMessage(hostile, botId, 'track my order');
        for (const unit of ['a', 'ab']) {
          assertFast(await fastest((i) => botMessage(hostile, botId, `${unit.repeat(length - i)}!`), 3), `${source} × ${length} ${unit}`);
        }
      }),
      { numRuns: 25 },
    );
  });
});

describe('patterns the linear-time engine cannot run', () => {
  const refused: [string, string][] = [
    ['a backreference', '(a+)\\1'],
    ['a lookahead', 'ORD-(?=\\d)\\d+'],
    ['a negative lookahead', '(?!x)\\w+'],
    ['a lookbehind', '(?<=#)\\d{6}'],
    ['too large a program', '[a-z]{1,150}'],
    ['a pattern that matches empty text', '\\d*'],
  ];
  for (const [name, pattern] of refused) {
    it(`refuses ${name} at create and at update, at the field`, async () => {
      const create = await hostile.json('/v1/bots', { method: 'POST', body: { name: 'r', training: trainingWith(pattern) } });
      assert.equal(create.res.status, 400, JSON.stringify(create.body));
      assert.equal(create.body.success, false);
      assert.equal(create.body.error.code, 'validation_failed');
      assert.equal(create.body.error.param, 'training.entities.0.pattern');
      assert.equal(create.body.error.details[0].path, '/training/entities/0/pattern');

      const botId = await createBot(hostile, trainingWith('ORD-\\d{6}'));
      const update = await hostile.json(`/v1/bots/${botId}`, { method: 'PUT', body: { training: trainingWith(pattern) } });
      assert.equal(update.res.status, 400, JSON.stringify(update.body));
      assert.equal(update.body.error.param, 'training.entities.0.pattern');
    });
  }
});

describe('entities in any message', () => {
  const training = {
    intents: [
      {
        name: 'cancel',
        examples: ['cancel my order', 'please cancel the order', 'I want to cancel an order'],
        responses: ['Order {order_number} has been cancelled.'],
      },
      { name: 'greeting', examples: ['hello', 'hi there'], responses: ['Hello!'] },
    ],
    entities: [{ name: 'order_number', type: 'regex', pattern: '#?\\d{6}' }],
  };
  let botId: string;
  before(async () => {
    botId = await createBot(hostile, training);
  });

  it('fills a response from an entity no example names, on /v1/bots/{id}/messages and /v1/chat', async () => {
    const reply = await botMessage(hostile, botId, 'please cancel order #884422');
    assert.equal(reply.intent, 'cancel');
    assert.equal(reply.message.content, 'Order #884422 has been cancelled.');
    assert.deepEqual(reply.entities, [{ entity: 'order_number', value: '#884422', text: '#884422' }]);
    const chat = await chatMessage(hostile, botId, 'please cancel order #884422');
    assert.equal(chat.message.content, 'Order #884422 has been cancelled.');
  });

  it('asks for a missing entity instead of showing its name', async () => {
    const reply = await botMessage(hostile, botId, 'please cancel my order');
    assert.equal(reply.intent, 'cancel');
    assert.equal(reply.message.content, 'Could you tell me the order number?');
    const chat = await chatMessage(hostile, botId, 'please cancel my order');
    assert.equal(chat.message.content, 'Could you tell me the order number?');
  });

  it('extracts list entities from any message too', async () => {
    const listBot = await createBot(hostile, {
      intents: [{ name: 'colour', examples: ['which colours do you have', 'show me the colours'], responses: ['We have {colour}.'] }],
      entities: [{ name: 'colour', type: 'list', values: [{ value: 'red', synonyms: ['crimson'] }, { value: 'blue' }] }],
    });
    const reply = await botMessage(hostile, listBot, 'do you have crimson colours');
    assert.deepEqual(reply.entities, [{ entity: 'colour', value: 'red', text: 'crimson' }]);
    assert.equal(reply.message.content, 'We have red.');
  });
});
