// Fuzzing every operation of the OpenAPI document (so new routes are covered without editing this
// file): random and schema-shaped bodies, hostile ids, garbage query strings, content types,
// duplicate headers and odd methods. Every answer must be a documented envelope with rate-limit
// headers and never a 5xx, and the database must be consistent afterwards. Fixed seed, bounded runs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { Service } from '../src/index.ts';
import { isUploadPath, resolveImportConfig, uploadBodyBytes } from '../src/knowledge/import/options.ts';
import { shopTraining } from './support/core.ts';
import { memoryService } from './support/api.ts';
import {
  anyJsonText,
  anyString,
  arbitraryFor,
  assertWellFormed,
  documentedErrorCodes,
  HOSTILE_IDS,
  HOSTILE_STRINGS,
  operationsOf,
  type Answer,
  type Operation,
  type Schema,
} from './support/fuzz-kit.ts';

const SEED = 20260611;
const HUGE_PLAN = { points: 10_000_000, durationSeconds: 60 };

let service: Service;
let apiKey: string;
let doc: Schema;
let ops: Operation[];
let codes: Set<string>;
/** Real ids of this account, by path parameter name. */
const real: Record<string, string> = {};
/** Other real ids, for DELETE: a delete may consume its object, and later checks need `real`'s. */
const disposable: Record<string, string> = {};

interface SendInit {
  headers?: [string, string][];
  body?: string;
  auth?: string | null;
}

/** One raw request through the service's fetch; `undefined` when no client could even build it. */
async function send(method: string, rawPath: string, init: SendInit = {}): Promise<Answer | undefined> {
  let request: Request;
  try {
    const headers = new Headers();
    const auth = init.auth === undefined ? apiKey : init.auth;
    if (auth !== null) headers.append('authorization', `Bearer ${auth}`);
    for (const [name, value] of init.headers ?? []) headers.append(name, value);
    request = new Request(`http://127.0.0.1${rawPath}`, { method, headers, body: init.body });
  } catch {
    return undefined; // e.g. a header value outside Latin-1: not sendable over HTTP/1.1 either
  }
  const res = await service.fetch(request);
  if (res.body && res.headers.get('content-type')?.startsWith('text/event-stream') && /\/events$/.test(new URL(request.url).pathname)) {
    // A live events stream never ends by itself: read its opening frame, then hang up.
    const reader = res.body.getReader();
    let text = '';
    while (!text.includes('\n\n')) {
      const { done, value } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    await reader.cancel();
    return { status: res.status, headers: res.headers, text };
  }
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function check(method: string, rawPath: string, init: SendInit = {}): Promise<Answer | undefined> {
  const answer = await send(method, rawPath, init);
  if (answer) assertWellFormed(answer, codes, `${method} ${rawPath.slice(0, 200)} ${init.body?.slice(0, 200) ?? ''}`, method);
  return answer;
}

const JSON_TYPE: [string, string] = ['content-type', 'application/json'];

/** The real ids a request with `method` uses: DELETEs get the disposable ones. */
const realFor = (method: string) => (method.toUpperCase() === 'DELETE' ? disposable : real);

/** A path for `op` (sent with `method`) with each parameter from `ids` (real ids by default). */
function pathFor(op: Operation, ids: Record<string, string> = {}, method = op.method): string {
  return op.template.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? realFor(method)[name] ?? 'xx_missing0');
}

/** A path id: this account's real one, a well-formed unknown one, or a hostile one (raw or encoded). */
function idArbitrary(name: string, method: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant(realFor(method)[name] ?? 'xx_missing0'),
    fc.stringMatching(/^[a-z]{2,4}_[0-9A-Za-z]{8,40}$/),
    fc.constantFrom(...HOSTILE_IDS),
    anyString.map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, '?'))),
  );
}

function runs(numRuns: number) {
  return { seed: SEED, numRuns, endOnFailure: true, includeErrorInReport: true };
}

before(async () => {
  service = await memoryService({ rateLimit: HUGE_PLAN });
  apiKey = (await service.createAccount({ name: 'fuzz', rateLimit: HUGE_PLAN })).apiKey;
  const res = await service.fetch(new Request('http://127.0.0.1/v1/openapi.json'));
  doc = await res.json();
  ops = operationsOf(doc);
  codes = documentedErrorCodes(doc);

  const post = async (path: string, body: unknown) => {
    const answer = await send('POST', path, { headers: [JSON_TYPE], body: JSON.stringify(body) });
    assert.ok(answer && answer.status < 300, `${path}: ${answer?.text}`);
    return JSON.parse(answer.text).data;
  };
  real.bot_id = (await post('/v1/bots', { name: 'Fuzz bot', training: shopTraining })).id;
  real.agent_id = (await post('/v1/agents', { name: 'Fuzz agent', examples: [{ input: 'hello', output: 'Hi!' }] })).id;
  real.job_id = (await post(`/v1/agents/${real.agent_id}/train?wait=true`, {})).id;
  real.entry_id = (await post('/v1/knowledge', { title: 'Install', content: 'Run npm install ai-chat-widget.' })).id;
  real.conversation_id = (await post('/v1/chat', { messages: [{ role: 'user', content: 'hello' }], user_id: 'fuzzer' })).conversation_id;
  disposable.bot_id = (await post('/v1/bots', { name: 'Fuzz bot to delete', training: shopTraining })).id;
  disposable.agent_id = (await post('/v1/agents', { name: 'Fuzz agent to delete' })).id;
  disposable.job_id = real.job_id;
  disposable.entry_id = (await post('/v1/knowledge', { title: 'Delete me', content: 'Soon gone.' })).id;
  disposable.conversation_id = (await post('/v1/chat', { messages: [{ role: 'user', content: 'hello' }], bot_id: disposable.bot_id, user_id: 'fuzzer' })).conversation_id;
});
after(() => service?.close());

describe('fuzz: every operation of the OpenAPI document', () => {
  it('reads the operations from the document (and knows the routes it must cover)', () => {
    const labels = ops.map((o) => o.label);
    for (const expected of ['POST /v1/chat', 'GET /v1/chat/history', 'PUT /v1/bots/{bot_id}', 'POST /v1/agents/{agent_id}/train', 'GET /v1/knowledge/search', 'GET /v1/analytics/performance']) {
      assert.ok(labels.includes(expected), `${expected} missing from ${labels.join(', ')}`);
    }
    assert.ok(ops.length >= 20);
  });

  it('random JSON (and almost-JSON) bodies', async () => {
    for (const op of ops.filter((o) => o.body)) {
      await fc.assert(
        fc.asyncProperty(anyJsonText, async (body) => {
          await check(op.method, pathFor(op), { headers: [JSON_TYPE], body });
        }),
        runs(25),
      );
    }
  });

  it('schema-shaped bodies with wrong types, unknown fields and hostile strings at every level', async () => {
    for (const op of ops.filter((o) => o.body)) {
      await fc.assert(
        fc.asyncProperty(arbitraryFor(op.body!, doc), async (value) => {
          const body = JSON.stringify(value) ?? 'null';
          await check(op.method, pathFor(op), { headers: [JSON_TYPE], body });
        }),
        runs(op.label.startsWith('PUT /v1/bots') || op.label.startsWith('POST /v1/bots ') ? 20 : 40),
      );
    }
  });

  it('hostile path ids: traversal, SQL, encodings, very long ids', async () => {
    for (const op of ops.filter((o) => o.pathParams.length)) {
      const ids = fc.record(Object.fromEntries(op.pathParams.map((p) => [p, idArbitrary(p, op.method)])));
      await fc.assert(
        fc.asyncProperty(ids, async (chosen) => {
          const body = op.body ? JSON.stringify({ message: 'hi', user_id: 'u1', name: 'x', title: 't', content: 'c' }) : undefined;
          await check(op.method, pathFor(op, chosen), { headers: [JSON_TYPE], body });
        }),
        runs(30),
      );
    }
  });

  it('query strings with duplicates, unknown names and garbage', async () => {
    const garbage = fc.constantFrom('&&==&', '=', '&=x', 'a', '%', '%zz=1', 'limit', 'limit=', 'limit=1&limit=abc', 'limit=1e999', 'limit=-1', 'limit=0x10', 'cursor[]=a', 'wait=maybe', '__proto__=1', 'constructor[prototype]=1', '%00=%00', 'q=%ED%A0%80', `x=${'y'.repeat(70_000)}`);
    for (const op of ops) {
      const names = fc.constantFrom(...op.query.map((q) => q.name), 'limit', 'cursor', 'unknown', '');
      const pair = fc.tuple(names, fc.oneof(anyString, fc.constantFrom('1', '0', '-1', 'true', '2026-02-30', '9999-99-99', '2026-01-01T25:61Z')));
      const encoded = pair.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v.replace(/[\uD800-\uDFFF]/g, '\uFFFD'))}`);
      const query = fc.array(fc.oneof(encoded, garbage), { minLength: 1, maxLength: 6 }).map((parts) => parts.join('&'));
      await fc.assert(
        fc.asyncProperty(query, async (qs) => {
          const body = op.body ? '{}' : undefined;
          await check(op.method, `${pathFor(op)}?${qs}`, { headers: [JSON_TYPE], body });
        }),
        runs(25),
      );
    }
  });

  it('query values shaped by each parameter schema (hostile strings included)', async () => {
    for (const op of ops.filter((o) => o.query.length)) {
      const shape = Object.fromEntries(op.query.map((q) => [q.name, arbitraryFor(q.schema, doc)]));
      await fc.assert(
        fc.asyncProperty(fc.record(shape, { requiredKeys: [] }), async (values) => {
          const qs = Object.entries(values)
            .map(([n, v]) => `${n}=${encodeURIComponent(String(typeof v === 'object' ? JSON.stringify(v) : v).replace(/[\uD800-\uDFFF]/g, '\uFFFD'))}`)
            .join('&');
          await check(op.method, `${pathFor(op)}?${qs}`, { headers: [JSON_TYPE], body: op.body ? '{}' : undefined });
        }),
        runs(30),
      );
    }
  });

  it('wrong or missing content types, duplicate headers, odd Authorization and Idempotency-Key', async () => {
    const contentTypes = fc.constantFrom(null, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', 'application/jsonx', 'APPLICATION/JSON', 'application/json, text/plain', 'application/vnd.api+json', '*/*', '');
    const extraHeaders = fc.array(
      fc.tuple(fc.constantFrom('content-type', 'authorization', 'idempotency-key', 'accept', 'origin', 'x-request-id', 'content-length'), fc.oneof(anyString, fc.constantFrom('application/json', 'text/event-stream', `Bearer ${'k'.repeat(600)}`, 'null', 'https://evil.example'))),
      { maxLength: 3 },
    );
    const auth = fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(null, '', 'x', 'aicw_not_a_key', ' '.repeat(3), 'a'.repeat(600)) });
    const body = fc.oneof(fc.constantFrom('{}', '{"name":"ok","title":"t","content":"c","message":"hi","user_id":"u1"}', 'a=b', '--x\r\n'), anyJsonText);
    for (const op of ops) {
      await fc.assert(
        fc.asyncProperty(contentTypes, extraHeaders, auth, body, async (type, extra, key, text) => {
          const headers: [string, string][] = type === null ? [] : [['content-type', type]];
          await check(op.method, pathFor(op), { headers: [...headers, ...extra], auth: key, body: op.method === 'GET' ? undefined : text });
        }),
        runs(20),
      );
    }
  });

  it('odd methods on every path answer 405 (or 404), never a 5xx', async () => {
    const onePerPath = [...new Map(ops.map((o) => [o.template, o])).values()];
    for (const op of onePerPath) {
      for (const method of ['PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'PROPFIND', 'patch', 'QUERY', 'PUT', 'POST', 'GET']) {
        const answer = await check(method, pathFor(op, {}, method), { headers: [JSON_TYPE], body: ['GET', 'HEAD'].includes(method) ? undefined : '{}' });
        assert.ok(answer);
      }
    }
  });

  it('bodies of 1 MB or more (an upload: over its own larger limit) are 413 payload_too_large on every operation that takes one', async () => {
    const huge = 'x'.repeat(1024 * 1024 + 10);
    // Knowledge imports take files: their body limit is the upload's (10 MiB decoded, as base64 + JSON).
    const uploadLimit = uploadBodyBytes(resolveImportConfig());
    const hugeUpload = 'x'.repeat(uploadLimit + 10);
    for (const op of ops.filter((o) => o.body)) {
      const bodies = isUploadPath(op.template)
        ? ([
            ['application/json', JSON.stringify({ kind: 'files', files: [{ name: 'a.txt', data: hugeUpload }] })],
            ['text/plain', hugeUpload],
            ['application/json', `{"a":"${'\u{1F600}'.repeat(Math.ceil(uploadLimit / 4) + 10)}"}`],
          ] as const)
        : ([
            ['application/json', JSON.stringify({ name: huge, title: huge, content: huge, message: huge })],
            ['text/plain', huge],
            ['application/json', `{"a":"${'\u{1F600}'.repeat(300_000)}"}`],
          ] as const);
      for (const [type, body] of bodies) {
        const answer = await check(op.method, pathFor(op), { headers: [['content-type', type]], body });
        assert.equal(answer?.status, 413, `${op.label} (${type})`);
        assert.equal(JSON.parse(answer!.text).error.code, 'payload_too_large');
      }
    }
  });

  it('hostile strings in every string field are stored and read back or refused, never a 5xx', async () => {
    for (const text of HOSTILE_STRINGS) {
      const title = text || 'empty';
      await check('POST', '/v1/knowledge', { headers: [JSON_TYPE], body: JSON.stringify({ title, content: `${text} body`, tags: [title.slice(0, 50)] }) });
      await check('POST', '/v1/chat', { headers: [JSON_TYPE], body: JSON.stringify({ messages: [{ role: 'user', content: `${text}.` }], user_id: 'fuzzer' }) });
      await check('POST', `/v1/bots/${real.bot_id}/messages`, { headers: [JSON_TYPE], body: JSON.stringify({ message: `${text}!`, user_id: 'fuzzer' }) });
      await check('GET', `/v1/knowledge/search?q=${encodeURIComponent(`${text}x`.replace(/[\uD800-\uDFFF]/g, '\uFFFD'))}`);
    }
  });

  it('leaves the database consistent and the service answering', async () => {
    const { db } = service.deps;
    const orphans = await sql<{ n: string }>`
      select count(*) as n from messages m left join conversations c on c.id = m.conversation_id
      where c.id is null or c.account_id <> m.account_id`.execute(db);
    assert.equal(orphans.rows[0]!.n, '0', 'messages without a conversation of their account');
    const foreignJobs = await sql<{ n: string }>`
      select count(*) as n from training_jobs j left join agents a on a.id = j.agent_id
      where a.id is null or a.account_id <> j.account_id`.execute(db);
    assert.equal(foreignJobs.rows[0]!.n, '0', 'training jobs of another account');
    const running = await sql<{ n: string }>`select count(*) as n from idempotency_keys where state = 'running'`.execute(db);
    assert.equal(running.rows[0]!.n, '0', 'idempotency keys left running after every request finished');
    const badConv = await sql<{ n: string }>`
      select count(*) as n from conversations c
      left join bots b on b.id = c.bot_id left join agents a on a.id = c.agent_id
      where (c.bot_id is not null and (b.id is null or b.account_id <> c.account_id))
         or (c.agent_id is not null and (a.id is null or a.account_id <> c.account_id))`.execute(db);
    assert.equal(badConv.rows[0]!.n, '0', 'conversations pointing at a missing or foreign bot/agent');
    const versions = await sql<{ n: string }>`select count(*) as n from knowledge_entries where version < 1`.execute(db);
    assert.equal(versions.rows[0]!.n, '0');
    const counts = await sql<{ conversations: string; messages: string }>`
      select (select count(*) from conversations) as conversations, (select count(*) from messages) as messages`.execute(db);
    assert.ok(Number(counts.rows[0]!.messages) >= Number(counts.rows[0]!.conversations), 'a conversation without its messages');

    const bots = await check('GET', '/v1/bots');
    assert.equal(bots?.status, 200);
    const entry = await check('GET', `/v1/knowledge/${real.entry_id}`);
    assert.equal(JSON.parse(entry!.text).data.id, real.entry_id);
  });
});
