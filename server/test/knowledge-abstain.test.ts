// Knowledge answers that know when they do not know, end to end: a bot whose knowledge is a banking
// FAQ (bench/data/banking-faq.json) answers paraphrases from the right entry, gives its fallback to
// questions the FAQ does not answer (or hands off, where that is on), quotes the answer rather than
// the FAQ's question, and lets an LLM see only the passages that passed the same relevance gate.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { contentOf, FAQ } from '../../bench/lib/banking-questions.ts';
import { intentAnswers } from '../src/turns/responders/builtin.ts';
import { answerSentences, keywords } from '../src/turns/responders/extract.ts';
import type { Passage } from '../src/turns/responders/retrieval.ts';
import type { IntentAnswer } from '../src/nlu/index.ts';
import { startTestService, type TestClient } from './support/core.ts';
import { startFakeOpenAi, type FakeOpenAi } from './support/fake-openai.ts';
import { handoffSetup, openStream } from './support/handoff.ts';

let api: TestClient;
let llmApi: TestClient;
let fake: FakeOpenAi;
let botId: string;
let ungatedBotId: string;
let entryIds: Map<string, string>;

/** Adds the FAQ to the client's account; answers its entries' ids by key. */
async function addFaq(client: TestClient): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const entry of FAQ) {
    const res = await client.json('/v1/knowledge', { method: 'POST', body: { title: entry.title, content: contentOf(entry) } });
    assert.equal(res.res.status, 201, JSON.stringify(res.body));
    ids.set(entry.key, res.body.data.id);
  }
  return ids;
}

async function bot(knowledge: object): Promise<string> {
  const res = await api.json('/v1/bots', { method: 'POST', body: { name: 'Bank', knowledge } });
  assert.equal(res.res.status, 201, JSON.stringify(res.body));
  return res.body.data.id;
}

let visitor = 0;
async function ask(question: string, id = botId) {
  const res = await api.json(`/v1/bots/${id}/messages`, { method: 'POST', body: { message: question, user_id: `v${++visitor}` } });
  assert.equal(res.res.status, 200, JSON.stringify(res.body));
  return res.body.data;
}

before(async () => {
  fake = await startFakeOpenAi();
  api = await startTestService();
  entryIds = await addFaq(api);
  botId = await bot({ tags: [] });
  ungatedBotId = await bot({ tags: [], min_relevance: 0 });
  llmApi = await startTestService({ llm: { baseUrl: fake.baseUrl, model: 'stream', timeoutMs: 5000 } });
  await addFaq(llmApi);
});
after(async () => {
  await api.service.close();
  await llmApi.service.close();
  await fake.close();
});

/** Questions a bank's FAQ has no answer to, some sharing a word with it ("pay", "card", "travel"). */
const OUT_OF_DOMAIN = [
  'can I pay with bitcoin?',
  "what's the weather going to be like in Lisbon tomorrow",
  'give me a recipe for banana bread',
  'how long should I boil an egg',
  "i don't like this song, can you skip it",
  'what should I do if my dog is sick',
  'do i need a visa to travel to brazil',
];

/** Paraphrases (not the titles' words) with the entry that answers each. */
const IN_DOMAIN: [string, string][] = [
  ['I lost my debit card, what now?', 'lost-card'],
  ['how can I reset my card pin', 'pin'],
  ['are there international transaction fees when I pay abroad', 'foreign-fees'],
  ['can I pay back my personal loan early', 'loan-early'],
  ['how do I send money overseas to my sister', 'international-transfer'],
  ['where do I find my routing number', 'routing'],
];

describe('knowledge answers abstain', () => {
  it('gives the fallback to questions the knowledge does not answer', async () => {
    for (const question of OUT_OF_DOMAIN) {
      const reply = await ask(question);
      assert.equal(reply.fallback, true, `${question} -> ${reply.message.content}`);
      assert.equal(reply.message.source, 'fallback');
      assert.deepEqual(reply.message.citations ?? [], []);
    }
  });

  it('answers in-domain paraphrases from the entry that answers them', async () => {
    for (const [question, key] of IN_DOMAIN) {
      const reply = await ask(question);
      assert.equal(reply.fallback, false, `${question} -> ${reply.message.content}`);
      assert.equal(reply.message.source, 'knowledge');
      assert.equal(reply.message.citations[0].entry_id, entryIds.get(key), `${question} -> ${reply.message.citations[0].title}`);
    }
  });

  it('quotes the part of the entry that answers, never the FAQ question', async () => {
    for (const [question, key] of IN_DOMAIN) {
      const { message } = await ask(question);
      const entry = FAQ.find((e) => e.key === key)!;
      assert.ok(!message.content.includes(entry.title), `the title quoted: ${message.content}`);
      assert.doesNotMatch(message.content, /\?(\s|$)/, `a question quoted: ${message.content}`);
      assert.ok(entry.answer.includes(message.content.split(/(?<=\.)\s/)[0]!), `not from the answer: ${message.content}`);
    }
  });

  it('hands off after the fallbacks the bot allows, out-of-domain questions counted', async () => {
    // An account with an operator whose inbox is open: a handoff is available.
    const { api: owner, operator, botId: handing } = await handoffSetup(api.service, { after_fallbacks: 2, intents: [] });
    const inbox = await openStream(api.service.fetch, 'http://127.0.0.1/dashboard/api/inbox/events', { cookie: `aicw_session=${operator.cookie}` });
    try {
      await addFaq(owner);
      const scoped = await owner.json(`/v1/bots/${handing}`, { method: 'PUT', body: { knowledge: { tags: [] } } });
      assert.equal(scoped.res.status, 200, JSON.stringify(scoped.body));
      const user = `v${++visitor}`;
      const say = async (message: string) => (await owner.json(`/v1/bots/${handing}/messages`, { method: 'POST', body: { message, user_id: user } })).body.data;
      assert.equal((await say(OUT_OF_DOMAIN[0]!)).handoff.status, 'bot');
      const second = await say(OUT_OF_DOMAIN[1]!);
      assert.equal(second.fallback, true, JSON.stringify(second));
      assert.equal(second.handoff.status, 'waiting', JSON.stringify(second.handoff));
    } finally {
      inbox.close();
    }
  });

  it('min_relevance 0 turns the gate off; out of 0–1 it is refused', async () => {
    const reply = await ask(OUT_OF_DOMAIN[0]!, ungatedBotId);
    assert.equal(reply.fallback, false, 'without the gate the best passage answers, as before');
    const refused = await api.json('/v1/bots', { method: 'POST', body: { name: 'Bank', knowledge: { tags: [], min_relevance: 1.5 } } });
    assert.equal(refused.res.status, 400);
    assert.equal(refused.body.error.code, 'validation_failed');
    const stored = await api.json(`/v1/bots/${ungatedBotId}`);
    assert.equal(stored.body.data.knowledge.min_relevance, 0);
  });

  it('search hits carry a relevance in 0–1: high for a paraphrase, low for an unrelated question', async () => {
    const relevanceOf = async (q: string) => {
      const res = await api.json(`/v1/knowledge/search?q=${encodeURIComponent(q)}&limit=1`);
      assert.equal(res.res.status, 200, JSON.stringify(res.body));
      return res.body.data.items[0]?.relevance ?? 0;
    };
    const related = await relevanceOf(IN_DOMAIN[0]![0]);
    const unrelated = await relevanceOf(OUT_OF_DOMAIN[0]!);
    assert.ok(related >= 0.5 && related <= 1, `related ${related}`);
    assert.ok(unrelated >= 0 && unrelated < 0.5, `unrelated ${unrelated}`);
  });
});

describe('the LLM sees only passages that pass the gate', () => {
  const systemOf = () => (fake.requests.at(-1)!.body as { messages: { content: string }[] }).messages[0]!.content;
  const chat = (content: string) => llmApi.json('/v1/chat', { method: 'POST', body: { messages: [{ role: 'user', content }] } });

  it('gets no passage for an unrelated question, and is told to say it does not know', async () => {
    fake.scenarioOverride = null;
    const { res, body } = await chat(OUT_OF_DOMAIN[0]!);
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.deepEqual(body.data.citations, []);
    const system = systemOf();
    assert.doesNotMatch(system, /^\[1\] /m, system);
    assert.match(system, /say that you do not know/);
    assert.ok(!FAQ.some((e) => system.includes(e.answer)), 'no FAQ answer in the prompt');
  });

  it('gets the answering passage for an in-domain question', async () => {
    fake.scenarioOverride = null;
    const { body } = await chat(IN_DOMAIN[0]![0]);
    assert.equal(body.data.citations[0].entry_id !== undefined, true);
    assert.match(systemOf(), /^\[1\] What should I do if my card is lost or stolen\?/m);
  });
});

describe('answer sentences and intent against knowledge', () => {
  it('reads the section under the heading the question matches, without the questions', () => {
    const page = [
      '## How do I close my account?',
      'Move your money out first. Then choose Close account in the app.',
      '## How do I change my address?',
      'Open Profile in the app and edit the address. We confirm it by letter.',
    ].join('\n');
    const chosen = answerSentences('Account help', page, keywords('how can I change my address'), 2).map((s) => s.text);
    assert.deepEqual(chosen, ['Open Profile in the app and edit the address.']);
  });

  it('answers with the first sentences after the question when only the question shares its words', () => {
    const entry = 'How do I close my account?\n\nMove your money out first. Then visit a branch. Bring your ID.';
    const chosen = answerSentences('How do I close my account?', entry, keywords('closing my account'), 2).map((s) => s.text);
    assert.deepEqual(chosen, ['Move your money out first.', 'Then visit a branch.']);
  });

  it('quotes an entry that is nothing but its title as written', () => {
    const chosen = answerSentences('Opening hours: 9 to 5', 'Opening hours: 9 to 5', keywords('opening hours'), 2).map((s) => s.text);
    assert.deepEqual(chosen, ['Opening hours: 9 to 5']);
  });

  it('lets the likelier source answer: an intent unless a passage is more relevant than its confidence', () => {
    const intent = (confidence: number): IntentAnswer => ({ matched: true, intent: 'x', confidence, entities: [], text: 'Intent answer.', suggestions: [] });
    const passage = (relevance: number) => [{ hit: { relevance } } as unknown as Passage];
    assert.equal(intentAnswers(intent(0.9), passage(0.6)), true);
    assert.equal(intentAnswers(intent(0.6), passage(0.9)), false);
    assert.equal(intentAnswers(intent(0.6), []), true);
    assert.equal(intentAnswers({ ...intent(0.9), matched: false }, []), false);
  });
});
