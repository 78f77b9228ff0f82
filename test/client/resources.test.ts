// Every resource method against the real service mounted at /v1 (a fresh tenant per test).
import { expect, waitUntil } from '@open-wc/testing';
import { AiChatClient, ApiError, type TrainingJob } from '../../src/client/index.js';
import { SUPPORT_BOT, clientFor, rejectionOf } from './fixtures.js';

describe('client basics', () => {
  it('defaults baseUrl to the page origin + /v1 and strips a trailing slash', () => {
    expect(new AiChatClient().baseUrl).to.equal(`${location.origin}/v1`);
    expect(new AiChatClient({ baseUrl: '/v1/' }).baseUrl).to.equal(`${location.origin}/v1`);
  });

  it('rejects an empty id instead of requesting a different route', async () => {
    const { client } = await clientFor();
    expect(await rejectionOf(() => client.bots.get(''))).to.be.instanceOf(TypeError);
  });

  it('encodes path ids: an id with a slash is a missing resource, not another route', async () => {
    const { client } = await clientFor();
    const error = await rejectionOf(() => client.bots.get('bot_x/messages'));
    expect(error).to.be.instanceOf(ApiError);
    expect((error as ApiError).status).to.equal(404);
    expect((error as ApiError).code).to.equal('resource_not_found');
  });
});

describe('bots', () => {
  it('creates, lists, reads, updates and messages a bot', async () => {
    const { client } = await clientFor();
    const created = await client.bots.create(SUPPORT_BOT);
    expect(created.status).to.equal(201);
    expect(created.data.id).to.match(/^bot_/);
    expect(created.meta.request_id).to.be.a('string');
    expect(created.rateLimit?.limit).to.be.a('number');

    const page = await client.bots.list({ limit: 10 });
    expect(page.data.items.map((bot) => bot.id)).to.include(created.data.id);

    const read = await client.bots.get(created.data.id);
    expect(read.data.name).to.equal('Support');

    const updated = await client.bots.update(created.data.id, { description: 'Front desk' });
    expect(updated.data.description).to.equal('Front desk');

    const reply = await client.bots.sendMessage(created.data.id, { message: 'what are your opening hours', user_id: 'user-1' });
    expect(reply.data.intent).to.equal('hours');
    expect(reply.data.message.content).to.equal('We are open 9 to 5, Monday to Friday.');
    expect(reply.data.conversation_id).to.match(/^conv_/);
  });

  it('paginates with limit and cursor', async () => {
    const { client } = await clientFor();
    for (const name of ['A', 'B', 'C']) await client.bots.create({ name });
    const first = await client.bots.list({ limit: 2 });
    expect(first.data.items).to.have.length(2);
    expect(first.data.has_more).to.equal(true);
    const second = await client.bots.list({ limit: 2, cursor: first.data.next_cursor! });
    const names = [...first.data.items, ...second.data.items].map((bot) => bot.name).sort();
    expect(names).to.deep.equal(['A', 'B', 'C']);
  });

  it('surfaces validation errors with param and details', async () => {
    const { client } = await clientFor();
    const error = await rejectionOf(() => client.bots.create({ name: '' }));
    expect((error as ApiError).status).to.equal(400);
    expect((error as ApiError).code).to.equal('validation_failed');
    expect((error as ApiError).message).to.contain('POST /v1/bots');
  });
});

describe('chat', () => {
  it('sends a message and reads the conversation history', async () => {
    const { client } = await clientFor();
    const bot = (await client.bots.create(SUPPORT_BOT)).data;
    const reply = await client.chat.send({ messages: [{ role: 'user', content: 'hello' }], bot_id: bot.id, user_id: 'user-7' });
    expect(reply.data.message.role).to.equal('assistant');
    expect(reply.data.message.content.length).to.be.greaterThan(0);

    const history = await client.chat.history({ conversation_id: reply.data.conversation_id });
    expect(history.data.items.map((message) => message.role)).to.deep.equal(['user', 'assistant']);
    expect(history.data.items[1]!.content).to.equal(reply.data.message.content);

    const byUser = await client.chat.history({ user_id: 'user-7', bot_id: bot.id, limit: 50 });
    expect(byUser.data.items.map((message) => message.id)).to.include(reply.data.message.id);
  });
});

describe('agents', () => {
  it('creates, lists, reads and updates an agent, then trains it and polls the job', async () => {
    const { client } = await clientFor();
    const created = await client.agents.create({
      name: 'Helper',
      instructions: 'Answer briefly.',
      examples: [
        { input: 'hello', output: 'Hi! How can I help?' },
        { input: 'hi there', output: 'Hi! How can I help?' },
        { input: 'bye', output: 'Goodbye!' },
        { input: 'see you later', output: 'Goodbye!' },
      ],
    });
    expect(created.data.id).to.match(/^agt_/);
    expect((await client.agents.list()).data.items.map((agent) => agent.id)).to.include(created.data.id);
    expect((await client.agents.get(created.data.id)).data.name).to.equal('Helper');
    expect((await client.agents.update(created.data.id, { description: 'Greeter' })).data.description).to.equal('Greeter');

    const started = await client.agents.train(created.data.id, { holdout: 0 });
    expect(started.status).to.equal(202);
    let job: TrainingJob = started.data;
    // The job's row is written by the service; from the browser, reading it is the only signal.
    await waitUntil(
      async () => {
        job = (await client.agents.job(created.data.id, job.id)).data;
        return job.status !== 'queued' && job.status !== 'running';
      },
      'the training job did not finish',
      { interval: 100, timeout: 5000 },
    );
    expect(job.status).to.equal('succeeded');
    const jobs = await client.agents.jobs(created.data.id, { limit: 5 });
    expect(jobs.data.items.map((item) => item.id)).to.include(job.id);
  });
});

describe('knowledge', () => {
  it('creates, reads, lists, updates and searches entries (tags comma-joined)', async () => {
    const { client } = await clientFor();
    const refunds = await client.knowledge.create({
      title: 'Refund policy',
      content: 'Refunds are issued within 14 days of purchase when the item is unused.',
      tags: ['billing', 'policy'],
    });
    await client.knowledge.create({ title: 'Shipping', content: 'We ship worldwide within 5 business days.', tags: ['shipping'] });
    expect((await client.knowledge.get(refunds.data.id)).data.title).to.equal('Refund policy');
    expect((await client.knowledge.list()).data.items).to.have.length(2);

    const updated = await client.knowledge.update(refunds.data.id, { content: 'Refunds are issued within 30 days of purchase.' });
    expect(updated.data.version).to.equal(2);

    const hits = await client.knowledge.search({ q: 'refund days', tags: ['billing', 'other'], limit: 5 });
    expect(hits.data.items.map((hit) => hit.entry_id)).to.deep.equal([refunds.data.id]);
    const none = await client.knowledge.search({ q: 'refund days', tags: ['shipping'] });
    expect(none.data.items.map((hit) => hit.entry_id)).not.to.include(refunds.data.id);
  });
});

describe('analytics', () => {
  it('reports usage and performance', async () => {
    const { client } = await clientFor();
    const bot = (await client.bots.create(SUPPORT_BOT)).data;
    await client.bots.sendMessage(bot.id, { message: 'hello', user_id: 'u-1' });
    const usage = await client.analytics.usage({ granularity: 'hour' });
    expect(usage.data.granularity).to.equal('hour');
    expect(usage.data.totals.requests).to.be.greaterThan(0);
    const performance = await client.analytics.performance({ bot_id: bot.id });
    expect(performance.data.bot_id).to.equal(bot.id);
    expect(performance.data.replies).to.equal(1);
    const topics = await client.analytics.topics({ bot_id: bot.id, limit: 5 });
    expect(topics.data.bot_id).to.equal(bot.id);
    expect(topics.data.intents.reduce((sum, row) => sum + row.count, 0) + topics.data.unanswered.length).to.be.greaterThan(0);
  });
});

describe('csat', () => {
  it('reads whether to ask, gives a rating once (409 after), sets when to ask, and reports it', async () => {
    const { client } = await clientFor();
    const bot = (await client.bots.create(SUPPORT_BOT)).data;
    const turn = await client.bots.sendMessage(bot.id, { message: 'hello', user_id: 'u-1' });
    const conversationId = turn.data.conversation_id;
    expect((await client.csat.state(conversationId, { user_id: 'u-1' })).data).to.deep.equal({ conversation_id: conversationId, survey: false, moment: 'after_bot', csat: null });
    const settings = await client.csat.updateSettings(bot.id, { after_bot: true });
    expect(settings.data).to.deep.equal({ bot_id: bot.id, after_handoff: true, after_bot: true });
    expect((await client.csat.settings(bot.id)).data.after_bot).to.equal(true);
    expect((await client.csat.state(conversationId)).data.survey).to.equal(true);

    const given = await client.csat.give(conversationId, { rating: 4, comment: 'Good', user_id: 'u-1' });
    expect(given.status).to.equal(201);
    expect(given.data).to.include({ conversation_id: conversationId, rating: 4, comment: 'Good', user_id: 'u-1', operator_id: null });
    const again = await rejectionOf(() => client.csat.give(conversationId, { rating: 1, user_id: 'u-1' }));
    expect([(again as ApiError).status, (again as ApiError).code]).to.deep.equal([409, 'csat_already_given']);

    const report = await client.analytics.support({ bot_id: bot.id, limit: 5 });
    expect(report.data.totals.csat).to.deep.equal({ responses: 1, satisfied: 1, satisfied_share: 1, mean: 4 });
    expect(report.data.comments.map((c) => c.comment)).to.deep.equal(['Good']);
  });
});

describe('conversations', () => {
  it('lists conversations with filters and a cursor, reads one, deletes one (then 404)', async () => {
    const { client } = await clientFor();
    const bot = (await client.bots.create(SUPPORT_BOT)).data;
    const ann = await client.bots.sendMessage(bot.id, { message: 'what are your opening hours', user_id: 'ann' });
    const bob = await client.bots.sendMessage(bot.id, { message: 'hello', user_id: 'bob' });

    const all = await client.conversations.list({ limit: 1 });
    expect(all.data.items.map((c) => c.id)).to.deep.equal([bob.data.conversation_id]);
    const next = await client.conversations.list({ limit: 1, cursor: all.data.next_cursor! });
    expect(next.data.items.map((c) => c.id)).to.deep.equal([ann.data.conversation_id]);

    const filtered = await client.conversations.list({ bot_id: bot.id, user_id: 'ann', q: 'OPENING hour', from: '2020-01-01' });
    expect(filtered.data.items.map((c) => c.id)).to.deep.equal([ann.data.conversation_id]);
    expect(filtered.data.items[0]!.last_message?.role).to.equal('assistant');

    const one = await client.conversations.get(ann.data.conversation_id);
    expect(one.data.user_id).to.equal('ann');

    const deleted = await client.conversations.delete(ann.data.conversation_id);
    expect(deleted.data).to.deep.equal({ id: ann.data.conversation_id, deleted: true, conversations: 1, messages: 2 });
    const again = await rejectionOf(() => client.conversations.delete(ann.data.conversation_id));
    expect((again as ApiError).status).to.equal(404);
    expect((again as ApiError).code).to.equal('resource_not_found');
  });
});

describe('deletes', () => {
  it('deletes a bot, an agent and a knowledge entry, and the usage report counts them', async () => {
    const { client } = await clientFor();
    const bot = (await client.bots.create(SUPPORT_BOT)).data;
    await client.bots.sendMessage(bot.id, { message: 'hello', user_id: 'u-1' });
    const agent = (await client.agents.create({ name: 'Short-lived' })).data;
    const entry = (await client.knowledge.create({ title: 'Old policy', content: 'Obsolete walrus rules.' })).data;

    expect((await client.bots.delete(bot.id)).data).to.deep.equal({ id: bot.id, deleted: true, conversations: 1, messages: 2 });
    expect((await client.agents.delete(agent.id)).data.deleted).to.equal(true);
    expect((await client.knowledge.delete(entry.id)).data.deleted).to.equal(true);

    for (const read of [() => client.bots.get(bot.id), () => client.agents.get(agent.id), () => client.knowledge.get(entry.id)]) {
      expect(((await rejectionOf(read)) as ApiError).status).to.equal(404);
    }
    expect((await client.knowledge.search({ q: 'walrus' })).data.items).to.deep.equal([]);
    const usage = await client.analytics.usage();
    expect(usage.data.totals.deleted).to.deep.equal({ bots: 1, agents: 1, knowledge_entries: 1, conversations: 1, messages: 2 });
  });
});
