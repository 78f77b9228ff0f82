// POST /v1/chat end to end: the built-in responder's three paths, conversations, SSE, errors.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clientFor, shopTraining, startTestService, type TestClient } from './support/core.ts';
import { parseSseBody } from './support/sse.ts';

let api: TestClient;
let botId: string;

const user = (content: string) => ({ role: 'user', content });

before(async () => {
  api = await startTestService();
  // A bot reads no knowledge unless it is given a scope: this one may use every entry.
  const bot = await api.json('/v1/bots', {
    method: 'POST',
    body: { name: 'Shop', training: shopTraining, quick_replies: ['Pricing', 'Install'], knowledge: { tags: [] } },
  });
  botId = bot.body.data.id;
  for (const entry of [
    {
      title: 'Theming the widget',
      content:
        'The widget is themed with CSS custom properties. Set --chat-accent on the element to change the accent colour. ' +
        'Dark mode follows prefers-color-scheme unless you set the theme attribute.',
      tags: ['docs'],
    },
    {
      title: 'Rate limits',
      content: 'Every account may send 120 requests per minute. Responses carry X-RateLimit headers; a 429 answer says when to retry.',
      tags: ['api'],
    },
  ]) {
    const res = await api.json('/v1/knowledge', { method: 'POST', body: entry });
    assert.equal(res.res.status, 201, JSON.stringify(res.body));
  }
});
after(() => api.service.close());

async function chat(body: Record<string, unknown>, client = api) {
  return client.json('/v1/chat', { method: 'POST', body });
}

describe('built-in responder', () => {
  it('answers with the bot intent when confident', async () => {
    const { res, body } = await chat({ messages: [user('how do I install it with vuejs')], bot_id: botId });
    assert.equal(res.status, 200);
    const data = body.data;
    assert.equal(data.source, 'intent');
    assert.equal(data.intent, 'install');
    assert.ok(data.confidence >= 0.7);
    assert.equal(data.message.content, 'Here is how to install it in vue.');
    assert.equal(data.message.role, 'assistant');
    assert.match(data.conversation_id, /^conv_/);
    assert.deepEqual(data.citations, []);
  });

  it('answers from the knowledge base with citations when no intent matches', async () => {
    const { body } = await chat({ messages: [user('How do I change the accent colour with CSS custom properties?')], bot_id: botId });
    const data = body.data;
    assert.equal(data.source, 'knowledge', JSON.stringify(data));
    assert.match(data.message.content, /--chat-accent/);
    assert.equal(data.citations[0].title, 'Theming the widget');
    assert.match(data.citations[0].entry_id, /^kb_/);
    assert.ok(data.citations[0].score > 0);
    assert.deepEqual(data.message.citations, data.citations);
  });

  it('falls back honestly with suggestions when nothing matches', async () => {
    const { body } = await chat({ messages: [user('what is the weather on mars')], bot_id: botId });
    const data = body.data;
    assert.equal(data.source, 'fallback');
    assert.equal(data.intent, null);
    assert.equal(data.message.content, 'Sorry, I did not get that.'); // the bot's own fallback response
    assert.deepEqual(data.suggestions, ['Pricing', 'Install']);
  });

  it('without a bot: knowledge, else the default "don\'t know" answer', async () => {
    const known = (await chat({ messages: [user('How many requests per minute does the rate limit allow?')] })).body.data;
    assert.equal(known.source, 'knowledge');
    assert.match(known.message.content, /120 requests per minute/);
    const unknown = (await chat({ messages: [user('zyxwv qwerty plugh')] })).body.data;
    assert.equal(unknown.source, 'fallback');
    assert.match(unknown.message.content, /don't know/);
  });
});

describe('duplicate knowledge', () => {
  it('quotes and cites a passage stored twice (or with other spacing and case) once', async () => {
    const tenant = clientFor(api.service, (await api.service.createAccount()).apiKey);
    const refunds = 'Refunds are paid within 14 days of the return. Refunds go back to the original card.';
    for (const [title, content] of [
      ['Refund policy', refunds],
      ['Refund policy (imported again)', refunds],
      ['Refund policy (copy)', `  ${refunds.toUpperCase().replace(/ /g, '  ')}\n`],
      ['Shipping', 'Parcels ship within 2 days. Refunds for lost parcels are paid within 14 days of the claim.'],
    ]) {
      const res = await tenant.json('/v1/knowledge', { method: 'POST', body: { title, content } });
      assert.equal(res.res.status, 201, JSON.stringify(res.body));
    }
    const data = (await chat({ messages: [user('How long until refunds are paid after the return?')] }, tenant)).body.data;
    assert.equal(data.source, 'knowledge', JSON.stringify(data));
    const sentence = 'Refunds are paid within 14 days of the return.';
    assert.equal(data.message.content.split(sentence).length - 1, 1, `said once: ${data.message.content}`);
    const titles = data.citations.map((c: { title: string }) => c.title);
    assert.equal(titles.filter((t: string) => t.startsWith('Refund policy')).length, 1, `cited once: ${titles}`);
    assert.equal(new Set(data.citations.map((c: { entry_id: string }) => c.entry_id)).size, data.citations.length);
  });
});

describe('conversations', () => {
  it('continues a conversation and stores the user message and reply each turn', async () => {
    const first = (await chat({ messages: [user('hello')], bot_id: botId, user_id: 'u-1' })).body.data;
    const second = (
      await chat({
        messages: [user('hello'), { role: 'assistant', content: first.message.content }, user('is it free')],
        conversation_id: first.conversation_id,
      })
    ).body.data;
    assert.equal(second.conversation_id, first.conversation_id);
    assert.equal(second.intent, 'pricing'); // the conversation keeps its bot
    const history = (await api.json(`/v1/chat/history?conversation_id=${first.conversation_id}`)).body.data;
    assert.deepEqual(
      history.items.map((m: { role: string; content: string }) => [m.role, m.content]),
      [
        ['user', 'hello'],
        ['assistant', 'Hello! How can I help?'],
        ['user', 'is it free'],
        ['assistant', 'It is free and open source.'],
      ],
    );
  });

  it('answers 404 for an unknown conversation, and for another account\'s', async () => {
    const mine = (await chat({ messages: [user('hello')] })).body.data;
    const other = clientFor(api.service, (await api.service.createAccount()).apiKey);
    for (const [client, id] of [
      [api, 'conv_00000000000000000000'],
      [other, mine.conversation_id],
    ] as const) {
      const { res, body } = await chat({ messages: [user('hi')], conversation_id: id }, client);
      assert.equal(res.status, 404);
      assert.equal(body.error.code, 'resource_not_found');
      assert.equal(body.error.param, 'conversation_id');
    }
    const { res, body } = await chat({ messages: [user('hi')], bot_id: botId }, other);
    assert.equal(res.status, 404);
    assert.equal(body.error.param, 'bot_id');
  });

  it("answers 404 when another user continues someone's conversation, and stores nothing", async () => {
    const alice = (await chat({ messages: [user('hello')], user_id: 'alice' })).body.data;
    for (const intruder of ['bob', 'mallory']) {
      const res = await chat({ messages: [user('let me in')], conversation_id: alice.conversation_id, user_id: intruder });
      assert.equal(res.res.status, 404);
      assert.equal(res.body.error.param, 'conversation_id');
    }
    const history = await api.json(`/v1/chat/history?conversation_id=${alice.conversation_id}`);
    assert.deepEqual(
      history.body.data.items.map((m: { content: string }) => m.content),
      ['hello', alice.message.content],
    );
    const continued = await chat({ messages: [user('me again')], conversation_id: alice.conversation_id, user_id: 'alice' });
    assert.equal(continued.res.status, 200);
  });

  it('validates the request', async () => {
    const cases: [unknown, string, string][] = [
      [{}, 'validation_failed', 'messages'],
      [{ messages: [] }, 'validation_failed', 'messages'],
      [{ messages: [{ role: 'robot', content: 'x' }] }, 'validation_failed', 'messages.0.role'],
      [{ messages: [user('')] }, 'validation_failed', 'messages.0.content'],
      [{ messages: [user('x'.repeat(8001))] }, 'validation_failed', 'messages.0.content'],
      [{ messages: [user('a'), { role: 'assistant', content: 'b' }] }, 'validation_failed', 'messages.1.role'],
      [{ messages: [user('a')], temperature: 1 }, 'unknown_parameter', 'temperature'],
      [{ messages: [user('a')], bot_id: botId, agent_id: 'agt_00000000000000000000' }, 'validation_failed', 'agent_id'],
    ];
    for (const [body, code, param] of cases) {
      const { res, body: envelope } = await chat(body as Record<string, unknown>);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(envelope.error.code, code, JSON.stringify(envelope.error));
      assert.equal(envelope.error.param, param, JSON.stringify(envelope.error));
    }
  });
});

describe('streaming', () => {
  it('streams meta, word deltas and a done envelope whose message equals the deltas', async () => {
    const res = await api.call('/v1/chat', { method: 'POST', body: { messages: [user('How do I change the accent colour with CSS custom properties?')], stream: true } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.equal(res.headers.get('cache-control'), 'no-cache');
    assert.equal(res.headers.get('x-accel-buffering'), 'no');
    const frames = parseSseBody(await res.text());
    assert.equal(frames[0]!.event, 'meta');
    assert.equal(frames[0]!.data.request_id, res.headers.get('x-request-id'));
    const deltas = frames.filter((f) => f.event === 'delta');
    assert.ok(deltas.length > 3, 'word-sized deltas');
    const done = frames.at(-1)!;
    assert.equal(done.event, 'done');
    assert.equal(done.data.success, true);
    assert.equal(done.data.meta.request_id, frames[0]!.data.request_id);
    assert.equal(done.data.data.conversation_id, frames[0]!.data.conversation_id);
    assert.equal(deltas.map((d) => d.data.text).join(''), done.data.data.message.content);
    const history = (await api.json(`/v1/chat/history?conversation_id=${done.data.data.conversation_id}`)).body.data;
    assert.equal(history.items[1].content, done.data.data.message.content); // stored in full
  });

  it('streams for Accept: text/event-stream too', async () => {
    const res = await api.call('/v1/chat', { method: 'POST', body: { messages: [user('hello')], bot_id: botId }, headers: { accept: 'text/event-stream' } });
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const frames = parseSseBody(await res.text());
    assert.deepEqual([...new Set(frames.map((f) => f.event))], ['meta', 'delta', 'done']);
  });

  it('answers errors found before streaming as JSON with their status', async () => {
    const notFound = await api.call('/v1/chat', { method: 'POST', body: { messages: [user('hi')], stream: true, conversation_id: 'conv_00000000000000000000' } });
    assert.equal(notFound.status, 404);
    assert.match(notFound.headers.get('content-type') ?? '', /application\/json/);
    const invalid = await api.call('/v1/chat', { method: 'POST', body: { messages: [], stream: true } });
    assert.equal(invalid.status, 400);
    assert.equal((await invalid.json()).error.code, 'validation_failed');
    const unauthenticated = await api.call('/v1/chat', { method: 'POST', auth: null, body: { messages: [user('hi')], stream: true } });
    assert.equal(unauthenticated.status, 401);
    assert.equal((await unauthenticated.json()).error.code, 'authentication_required');
  });
});

describe('agents in chat', () => {
  it('answers with the agent\'s trained examples, and scopes knowledge by its tags', async () => {
    const created = await api.json('/v1/agents', {
      method: 'POST',
      body: {
        name: 'Support agent',
        knowledge: { tags: ['api'] },
        examples: [
          { input: 'can I get a refund', output: 'Refunds are possible within 30 days.' },
          { input: 'how do refunds work', output: 'Refunds are possible within 30 days.' },
          { input: 'I want my money back', output: 'Refunds are possible within 30 days.' },
          { input: 'where are you located', output: 'We are a remote team.' },
          { input: 'where is your office', output: 'We are a remote team.' },
        ],
      },
    });
    assert.equal(created.res.status, 201, JSON.stringify(created.body));
    const agentId = created.body.data.id;
    const train = await api.json(`/v1/agents/${agentId}/train`, { method: 'POST', body: { holdout: 0 } });
    assert.ok([200, 201, 202].includes(train.res.status), JSON.stringify(train.body));
    const jobId = train.body.data.id;
    await api.service.deps.trainingJobs.runs.running(jobId);
    assert.equal((await api.json(`/v1/agents/${agentId}/jobs/${jobId}`)).body.data.status, 'succeeded');

    const refund = (await chat({ messages: [user('can I get a refund please')], agent_id: agentId })).body.data;
    assert.equal(refund.source, 'intent');
    assert.equal(refund.message.content, 'Refunds are possible within 30 days.');

    // The theming entry is tagged docs, outside this agent's scope: it must not be quoted.
    const theming = (await chat({ messages: [user('How do I change the accent colour with CSS custom properties?')], agent_id: agentId })).body.data;
    assert.notEqual(theming.source, 'knowledge');
    const limits = (await chat({ messages: [user('How many requests per minute does the rate limit allow?')], agent_id: agentId })).body.data;
    assert.equal(limits.source, 'knowledge');
    assert.equal(limits.citations[0].title, 'Rate limits');
  });

  it('answers 404 for an unknown agent', async () => {
    const { res, body } = await chat({ messages: [user('hi')], agent_id: 'agt_00000000000000000000' });
    assert.equal(res.status, 404);
    assert.equal(body.error.param, 'agent_id');
  });
});
