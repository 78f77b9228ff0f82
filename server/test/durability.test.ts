// Durability: the real server as a child process on a PGlite data directory (or, with
// AI_CHAT_TEST_DATABASE_URL, a PostgreSQL database), concurrent writes (chat turns with
// Idempotency-Keys, knowledge creates and updates, an agent training), `kill -9` in the middle,
// restart on the same data, and check: every ACKNOWLEDGED write is there,
// knowledge search matches the stored text (no stale index), and no training job claims success
// it did not reach before the kill. A few rounds, each restart checking everything so far.
// Chat turns cut off by the kill are retried after the restart with their Idempotency-Key: each
// must then be stored exactly once, whether the first attempt was committed or not.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startChildServer, type ChildServer } from './support/child-server.ts';
import { testDatabase, type TestDatabase } from './support/test-database.ts';

const ROUNDS = 3;
const API_KEY = 'aicw_sk_durability-test-key-0123456789';
const CHAT_WRITERS = 4;
const KNOWLEDGE_WRITERS = 3;

let database: TestDatabase;
let server: ChildServer | undefined;
before(async () => {
  database = await testDatabase({ persistent: true });
});
after(async () => {
  if (server?.child.exitCode === null && server.child.signalCode === null) await server.kill('SIGKILL');
  await database?.cleanup();
});

/** A word no other entry contains and that is far (in edit distance) from every other such word. */
const word = () => Array.from(randomBytes(10), (b) => String.fromCharCode(97 + (b % 26))).join('');

interface Acked {
  /** user message content → conversation it was acknowledged in, and the reply's id */
  chats: Map<string, { conversationId: string; replyId: string }>;
  /** knowledge entry id → last acknowledged version and the one update possibly in flight */
  entries: Map<string, { version: number; token: string; content: string; stale: Set<string>; inFlight?: { token: string; content: string } }>;
  jobs: Set<string>;
  agentId?: string;
  interruptedSeen: number;
}

const acked: Acked = { chats: new Map(), entries: new Map(), jobs: new Set(), interruptedSeen: 0 };
/** Chat turns in flight at a kill (never answered): retried with the same key after the restart. */
const unacked: { content: string; key: string; body: unknown }[] = [];
let retriedAfterKill = 0;
/** Of those, how many had been stored before the kill (answered from the stored turn). */
let replayedAfterKill = 0;
/** Conversation each chat writer continues across rounds (created by its first acknowledged turn). */
const writerConversations: (string | undefined)[] = [];

async function api(path: string, init: { method?: string; body?: unknown; key?: string } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${API_KEY}` };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.key) headers['idempotency-key'] = init.key;
  const res = await fetch(`${server!.url}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: (await res.json()) as any, replayed: res.headers.get('idempotent-replayed') === 'true' }; // eslint-disable-line @typescript-eslint/no-explicit-any -- asserted field by field
}

async function chatWriter(index: number, round: number, stop: AbortSignal) {
  for (let n = 0; !stop.aborted; n++) {
    const content = `round ${round} writer ${index} turn ${n} ${word()}`;
    const conversationId = writerConversations[index];
    const body = { messages: [{ role: 'user', content }], user_id: `writer-${index}`, ...(conversationId ? { conversation_id: conversationId } : {}) };
    const key = randomUUID();
    const res = await api('/v1/chat', { body, key }).catch(() => null);
    if (!res) {
      unacked.push({ content, key, body }); // the server died under us: this turn is not acknowledged
      return;
    }
    assert.equal(res.status, 200, JSON.stringify(res.body));
    writerConversations[index] ??= res.body.data.conversation_id;
    acked.chats.set(content, { conversationId: res.body.data.conversation_id, replyId: res.body.data.message.id });
  }
}

async function knowledgeWriter(round: number, stop: AbortSignal) {
  let mine: string | undefined;
  for (let n = 0; !stop.aborted; n++) {
    const token = word();
    const content = `Durable entry text ${token}.`;
    if (!mine || n % 3 === 0) {
      const res = await api('/v1/knowledge', { body: { title: `Round ${round}`, content }, key: randomUUID() }).catch(() => null);
      if (!res) return;
      assert.equal(res.status, 201, JSON.stringify(res.body));
      mine = res.body.data.id as string;
      acked.entries.set(mine, { version: 1, token, content, stale: new Set() });
      continue;
    }
    const entry = acked.entries.get(mine)!;
    entry.inFlight = { token, content };
    const res = await api(`/v1/knowledge/${mine}`, { method: 'PUT', body: { content } }).catch(() => null);
    if (!res) return; // left in flight: it may or may not have been committed
    assert.equal(res.status, 200, JSON.stringify(res.body));
    entry.stale.add(entry.token);
    Object.assign(entry, { version: res.body.data.version, token, content, inFlight: undefined });
  }
}

/** Starts a training and kills the server while it (most likely) runs, with writes still going. */
async function roundOfWrites(round: number): Promise<number> {
  const stop = new AbortController();
  const writers = [
    ...Array.from({ length: CHAT_WRITERS }, (_, i) => chatWriter(i, round, stop.signal)),
    ...Array.from({ length: KNOWLEDGE_WRITERS }, () => knowledgeWriter(round, stop.signal)),
  ];
  await sleep(1500 + round * 200);
  const train = await api(`/v1/agents/${acked.agentId}/train`, { body: {}, key: randomUUID() });
  assert.equal(train.status, 202, JSON.stringify(train.body));
  acked.jobs.add(train.body.data.id);
  await sleep(round === 0 ? 5 : 60);
  const killedAt = Date.now();
  await server!.kill('SIGKILL');
  stop.abort();
  await Promise.all(writers);
  return killedAt;
}

async function historyOf(conversationId: string) {
  const history = await api(`/v1/chat/history?conversation_id=${conversationId}&limit=100`);
  assert.equal(history.status, 200, JSON.stringify(history.body));
  let items = history.body.data.items as { id: string; content: string }[];
  for (let cursor = history.body.data.next_cursor; cursor; ) {
    const next = await api(`/v1/chat/history?conversation_id=${conversationId}&limit=100&cursor=${cursor}`);
    items = items.concat(next.body.data.items);
    cursor = next.body.data.next_cursor;
  }
  return items;
}

/** Retries every chat turn the kill cut off, with its key: stored exactly once, answered the same twice. */
async function retryUnacknowledged() {
  for (const { content, key, body } of unacked.splice(0)) {
    const retry = await api('/v1/chat', { body, key });
    if (database.kind === 'postgres' && retry.status === 409) {
      // Several processes may share a server: a running key is freed by its age, not by a restart.
      assert.equal(retry.body.error.code, 'request_in_progress', JSON.stringify(retry.body));
      continue;
    }
    assert.equal(retry.status, 200, `retry of an unacknowledged turn: ${JSON.stringify(retry.body)}`);
    const { conversation_id: conversationId, message } = retry.body.data;
    const again = await api('/v1/chat', { body, key });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.data.message.id, message.id, 'a second retry must answer the same reply');
    const items = await historyOf(conversationId);
    assert.equal(items.filter((m) => m.content === content).length, 1, `retried message lost or doubled: ${content}`);
    acked.chats.set(content, { conversationId, replyId: message.id });
    retriedAfterKill++;
    if (retry.replayed) replayedAfterKill++;
  }
}

async function verify(killedAt: number) {
  await retryUnacknowledged();
  for (const [content, { conversationId, replyId }] of acked.chats) {
    const items = await historyOf(conversationId);
    assert.equal(items.filter((m) => m.content === content).length, 1, `acknowledged message lost or doubled: ${content}`);
    assert.ok(items.some((m) => m.id === replyId), `acknowledged reply ${replyId} lost`);
  }
  for (const [id, expected] of acked.entries) {
    const res = await api(`/v1/knowledge/${id}`);
    assert.equal(res.status, 200, `acknowledged entry ${id} lost: ${JSON.stringify(res.body)}`);
    const stored = res.body.data;
    if (stored.version === expected.version) {
      assert.equal(stored.content, expected.content, `entry ${id} at v${stored.version} lost its acknowledged text`);
    } else {
      // only the one update that was in flight at the kill may have landed on top
      assert.equal(stored.version, expected.version + 1, `entry ${id}: v${stored.version} after acknowledged v${expected.version}`);
      assert.equal(stored.content, expected.inFlight?.content, `entry ${id}: unexpected text ${stored.content}`);
      expected.stale.add(expected.token);
      Object.assign(expected, { version: stored.version, token: expected.inFlight!.token, content: stored.content });
    }
    expected.inFlight = undefined;
    const found = await api(`/v1/knowledge/search?q=${expected.token}&limit=5`);
    assert.ok(found.body.data.items.some((hit: { entry_id: string }) => hit.entry_id === id), `search does not find ${id} by ${expected.token}`);
    for (const old of expected.stale) {
      const stale = await api(`/v1/knowledge/search?q=${old}&limit=5`);
      assert.ok(!stale.body.data.items.some((hit: { entry_id: string }) => hit.entry_id === id), `search finds ${id} by its old text ${old}`);
    }
  }
  const jobs = (await api(`/v1/agents/${acked.agentId}/jobs?limit=100`)).body.data.items as {
    id: string;
    status: string;
    metrics: unknown;
    error: { code: string } | null;
    finished_at: string | null;
  }[];
  for (const id of acked.jobs) assert.ok(jobs.some((j) => j.id === id), `acknowledged training job ${id} lost`);
  acked.interruptedSeen = 0;
  for (const job of jobs) {
    assert.ok(['succeeded', 'failed'].includes(job.status), `job ${job.id} still ${job.status} after a restart`);
    if (job.status === 'succeeded') {
      assert.ok(job.metrics && job.finished_at, `job ${job.id} succeeded without metrics`);
      assert.ok(Date.parse(job.finished_at) <= killedAt + 20, `job ${job.id} reports success at ${job.finished_at}, after the kill`);
    } else {
      assert.equal(job.error?.code, 'interrupted', JSON.stringify(job));
      acked.interruptedSeen++;
    }
  }
}

describe('durability under kill -9', () => {
  it('keeps every acknowledged write across kill -9 and restarts', async (t) => {
    let killedAt = 0;
    for (let round = 0; round <= ROUNDS; round++) {
      if (round > 0 && database.kind === 'postgres') {
        // Processes may share a PostgreSQL server, so a start takes over only training jobs whose
        // heartbeat stopped long ago (a fresh one may be a live run elsewhere): the killed process
        // has been dead for a while, as far as the next start can tell.
        await database.execute(`UPDATE training_jobs SET heartbeat_at = now() - interval '1 hour' WHERE status IN ('queued', 'running')`);
      }
      server = await startChildServer({ storage: database.env, apiKey: API_KEY });
      if (round > 0) await verify(killedAt);
      if (round === ROUNDS) break;
      if (round === 0) {
        const examples = Array.from({ length: 40 }, (_, i) => ({ input: `question number ${i} about topic ${i % 8} ${word()}`, output: `Answer for topic ${i % 8}.` }));
        const agent = await api('/v1/agents', { body: { name: 'Durable', examples } });
        assert.equal(agent.status, 201, JSON.stringify(agent.body));
        acked.agentId = agent.body.data.id;
      }
      killedAt = await roundOfWrites(round);
    }
    const counts = { chats: acked.chats.size, entries: acked.entries.size, jobs: acked.jobs.size, interrupted: acked.interruptedSeen, retried: retriedAfterKill, replayed: replayedAfterKill };
    t.diagnostic(`acknowledged and verified: ${JSON.stringify(counts)}`);
    assert.ok(counts.chats >= 20 && counts.entries >= 6, `too little was written to mean anything: ${JSON.stringify(counts)}`);
    assert.ok(counts.interrupted >= 1, `no training was ever interrupted, the check proved nothing: ${JSON.stringify(counts)}`);
    if (database.kind === 'pglite') assert.ok(counts.retried >= 1, `no chat turn was cut off by a kill, the retry check proved nothing: ${JSON.stringify(counts)}`);
    assert.equal(await server!.kill('SIGTERM'), '0', server!.output());
  });
});
