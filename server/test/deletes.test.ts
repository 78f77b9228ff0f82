// DELETE of bots, agents, knowledge entries and conversations over the real service and database
// (PGlite, or PostgreSQL with AI_CHAT_TEST_DATABASE_URL): the data is gone from every table and from
// search, stored Idempotency-Key answers do not hand it out again, cached models are dropped, the
// deletion is counted in the usage report, a second DELETE answers 404, and a message racing a
// delete answers 404 instead of a 500 or an orphaned row.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Service } from '../src/index.ts';
import { newId } from '../src/ids.ts';
import { ServiceError } from '../src/http/errors.ts';
import { shopTraining } from './support/core.ts';
import { caller, memoryService, type Caller } from './support/api.ts';

let service: Service;
let call: Caller;
let accountId: string;

before(async () => {
  service = await memoryService();
  const account = await service.createAccount({ rateLimit: { points: 100_000, durationSeconds: 60 } });
  accountId = account.accountId;
  call = caller(service, account.apiKey);
});
after(() => service?.close());

async function data(path: string, body?: unknown, method?: string, headers?: Record<string, string>) {
  const res = await call(path, { body, method, headers });
  assert.ok(res.status >= 200 && res.status < 300, `${method ?? (body ? 'POST' : 'GET')} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

async function count(query: ReturnType<typeof sql<{ n: string }>>): Promise<number> {
  return Number((await query.execute(service.deps.db)).rows[0]!.n);
}

const messagesOf = (conversationIds: string[]) =>
  count(sql<{ n: string }>`select count(*) as n from messages where conversation_id = any(${conversationIds}::text[])`);

async function expectGone(path: string, param: string) {
  const again = await call(path, { method: 'DELETE' });
  assert.equal(again.status, 404, JSON.stringify(again.body));
  assert.equal(again.body.error.code, 'resource_not_found');
  assert.equal(again.body.error.param, param);
  assert.equal((await call(path)).status, 404);
}

describe('DELETE /v1/bots/{bot_id}', () => {
  it('deletes the bot with every conversation started with it, drops its model and counts it', async () => {
    const bot = await data('/v1/bots', { name: 'Doomed', training: shopTraining });
    const kept = await data('/v1/bots', { name: 'Kept', training: shopTraining });
    const first = await data(`/v1/bots/${bot.id}/messages`, { message: 'hello', user_id: 'ann' });
    await data(`/v1/bots/${bot.id}/messages`, { message: 'how do I install it', user_id: 'ann' });
    const second = await data(`/v1/bots/${bot.id}/messages`, { message: 'hello', user_id: 'bob' });
    const viaChat = await data('/v1/chat', { messages: [{ role: 'user', content: 'hello' }], bot_id: bot.id, user_id: 'cid' });
    const other = await data(`/v1/bots/${kept.id}/messages`, { message: 'hello', user_id: 'ann' });
    const doomed = [first.conversation_id, second.conversation_id, viaChat.conversation_id];
    assert.equal(new Set(doomed).size, 3);
    assert.equal(await messagesOf(doomed), 8);
    const usageBefore = (await data('/v1/analytics/usage')).totals;

    const deletion = await data(`/v1/bots/${bot.id}`, undefined, 'DELETE');
    assert.deepEqual(deletion, { id: bot.id, deleted: true, conversations: 3, messages: 8 });

    await expectGone(`/v1/bots/${bot.id}`, 'bot_id');
    assert.equal(await messagesOf(doomed), 0);
    assert.equal(await count(sql<{ n: string }>`select count(*) as n from conversations where bot_id = ${bot.id}`), 0);
    for (const id of doomed) assert.equal((await call(`/v1/chat/history?conversation_id=${id}`)).status, 404);
    assert.equal((await call(`/v1/bots/${bot.id}/messages`, { body: { message: 'hello', user_id: 'ann' } })).status, 404);
    // the other bot and its conversation are untouched
    assert.equal((await data(`/v1/chat/history?conversation_id=${other.conversation_id}`)).items.length, 2);

    // The model the messages loaded is no longer cached (the kept bot's still is: same key scheme).
    assert.equal(service.deps.nlu.forget(bot.id), 0);
    assert.equal(service.deps.nlu.forget(kept.id), 1);

    const usage = (await data('/v1/analytics/usage')).totals;
    assert.deepEqual(usage.deleted, {
      bots: usageBefore.deleted.bots + 1,
      agents: usageBefore.deleted.agents,
      knowledge_entries: usageBefore.deleted.knowledge_entries,
      conversations: usageBefore.deleted.conversations + 3,
      messages: usageBefore.deleted.messages + 8,
    });
    assert.equal(usage.messages, usageBefore.messages - 8, 'messages counts what is stored');
    // in the series too: the buckets add up to the totals
    const hourly = (await data('/v1/analytics/usage?granularity=hour')).series as { deleted: { bots: number; messages: number } }[];
    assert.equal(hourly.reduce((n, b) => n + b.deleted.bots, 0), usage.deleted.bots);
    assert.equal(hourly.reduce((n, b) => n + b.deleted.messages, 0), usage.deleted.messages);
  });

  it('forgets stored Idempotency-Key answers that hold its replies', async () => {
    const bot = await data('/v1/bots', { name: 'Keyed', training: shopTraining }, undefined, { 'idempotency-key': 'bot-create-1' });
    const reply = await data(`/v1/bots/${bot.id}/messages`, { message: 'hello', user_id: 'kay' }, undefined, { 'idempotency-key': 'bot-msg-1' });
    const naming = (id: string) =>
      count(sql<{ n: string }>`select count(*) as n from idempotency_keys where account_id = ${accountId} and strpos(response_body, ${id}) > 0`);
    assert.equal(await naming(reply.conversation_id), 1);
    assert.equal(await naming(bot.id), 1);
    await data(`/v1/bots/${bot.id}`, undefined, 'DELETE');
    assert.equal(await naming(reply.conversation_id), 0);
    assert.equal(await naming(bot.id), 0);
    // A retry of the keyed message now runs again, and the bot is gone.
    const retry = await call(`/v1/bots/${bot.id}/messages`, { body: { message: 'hello', user_id: 'kay' }, headers: { 'idempotency-key': 'bot-msg-1' } });
    assert.equal(retry.status, 404);
    assert.equal(retry.headers.get('idempotent-replayed'), null);
  });
});

describe('DELETE /v1/agents/{agent_id}', () => {
  const examples = [
    { input: 'what is the secret word', output: 'The secret word is pelican.' },
    { input: 'tell me the password', output: 'The secret word is pelican.' },
    { input: 'hello', output: 'Hi!' },
    { input: 'good morning', output: 'Hi!' },
  ];

  it('deletes the agent with its training jobs and conversations, and drops its model', async () => {
    const agent = await data('/v1/agents', { name: 'Doomed agent', examples });
    const job = await data(`/v1/agents/${agent.id}/train?wait=true`, { holdout: 0 });
    assert.equal(job.status, 'succeeded');
    const chat = await data('/v1/chat', { messages: [{ role: 'user', content: 'what is the secret word' }], agent_id: agent.id, user_id: 'ann' });
    assert.match(chat.message.content, /pelican/);

    const deletion = await data(`/v1/agents/${agent.id}`, undefined, 'DELETE');
    assert.deepEqual(deletion, { id: agent.id, deleted: true, conversations: 1, messages: 2 });
    await expectGone(`/v1/agents/${agent.id}`, 'agent_id');
    assert.equal((await call(`/v1/agents/${agent.id}/jobs/${job.id}`)).status, 404);
    assert.equal(await count(sql<{ n: string }>`select count(*) as n from training_jobs where agent_id = ${agent.id}`), 0);
    assert.equal(await messagesOf([chat.conversation_id]), 0);
    assert.equal(service.deps.nlu.forget(agent.id), 0);
    const usage = (await data('/v1/analytics/usage')).totals.deleted;
    assert.ok(usage.agents >= 1);
  });

  it('lets a training run that was going when the agent was deleted end without recording anything', async () => {
    const agent = await data('/v1/agents', { name: 'Training while deleted', examples });
    const { done } = await service.deps.trainingJobs.start(accountId, agent.id, 0.25);
    await data(`/v1/agents/${agent.id}`, undefined, 'DELETE');
    await done;
    assert.equal(await count(sql<{ n: string }>`select count(*) as n from training_jobs where agent_id = ${agent.id}`), 0);
    assert.equal(await count(sql<{ n: string }>`select count(*) as n from agents where id = ${agent.id}`), 0);
    assert.equal(service.deps.nlu.forget(agent.id), 0, 'no model of the deleted agent stays cached');
  });
});

describe('DELETE /v1/knowledge/{entry_id}', () => {
  it('removes the entry from search and grounded answers at once, and counts it', async () => {
    const entry = await data('/v1/knowledge', { title: 'Walrus policy', content: 'Every walrus gets a free bucket of clams on Fridays.' });
    await data('/v1/knowledge', { title: 'Shipping', content: 'Parcels ship within 5 days.' });
    assert.deepEqual((await data('/v1/knowledge/search?q=walrus%20clams')).items.map((h: { entry_id: string }) => h.entry_id), [entry.id]);
    const before = (await data('/v1/analytics/usage')).totals.deleted.knowledge_entries;

    assert.deepEqual(await data(`/v1/knowledge/${entry.id}`, undefined, 'DELETE'), { id: entry.id, deleted: true, conversations: 0, messages: 0 });
    await expectGone(`/v1/knowledge/${entry.id}`, 'entry_id');
    assert.deepEqual((await data('/v1/knowledge/search?q=walrus%20clams')).items, []);
    const chat = await data('/v1/chat', { messages: [{ role: 'user', content: 'do walrus get clams?' }] });
    assert.doesNotMatch(JSON.stringify(chat), /walrus gets|Walrus policy/);
    assert.equal((await data('/v1/analytics/usage')).totals.deleted.knowledge_entries, before + 1);
  });

  it('does not replay a stored create answer holding the deleted content', async () => {
    const body = { title: 'Secret recipe', content: 'Two parts basil, one part garlic.' };
    const created = await call('/v1/knowledge', { body, headers: { 'idempotency-key': 'kb-create-1' } });
    assert.equal(created.status, 201);
    await data(`/v1/knowledge/${created.body.data.id}`, undefined, 'DELETE');
    const retry = await call('/v1/knowledge', { body, headers: { 'idempotency-key': 'kb-create-1' } });
    assert.equal(retry.status, 201);
    assert.equal(retry.headers.get('idempotent-replayed'), null, 'the retry ran again instead of replaying the deleted entry');
    assert.notEqual(retry.body.data.id, created.body.data.id);
    assert.equal((await call(`/v1/knowledge/${retry.body.data.id}`)).status, 200);
  });
});

describe('DELETE /v1/conversations/{conversation_id}', () => {
  it('deletes the conversation with its messages; the next message starts a new one', async () => {
    const bot = await data('/v1/bots', { name: 'Chatty', training: shopTraining });
    const first = await data(`/v1/bots/${bot.id}/messages`, { message: 'hello', user_id: 'dee' });
    await data(`/v1/bots/${bot.id}/messages`, { message: 'hello again', user_id: 'dee' });
    const before = (await data('/v1/analytics/usage')).totals.deleted;

    const deletion = await data(`/v1/conversations/${first.conversation_id}`, undefined, 'DELETE');
    assert.deepEqual(deletion, { id: first.conversation_id, deleted: true, conversations: 1, messages: 4 });
    await expectGone(`/v1/conversations/${first.conversation_id}`, 'conversation_id');
    assert.equal(await messagesOf([first.conversation_id]), 0);
    assert.equal((await call(`/v1/chat/history?conversation_id=${first.conversation_id}`)).status, 404);
    assert.deepEqual((await data('/v1/chat/history?user_id=dee')).items, []);
    const after = (await data('/v1/analytics/usage')).totals.deleted;
    assert.equal(after.conversations, before.conversations + 1);
    assert.equal(after.messages, before.messages + 4);
    assert.equal(after.bots, before.bots);

    const next = await data(`/v1/bots/${bot.id}/messages`, { message: 'hello', user_id: 'dee' });
    assert.notEqual(next.conversation_id, first.conversation_id);
    // continuing the deleted conversation through chat is a 404, not a new conversation under its id
    const continued = await call('/v1/chat', { body: { messages: [{ role: 'user', content: 'hi' }], conversation_id: first.conversation_id } });
    assert.equal(continued.status, 404);
  });
});

describe('two deletes at once', () => {
  it('one answers 200 and the other 404, and the deletion is counted once', async () => {
    const before = (await data('/v1/analytics/usage')).totals.deleted;
    const bot = await data('/v1/bots', { name: 'Twice' });
    await data(`/v1/bots/${bot.id}/messages`, { message: 'hello', user_id: 'twin' });
    const entry = await data('/v1/knowledge', { title: 'Twice', content: 'Deleted twice at once.' });
    const both = (path: string) => Promise.all([call(path, { method: 'DELETE' }), call(path, { method: 'DELETE' })]);
    for (const answers of [await both(`/v1/bots/${bot.id}`), await both(`/v1/knowledge/${entry.id}`)]) {
      assert.deepEqual(answers.map((a) => a.status).sort(), [200, 404], JSON.stringify(answers.map((a) => a.body)));
    }
    const after = (await data('/v1/analytics/usage')).totals.deleted;
    assert.equal(after.bots, before.bots + 1);
    assert.equal(after.knowledge_entries, before.knowledge_entries + 1);
    assert.equal(after.conversations, before.conversations + 1);
    assert.equal(after.messages, before.messages + 2);
  });
});

describe('a message racing a delete', () => {
  it('answers 404 for a conversation deleted before its messages are stored', async () => {
    const bot = await data('/v1/bots', { name: 'Racer', training: shopTraining });
    const conversation = await service.deps.conversations.openForBotUser(accountId, bot.id, 'racer');
    await data(`/v1/conversations/${conversation.id}`, undefined, 'DELETE');
    await assert.rejects(
      service.deps.conversations.append(accountId, conversation.id, [{ role: 'user', content: 'late' }]),
      (error: unknown) => error instanceof ServiceError && error.code === 'resource_not_found' && error.param === 'conversation_id',
    );
    assert.equal(await messagesOf([conversation.id]), 0);
  });

  it('answers 404 for a bot or agent deleted before its conversation is created, and leaves no orphan', async () => {
    const bot = await data('/v1/bots', { name: 'Gone soon' });
    const agent = await data('/v1/agents', { name: 'Gone soon too' });
    await data(`/v1/bots/${bot.id}`, undefined, 'DELETE');
    await data(`/v1/agents/${agent.id}`, undefined, 'DELETE');
    const isNotFound = (param: string) => (error: unknown) => error instanceof ServiceError && error.code === 'resource_not_found' && error.param === param;
    await assert.rejects(service.deps.conversations.openForBotUser(accountId, bot.id, 'late'), isNotFound('bot_id'));
    for (const [owner, param] of [[{ botId: bot.id }, 'bot_id'], [{ agentId: agent.id }, 'agent_id']] as const) {
      const id = newId('conv');
      await assert.rejects(
        service.deps.conversations.append(accountId, id, [{ role: 'user', content: 'late' }], { create: { id, ...owner, userId: 'late' } }),
        isNotFound(param),
      );
    }
    const orphans = sql<{ n: string }>`select count(*) as n from conversations where bot_id = ${bot.id} or agent_id = ${agent.id}`;
    assert.equal(await count(orphans), 0);
  });
});
