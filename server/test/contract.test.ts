// Contract tests: the served OpenAPI 3.1 document is sound and matches the app's routes, and every
// endpoint's answers (successes and the main errors, incl. the SSE `done` payload) validate against
// the document's response schemas with Ajv 2020 — all over the real service and a real PGlite.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { ERROR_STATUS } from '../../src/client/types.ts';
import type { Service } from '../src/index.ts';
import { caller, memoryService, type CallOptions, type CallResult, type Caller } from './support/api.ts';
import { DashboardClient, uniqueEmail } from './support/dashboard.ts';
import { openStream } from './support/handoff.ts';
import { channelOptions, deliverSlack, slackMessage, TestClock, telegramUpdate, whatsappDelivery } from './support/channels.ts';
import { FAKE_SLACK, startFakeSlack, type FakeSlack } from './support/fake-slack.ts';
import { FAKE_TELEGRAM_TOKEN, startFakeTelegram, type FakeTelegram } from './support/fake-telegram.ts';
import { FAKE_WHATSAPP, startFakeWhatsApp, type FakeWhatsApp } from './support/fake-whatsapp.ts';
import { hubSignature } from '../src/channels/signature.ts';

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }> }>>;
  components: Record<string, Record<string, unknown>>;
};

let service: Service;
let raw: Caller;
let doc: Doc;
let ajv: Ajv2020;
const covered = new Map<string, Set<number>>();
let telegram: FakeTelegram;
let whatsapp: FakeWhatsApp;
let slack: FakeSlack;
const clock = new TestClock();

before(async () => {
  [telegram, whatsapp, slack] = await Promise.all([startFakeTelegram(), startFakeWhatsApp(), startFakeSlack()]);
  // Webhooks may target loopback here: a test event goes to a closed local port, never elsewhere.
  service = await memoryService({ channels: channelOptions({ telegram, whatsapp, slack }, clock), webhooks: { allowPrivateHosts: true } });
  // A plan no test here reaches: these cases call every operation, well over the default 120 a
  // minute on a fast machine; the rate-limit answers are checked with an account of their own.
  raw = caller(service, (await service.createAccount({ rateLimit: { points: 100_000, durationSeconds: 60 } })).apiKey);
  const res = await raw('/v1/openapi.json', { auth: null });
  assert.equal(res.status, 200);
  doc = res.body;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat('date-time', { validate: (s: string) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d{2}-\d{2}T/.test(s) });
  ajv.addSchema(doc as object, 'api');
});
after(async () => {
  await service.close();
  await Promise.all([telegram.close(), whatsapp.close(), slack.close()]);
});

const pointer = (...segments: string[]) => segments.map((s) => encodeURIComponent(s.replaceAll('~', '~0').replaceAll('/', '~1'))).join('/');
const validators = new Map<string, ValidateFunction>();

/** The document's schema for (path template, method, status, media type), compiled once. */
function responseValidator(template: string, method: string, status: number, media = 'application/json'): ValidateFunction {
  const key = `${method} ${template} ${status} ${media}`;
  let fn = validators.get(key);
  if (fn) return fn;
  const operation = doc.paths[template]?.[method];
  assert.ok(operation, `no operation ${method.toUpperCase()} ${template} in the document`);
  const response = operation.responses[String(status)];
  assert.ok(response, `${method.toUpperCase()} ${template} does not document status ${status}`);
  const base = response.$ref
    ? `api#/${pointer('components', 'responses', response.$ref.split('/').at(-1)!)}`
    : `api#/${pointer('paths', template, method, 'responses', String(status))}`;
  fn = ajv.compile({ $ref: `${base}/${pointer('content', media, 'schema')}` });
  validators.set(key, fn);
  return fn;
}

function requiredHeaders(template: string, method: string, status: number): string[] {
  let response = doc.paths[template]![method]!.responses[String(status)] as { $ref?: string; headers?: Record<string, { $ref?: string; required?: boolean }> };
  if (response.$ref) response = doc.components.responses![response.$ref.split('/').at(-1)!] as typeof response;
  return Object.entries(response.headers ?? {})
    .filter(([, h]) => (h.$ref ? (doc.components.headers![h.$ref.split('/').at(-1)!] as { required?: boolean }).required : h.required))
    .map(([name]) => name);
}

function assertMatches(template: string, method: string, res: CallResult, media = 'application/json'): void {
  const validate = responseValidator(template, method, res.status, media);
  assert.ok(validate(res.body), `${method.toUpperCase()} ${template} ${res.status}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(res.body).slice(0, 400)}`);
  // Every header the document marks `required` for this answer is there.
  for (const name of requiredHeaders(template, method, res.status)) {
    assert.ok(res.headers.get(name), `${method.toUpperCase()} ${template} ${res.status}: header ${name} missing`);
  }
  const operationId = doc.paths[template]![method]!.operationId;
  if (!covered.has(operationId)) covered.set(operationId, new Set());
  covered.get(operationId)!.add(res.status);
}

/** Calls `path` (concrete) and validates against `template` (`/v1/bots/{bot_id}`). */
async function check(template: string, path: string, options: CallOptions = {}, expected?: number, as: Caller = raw): Promise<CallResult> {
  const method = (options.method ?? (options.body !== undefined ? 'POST' : 'GET')).toLowerCase();
  const res = await as(path, options);
  if (expected !== undefined) assert.equal(res.status, expected, `${method.toUpperCase()} ${path}: ${JSON.stringify(res.body).slice(0, 300)}`);
  assertMatches(template, method, res);
  return res;
}

/** A streamed answer: every SSE event is documented for the operation and matches its schema. */
async function checkStream(template: string, path: string, body: unknown) {
  const stream = await raw(path, { body });
  assert.equal(stream.status, 200);
  assert.match(stream.headers.get('content-type') ?? '', /text\/event-stream/);
  const events = String(stream.body)
    .split(/\n\n/)
    .map((block) => ({
      event: /^event: (.*)$/m.exec(block)?.[1],
      data: block.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n'),
    }))
    .filter((e) => e.event);
  assert.equal(events[0]?.event, 'meta');
  assert.equal(events.at(-1)?.event, 'done');
  const sseSchemas = (doc.paths[template]!.post!.responses['200']!.content!['text/event-stream'] as unknown as { 'x-sse-events': Record<string, { $ref: string }> })['x-sse-events'];
  for (const e of events) {
    const schemaRef = sseSchemas[e.event!];
    assert.ok(schemaRef, `undocumented SSE event ${e.event} on ${template}`);
    const validate = ajv.compile({ $ref: `api${schemaRef.$ref}` });
    assert.ok(validate(JSON.parse(e.data)), `SSE ${e.event} on ${template}: ${ajv.errorsText(validate.errors)}`);
  }
}

describe('the OpenAPI document', () => {
  it('validates against the official OpenAPI 3.1 schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as unknown as Parameters<Validator["validate"]>[0]);
    assert.equal(validator.version, '3.1');
    assert.ok(result.valid, JSON.stringify(result.errors, null, 2)?.slice(0, 2000));
  });

  it('is a sound OpenAPI 3.1 document whose $refs all resolve', () => {
    assert.equal(doc.openapi, '3.1.0');
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        assert.ok(!ids.has(op.operationId), `duplicate operationId ${op.operationId}`);
        ids.add(op.operationId);
        assert.ok(Object.keys(op.responses).some((s) => s.startsWith('2')), `${method} ${path} has a success response`);
        const declared = ((op as { parameters?: { name: string; in: string; $ref?: string }[] }).parameters ?? [])
          .filter((p) => p.in === 'path')
          .map((p) => p.name);
        const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
        assert.deepEqual(declared.sort(), templated.sort(), `path parameters of ${method} ${path}`);
      }
    }
    const refs: string[] = [];
    (function walk(node: unknown) {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) if (k === '$ref' && typeof v === 'string') refs.push(v); else walk(v);
      }
    })(doc);
    assert.ok(refs.length > 50);
    for (const r of refs) {
      assert.match(r, /^#\//, r);
      let target: unknown = doc;
      for (const seg of r.slice(2).split('/')) target = (target as Record<string, unknown>)?.[seg.replaceAll('~1', '/').replaceAll('~0', '~')];
      assert.ok(target, `unresolved $ref ${r}`);
    }
    // Every response schema compiles.
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        // JSON, or the one media type of a stream-only answer (the handoff events)
        for (const [status, response] of Object.entries(op.responses)) responseValidator(path, method, Number(status), Object.keys(response.content ?? {})[0]);
      }
    }
    // The validators really bite: wrong shapes fail.
    const agentCreated = responseValidator('/v1/agents', 'post', 201);
    assert.equal(agentCreated({ success: true, data: { id: 'agt_12345678' }, meta: { request_id: 'r', latency_ms: 1 } }), false);
    const notFound = responseValidator('/v1/agents/{agent_id}', 'get', 404);
    assert.equal(notFound({ success: false, error: { code: 'teapot', message: 'x' } }), false);
    assert.equal(notFound({ success: false, error: { code: 'resource_not_found', message: 'x' } }), true);
    const codes = (doc.components.schemas!.ErrorCode as { enum: string[] }).enum;
    assert.ok(codes.includes('rate_limited') && codes.includes('upstream_timeout') && codes.includes('insufficient_scope'));
    assert.deepEqual([...codes].sort(), Object.keys(ERROR_STATUS).sort(), 'every error code is documented');
    assert.deepEqual(doc.components.securitySchemes, { bearerAuth: { type: 'http', scheme: 'bearer', description: 'Your API key: `Authorization: Bearer <key>`.' } });
  });

  it('documents exactly the routes the app serves', () => {
    const served = new Set<string>();
    for (const r of service.app.routes) {
      if (r.method === 'ALL' || !r.path.startsWith('/v1/') || r.path.includes('*')) continue;
      served.add(`${r.method} ${r.path.replace(/:([A-Za-z_]+)(\{[^}]*\})?/g, '{$1}').replace(/\/$/, '')}`);
    }
    const documented = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths)) for (const method of Object.keys(item)) documented.add(`${method.toUpperCase()} ${path}`);
    assert.deepEqual([...served].sort(), [...documented].sort());
  });
});

describe('every endpoint answers as documented', () => {
  const ids: Record<string, string> = {};

  it('knowledge', async () => {
    const created = await check('/v1/knowledge', '/v1/knowledge', { body: { title: 'Install the widget', content: 'Add one script tag to install the widget.', tags: ['setup'] } }, 201);
    ids.entry = created.body.data.id;
    await check('/v1/knowledge', '/v1/knowledge', { body: { title: '' } }, 400);
    await check('/v1/knowledge', '/v1/knowledge', { body: 'x', headers: { 'content-type': 'text/plain' } }, 415);
    await check('/v1/knowledge', '/v1/knowledge', { body: { title: 't', content: 'x'.repeat(600 * 1024) } }, 413);
    await check('/v1/knowledge', '/v1/knowledge', {}, 200);
    await check('/v1/knowledge', '/v1/knowledge?cursor=garbage!', {}, 400);
    await check('/v1/knowledge/search', '/v1/knowledge/search?q=instal%20widgit&tags=setup,other', {}, 200);
    await check('/v1/knowledge/search', '/v1/knowledge/search', {}, 400);
    await check('/v1/knowledge/{entry_id}', `/v1/knowledge/${ids.entry}`, {}, 200);
    await check('/v1/knowledge/{entry_id}', '/v1/knowledge/kb_missing123456', {}, 404);
    await check('/v1/knowledge/{entry_id}', `/v1/knowledge/${ids.entry}`, { method: 'PUT', body: { tags: ['setup', 'docs'] } }, 200);
    await check('/v1/knowledge/{entry_id}', `/v1/knowledge/${ids.entry}`, { method: 'PUT', body: { nope: 1 } }, 400);
    await check('/v1/knowledge/{entry_id}', '/v1/knowledge/kb_missing123456', { method: 'PUT', body: { title: 'x' } }, 404);
  });

  it('knowledge imports', async () => {
    // An account of its own: the deletions below stay out of the usage totals checked later.
    const own = caller(service, (await service.createAccount()).apiKey);
    const file = (name: string, text: string) => ({ name, data: Buffer.from(text).toString('base64') });
    const queued = await check('/v1/knowledge/imports', '/v1/knowledge/imports', { body: { kind: 'files', files: [file('faq.md', '# FAQ\n\n## Hours\n\nOpen 9 to 5.')] } }, 202, own);
    ids.import = queued.body.data.id;
    const finished = await check('/v1/knowledge/imports', '/v1/knowledge/imports?wait=true', { body: { kind: 'files', files: [file('a.txt', 'Plain text.')] } }, 200, own);
    assert.equal(finished.body.data.job.status, 'succeeded');
    // Loopback is refused by default: a name resolving to it fails its job with the code (the
    // answer still matches); an address literal is refused at once.
    const refused = await check('/v1/knowledge/imports', '/v1/knowledge/imports?wait=true', { body: { kind: 'url', url: 'http://localhost:9/' } }, 200, own);
    assert.equal(refused.body.data.job.error.code, 'private_address');
    const literal = await check('/v1/knowledge/imports', '/v1/knowledge/imports', { body: { kind: 'url', url: 'http://127.0.0.1:9/' } }, 400, own);
    assert.equal(literal.body.error.code, 'url_not_allowed');
    await check('/v1/knowledge/imports', '/v1/knowledge/imports', { body: { kind: 'url', url: 'file:///etc/passwd' } }, 400, own);
    await check('/v1/knowledge/imports', '/v1/knowledge/imports', { body: { kind: 'files', files: [file('x.exe', 'MZ')] } }, 415, own);
    await check('/v1/knowledge/imports', '/v1/knowledge/imports', { body: { kind: 'files', files: [file('big.txt', 'x'.repeat(11 * 1024 * 1024))] } }, 413, own);
    await check('/v1/knowledge/imports', '/v1/knowledge/imports', {}, 200, own);
    await check('/v1/knowledge/imports/{import_id}', `/v1/knowledge/imports/${ids.import}`, {}, 200, own);
    await check('/v1/knowledge/imports/{import_id}', '/v1/knowledge/imports/kbi_missing123456', {}, 404, own);
    const synced = await check('/v1/knowledge/imports/{import_id}/sync', `/v1/knowledge/imports/${ids.import}/sync?wait=true`, { body: { files: [file('faq.md', '# FAQ\n\n## Hours\n\nOpen 8 to 5.')] } }, 200, own);
    assert.equal(synced.body.data.job.progress.entries_updated, 1);
    await check('/v1/knowledge/imports/{import_id}/sync', `/v1/knowledge/imports/${ids.import}/sync`, { body: {} }, 400, own);
    const entries = await check('/v1/knowledge', '/v1/knowledge?limit=200', {}, 200, own);
    assert.ok(entries.body.data.items.some((e: { import_id: string | null; heading_path: string[] }) => e.import_id === ids.import && e.heading_path.join('/') === 'FAQ/Hours'));
    await check('/v1/knowledge/imports/{import_id}', `/v1/knowledge/imports/${ids.import}`, { method: 'DELETE' }, 200, own);
    await check('/v1/knowledge/imports/{import_id}', `/v1/knowledge/imports/${ids.import}`, { method: 'DELETE' }, 404, own);
  });

  it('agents and training jobs', async () => {
    const examples = [
      { input: 'how much is it', output: 'From 20 dollars.' },
      { input: 'what does it cost', output: 'From 20 dollars.' },
      { input: 'hello', output: 'Hi!' },
      { input: 'hi there', output: 'Hi!' },
    ];
    const agent = await check('/v1/agents', '/v1/agents', { body: { name: 'Contract agent', examples, model: { provider: 'builtin', temperature: 0.5 } } }, 201);
    ids.agent = agent.body.data.id;
    await check('/v1/agents', '/v1/agents', { body: { description: 'no name' } }, 400);
    await check('/v1/agents', '/v1/agents?limit=5', {}, 200);
    await check('/v1/agents/{agent_id}', `/v1/agents/${ids.agent}`, {}, 200);
    await check('/v1/agents/{agent_id}', '/v1/agents/agt_missing123456', {}, 404);
    await check('/v1/agents/{agent_id}', `/v1/agents/${ids.agent}`, { method: 'PUT', body: { instructions: 'Be kind.' } }, 200);
    await check('/v1/agents/{agent_id}', `/v1/agents/${ids.agent}`, { method: 'PUT', body: { model: { temperature: 9 } } }, 400);
    const queued = await check('/v1/agents/{agent_id}/train', `/v1/agents/${ids.agent}/train`, { method: 'POST' }, 202);
    await check('/v1/agents/{agent_id}/train', `/v1/agents/${ids.agent}/train`, { method: 'POST' }, 409);
    await check('/v1/agents/{agent_id}/train', `/v1/agents/${ids.agent}/train`, { body: { holdout: 2 } }, 400);
    await check('/v1/agents/{agent_id}/train', '/v1/agents/agt_missing123456/train', { method: 'POST' }, 404);
    await service.deps.trainingJobs.runs.running(queued.body.data.id);
    const job = (await check('/v1/agents/{agent_id}/jobs/{job_id}', `/v1/agents/${ids.agent}/jobs/${queued.body.data.id}`, {}, 200)).body.data;
    assert.equal(job.status, 'succeeded');
    await check('/v1/agents/{agent_id}/train', `/v1/agents/${ids.agent}/train?wait=true`, { body: { holdout: 0 } }, 200);
    await check('/v1/agents/{agent_id}/jobs', `/v1/agents/${ids.agent}/jobs`, {}, 200);
    await check('/v1/agents/{agent_id}/quality', `/v1/agents/${ids.agent}/quality`, {}, 200);
    await check('/v1/agents/{agent_id}/quality', '/v1/agents/agt_missing123456/quality', {}, 404);
    await check('/v1/agents/{agent_id}/jobs', '/v1/agents/agt_missing123456/jobs', {}, 404);
    await check('/v1/agents/{agent_id}/jobs/{job_id}', `/v1/agents/${ids.agent}/jobs/job_missing123456`, {}, 404);
  });

  it('bots', async () => {
    const training = { intents: [{ name: 'greet', examples: ['hello', 'hi', 'good morning'], responses: ['Hello!'] }] };
    const bot = await check('/v1/bots', '/v1/bots', { body: { name: 'Greeter', training }, headers: { 'idempotency-key': 'contract-bot-1' } }, 201);
    ids.bot = bot.body.data.id;
    const replay = await check('/v1/bots', '/v1/bots', { body: { name: 'Greeter', training }, headers: { 'idempotency-key': 'contract-bot-1' } }, 201);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    await check('/v1/bots', '/v1/bots', { body: { name: 'Other' }, headers: { 'idempotency-key': 'contract-bot-1' } }, 409);
    await check('/v1/bots', '/v1/bots', { body: { name: '' } }, 400);
    await check('/v1/bots', '/v1/bots', {}, 200);
    await check('/v1/bots/{bot_id}', `/v1/bots/${ids.bot}`, {}, 200);
    await check('/v1/bots/{bot_id}', '/v1/bots/bot_missing123456', {}, 404);
    await check('/v1/bots/{bot_id}', `/v1/bots/${ids.bot}`, { method: 'PUT', body: { description: 'Says hello' } }, 200);
    await check('/v1/bots/{bot_id}', `/v1/bots/${ids.bot}`, { method: 'PUT', body: { language: 'xx' } }, 400);
    await check('/v1/bots/{bot_id}/messages', `/v1/bots/${ids.bot}/messages`, { body: { message: 'hello', user_id: 'user-1' } }, 200);
    await check('/v1/bots/{bot_id}/messages', `/v1/bots/${ids.bot}/messages`, { body: { message: '' } }, 400);
    await check('/v1/bots/{bot_id}/messages', '/v1/bots/bot_missing123456/messages', { body: { message: 'hi', user_id: 'u' } }, 404);
    await check('/v1/bots/{bot_id}/quality', `/v1/bots/${ids.bot}/quality`, {}, 200);
    const untrained = await check('/v1/bots', '/v1/bots', { body: { name: 'Untrained' } }, 201);
    await check('/v1/bots/{bot_id}/quality', `/v1/bots/${untrained.body.data.id}/quality`, {}, 409);
    await check('/v1/bots/{bot_id}/classify', `/v1/bots/${ids.bot}/classify`, { body: { text: 'hello' } }, 200);
    await check('/v1/bots/{bot_id}/classify', `/v1/bots/${ids.bot}/classify`, { body: { text: '' } }, 400);
    await check('/v1/bots/{bot_id}/classify', `/v1/bots/${untrained.body.data.id}/classify`, { body: { text: 'hello' } }, 409);
  });

  it('widget tokens: minted for a listed origin, refused for another', async () => {
    const site = 'https://shop.example';
    const bot = await check('/v1/bots', '/v1/bots', { body: { name: 'Shop', channels: [{ type: 'website', allowed_origins: [site] }] } }, 201);
    const mint = (origin: string, body: object) => check('/v1/widget/tokens', '/v1/widget/tokens', { auth: null, body, headers: { origin } }, origin === site ? 200 : 403);
    const minted = await mint(site, { bot_id: bot.body.data.id });
    assert.equal(minted.body.data.bot_id, bot.body.data.id);
    await mint('https://elsewhere.example', { bot_id: bot.body.data.id });
    await check('/v1/widget/tokens', '/v1/widget/tokens', { auth: null, body: { bot_id: 'not-a-bot' }, headers: { origin: site } }, 400);
  });

  it('chat, streamed chat and history', async () => {
    const reply = await check('/v1/chat', '/v1/chat', { body: { messages: [{ role: 'user', content: 'how do I install the widget?' }], user_id: 'user-2' } }, 200);
    ids.conversation = reply.body.data.conversation_id;
    await check('/v1/chat', '/v1/chat', { body: { messages: [{ role: 'user', content: 'hi' }], bot_id: ids.bot, user_id: 'user-1' } }, 200);
    await check('/v1/chat', '/v1/chat', { body: { messages: [] } }, 400);
    await check('/v1/chat', '/v1/chat', { body: { messages: [{ role: 'user', content: 'hi' }], agent_id: 'agt_missing123456' } }, 404);

    await checkStream('/v1/chat', '/v1/chat', { messages: [{ role: 'user', content: 'install' }], stream: true });
    // the bot endpoint streams the same events, its `done` carrying the bot reply
    await checkStream('/v1/bots/{bot_id}/messages', `/v1/bots/${ids.bot}/messages`, { message: 'hello', user_id: 'user-3', stream: true });

    await check('/v1/chat/history', `/v1/chat/history?conversation_id=${ids.conversation}`, {}, 200);
    await check('/v1/chat/history', `/v1/chat/history?user_id=user-1&bot_id=${ids.bot}`, {}, 200);
    await check('/v1/chat/history', '/v1/chat/history', {}, 400);
    await check('/v1/chat/history', '/v1/chat/history?conversation_id=conv_missing123456', {}, 404);
  });

  it('analytics', async () => {
    await check('/v1/analytics/usage', '/v1/analytics/usage?granularity=hour', {}, 200);
    await check('/v1/analytics/usage', '/v1/analytics/usage?from=2026-02-01&to=2026-01-01', {}, 400);
    await check('/v1/analytics/performance', `/v1/analytics/performance?bot_id=${ids.bot}`, {}, 200);
    await check('/v1/analytics/performance', '/v1/analytics/performance?agent_id=agt_missing123456', {}, 404);
    await check('/v1/analytics/performance', '/v1/analytics/performance?to=soon', {}, 400);
    await check('/v1/analytics/topics', `/v1/analytics/topics?bot_id=${ids.bot}&limit=5`, {}, 200);
    await check('/v1/analytics/topics', '/v1/analytics/topics?limit=51', {}, 400);
    await check('/v1/analytics/topics', '/v1/analytics/topics?bot_id=bot_missing123456', {}, 404);
  });

  it('feedback and its report', async () => {
    const reply = await check('/v1/chat', '/v1/chat', { body: { messages: [{ role: 'user', content: 'hi' }], bot_id: ids.bot, user_id: 'user-4' } }, 200);
    const feedback = `/v1/messages/${reply.body.data.message.id}/feedback`;
    const template = '/v1/messages/{message_id}/feedback';
    await check(template, feedback, { body: { rating: 'down', reason: 'incomplete', comment: 'Say more.', user_id: 'user-4' } }, 200);
    await check(template, feedback, { body: { rating: 'up', reason: 'incomplete', user_id: 'user-4' } }, 400);
    await check(template, feedback, { body: { rating: 'up', user_id: 'user-5' } }, 404);
    await check('/v1/analytics/feedback', `/v1/analytics/feedback?bot_id=${ids.bot}&granularity=hour`, {}, 200);
    await check('/v1/analytics/feedback', '/v1/analytics/feedback?agent_id=agt_missing123456', {}, 404);
    await check('/v1/analytics/feedback', '/v1/analytics/feedback?granularity=week', {}, 400);
    const conversationFeedback = '/v1/conversations/{conversation_id}/feedback';
    await check(conversationFeedback, `/v1/conversations/${reply.body.data.conversation_id}/feedback`, {}, 200);
    await check(conversationFeedback, '/v1/conversations/conv_missing123456/feedback', {}, 404);
    await check(template, `${feedback}?user_id=user-4`, { method: 'DELETE' }, 200);
    await check(template, `${feedback}?user_id=user-4`, { method: 'DELETE' }, 404);
    await check(template, `${feedback}?nope=1`, { method: 'DELETE' }, 400);
  });

  it('satisfaction (CSAT): a rating once per conversation, the settings, the support report', async () => {
    const conversation = (await check('/v1/chat', '/v1/chat', { body: { messages: [{ role: 'user', content: 'hi' }], bot_id: ids.bot, user_id: 'user-c' } }, 200)).body.data.conversation_id;
    const csat = '/v1/conversations/{conversation_id}/csat';
    await check(csat, `/v1/conversations/${conversation}/csat?user_id=user-c`, {}, 200);
    await check(csat, `/v1/conversations/${conversation}/csat?user_id=user-x`, {}, 404);
    await check(csat, `/v1/conversations/${conversation}/csat`, { body: { rating: 5, comment: 'Thanks!', user_id: 'user-c' } }, 201);
    await check(csat, `/v1/conversations/${conversation}/csat`, { body: { rating: 4, user_id: 'user-c' } }, 409);
    await check(csat, `/v1/conversations/${conversation}/csat`, { body: { rating: 6 } }, 400);
    await check(csat, '/v1/conversations/conv_missing123456/csat', { body: { rating: 3 } }, 404);
    const settings = '/v1/bots/{bot_id}/csat';
    await check(settings, `/v1/bots/${ids.bot}/csat`, {}, 200);
    await check(settings, `/v1/bots/${ids.bot}/csat`, { method: 'PUT', body: { after_bot: true } }, 200);
    await check(settings, `/v1/bots/${ids.bot}/csat`, { method: 'PUT', body: { after_bot: 'yes' } }, 400);
    await check(settings, '/v1/bots/bot_missing123456/csat', {}, 404);
    await check('/v1/analytics/support', `/v1/analytics/support?bot_id=${ids.bot}&tz=Europe/Berlin&limit=5`, {}, 200);
    await check('/v1/analytics/support', '/v1/analytics/support?limit=51', {}, 400);
    await check('/v1/analytics/support', '/v1/analytics/support?agent_id=agt_missing123456', {}, 404);
  });

  it('human handoff: settings, state, asking, offline messages, the events stream', async () => {
    // The install's account: its first sign-up is the operator whose open inbox makes a person available.
    const dev = caller(service, service.devApiKey!);
    const operator = new DashboardClient(service);
    assert.equal((await operator.signUp(uniqueEmail('contract'))).status, 201);
    const inbox = await openStream(service.fetch, 'http://127.0.0.1/dashboard/api/inbox/events', { cookie: `aicw_session=${operator.cookie}` });
    try {
      const bot = (await dev('/v1/bots', { body: { name: 'Handoff' } })).body.data.id;
      const settings = '/v1/bots/{bot_id}/handoff';
      await check(settings, `/v1/bots/${bot}/handoff`, {}, 200, dev);
      await check(settings, `/v1/bots/${bot}/handoff`, { method: 'PUT', body: { enabled: true, after_fallbacks: 3, intents: ['x'], hours: null } }, 200, dev);
      await check(settings, `/v1/bots/${bot}/handoff`, { method: 'PUT', body: { enabled: 'yes' } }, 400, dev);
      await check(settings, '/v1/bots/bot_missing123456/handoff', {}, 404, dev);
      const conversation = (await dev('/v1/chat', { body: { messages: [{ role: 'user', content: 'hi' }], bot_id: bot, user_id: 'user-h' } })).body.data.conversation_id;
      const state = '/v1/conversations/{conversation_id}/handoff';
      await check(state, `/v1/conversations/${conversation}/handoff?user_id=user-h`, {}, 200, dev);
      await check(state, `/v1/conversations/${conversation}/handoff?user_id=user-x`, {}, 404, dev);
      await check(state, `/v1/conversations/${conversation}/handoff`, { body: { user_id: 'user-h' } }, 200, dev);
      await check(state, `/v1/conversations/${conversation}/handoff`, { body: { nope: 1 } }, 400, dev);
      // a held turn's reply, documented like any chat reply
      const held = await check('/v1/chat', '/v1/chat', { body: { messages: [{ role: 'user', content: 'still there?' }], conversation_id: conversation, user_id: 'user-h' } }, 200, dev);
      assert.equal(held.body.data.handoff.held, true);
      await check('/v1/chat/history', `/v1/chat/history?conversation_id=${conversation}`, {}, 200, dev);
      const typing = '/v1/conversations/{conversation_id}/handoff/typing';
      await check(typing, `/v1/conversations/${conversation}/handoff/typing`, { body: { user_id: 'user-h' } }, 200, dev);
      await check(typing, `/v1/conversations/${conversation}/handoff/typing`, { body: { user_id: 'user-x' } }, 404, dev);
      const offline = '/v1/conversations/{conversation_id}/handoff/offline-messages';
      await check(offline, `/v1/conversations/${conversation}/handoff/offline-messages`, { body: { email: 'a@b.example', message: 'Call me' } }, 201, dev);
      await check(offline, `/v1/conversations/${conversation}/handoff/offline-messages`, { body: { email: 'a@b.example' } }, 400, dev);
      const events = '/v1/conversations/{conversation_id}/events';
      const stream = await dev(`/v1/conversations/${conversation}/events?max_seconds=1&last_event_id=0`);
      assert.equal(stream.status, 200);
      assertMatches(events, 'get', { ...stream, body: String(stream.body) }, 'text/event-stream');
      const sseSchemas = (doc.paths[events]!.get!.responses['200']!.content!['text/event-stream'] as unknown as { 'x-sse-events': Record<string, unknown> })['x-sse-events'];
      const frames = String(stream.body).split(/\n\n/).map((block) => ({ event: /^event: (.*)$/m.exec(block)?.[1], data: /^data: (.*)$/m.exec(block)?.[1] })).filter((e) => e.event);
      assert.deepEqual(frames.map((f) => f.event), ['ready', 'status', 'message'], 'typing is not stored, so a resume does not repeat it');
      for (const frame of frames) {
        const validate = ajv.compile({ $ref: `api#/${pointer('paths', events, 'get', 'responses', '200', 'content', 'text/event-stream', 'x-sse-events', frame.event!)}` });
        assert.ok(sseSchemas[frame.event!] && validate(JSON.parse(frame.data!)), `SSE ${frame.event}: ${ajv.errorsText(validate.errors)}`);
      }
      await check(events, `/v1/conversations/${conversation}/events?max_seconds=0`, {}, 400, dev);
      await check(events, '/v1/conversations/conv_missing123456/events', {}, 404, dev);

      const me = (await operator.call('GET', '/dashboard/api/inbox/me')).body.data.id;
      await check('/v1/assignment', '/v1/assignment', {}, 200, dev);
      await check('/v1/assignment', '/v1/assignment', { method: 'PUT', body: { capacities: [{ operator_id: me, capacity: 3 }] } }, 200, dev);
      await check('/v1/assignment', '/v1/assignment', { method: 'PUT', body: { auto: 'yes' } }, 400, dev);
      await check('/v1/assignment', '/v1/assignment', { method: 'PUT', body: { capacities: [{ operator_id: 'usr_nobody', capacity: 1 }] } }, 404, dev);
      const assignment = '/v1/conversations/{conversation_id}/assignment';
      await check(assignment, `/v1/conversations/${conversation}/assignment`, { method: 'PUT', body: { operator_id: me } }, 200, dev);
      await check(assignment, `/v1/conversations/${conversation}/assignment`, { method: 'PUT', body: { operator_id: 'usr_nobody' } }, 404, dev);
      await check(assignment, `/v1/conversations/${conversation}/assignment`, { method: 'PUT', body: {} }, 400, dev);
      await check(assignment, `/v1/conversations/${conversation}/assignment`, { method: 'DELETE' }, 200, dev);
      await check(assignment, '/v1/conversations/conv_missing123456/assignment', { method: 'DELETE' }, 404, dev);
      const withBot = (await dev('/v1/chat', { body: { messages: [{ role: 'user', content: 'hi' }], bot_id: bot, user_id: 'user-h2' } })).body.data.conversation_id;
      await check(assignment, `/v1/conversations/${withBot}/assignment`, { method: 'DELETE' }, 409, dev);
    } finally {
      inbox.close();
    }
  });

  it('the conversation list, and every DELETE (then 404 on the second)', async () => {
    const list = await check('/v1/conversations', '/v1/conversations?limit=5', {}, 200);
    assert.ok(list.body.data.items.length >= 2);
    await check('/v1/conversations', `/v1/conversations?bot_id=${ids.bot}&user_id=user-1&q=hello&from=2020-01-01&to=2999-12-31`, {}, 200);
    await check('/v1/conversations', '/v1/conversations?from=2026-02-01&to=2026-01-01', {}, 400);
    await check('/v1/conversations', '/v1/conversations?bot_id=bot_missing123456', {}, 404);
    await check('/v1/conversations/{conversation_id}', `/v1/conversations/${ids.conversation}`, {}, 200);
    await check('/v1/conversations/{conversation_id}', '/v1/conversations/conv_missing123456', {}, 404);
    const deletes: [template: string, path: string][] = [
      ['/v1/conversations/{conversation_id}', `/v1/conversations/${ids.conversation}`],
      ['/v1/knowledge/{entry_id}', `/v1/knowledge/${ids.entry}`],
      ['/v1/agents/{agent_id}', `/v1/agents/${ids.agent}`],
      ['/v1/bots/{bot_id}', `/v1/bots/${ids.bot}`],
    ];
    for (const [template, path] of deletes) {
      const deleted = await check(template, path, { method: 'DELETE' }, 200);
      assert.equal(deleted.body.data.deleted, true);
      await check(template, path, { method: 'DELETE' }, 404);
    }
    const usage = await check('/v1/analytics/usage', '/v1/analytics/usage', {}, 200);
    const { deleted } = usage.body.data.totals;
    assert.equal(deleted.bots + deleted.agents + deleted.knowledge_entries, 3);
    assert.ok(deleted.conversations >= 2 && deleted.messages >= 4, JSON.stringify(deleted));
  });

  it('auth and rate-limit errors', async () => {
    await check('/v1/agents', '/v1/agents', { auth: null }, 401);
    await check('/v1/knowledge/search', '/v1/knowledge/search?q=x', { auth: 'aicw_sk_wrong' }, 401);
    const small = caller(service, (await service.createAccount({ rateLimit: { points: 1, durationSeconds: 60 } })).apiKey);
    await check('/v1/agents', '/v1/agents', {}, 200, small);
    const limited = await check('/v1/agents', '/v1/agents', {}, 429, small);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    const openapi = await raw('/v1/openapi.json', { auth: null });
    assertMatches('/v1/openapi.json', 'get', openapi);
  });

  it('attachments: upload, read, remove, and their refusals', async () => {
    const bot = (await raw('/v1/bots', { body: { name: 'Files', attachments: { enabled: true, max_file_bytes: 1024 } } })).body.data.id;
    const upload = '/v1/attachments';
    const asFile = (body: string) => ({ body, headers: { 'content-type': 'application/octet-stream' } });
    const stored = await check(upload, `/v1/attachments?bot_id=${bot}&user_id=user-f&filename=notes.txt`, asFile('meeting notes'), 201);
    await check(upload, `/v1/attachments?bot_id=${bot}&user_id=user-f`, asFile('<svg onload="alert(1)"></svg>'), 415);
    await check(upload, `/v1/attachments?bot_id=${bot}&user_id=user-f`, asFile('x'.repeat(2000)), 413);
    await check(upload, '/v1/attachments?user_id=user-f', asFile('no bot'), 400);
    await check(upload, '/v1/attachments?bot_id=bot_missing123456', asFile('x'), 404);
    const off = (await raw('/v1/bots', { body: { name: 'No files' } })).body.data.id;
    await check(upload, `/v1/attachments?bot_id=${off}&user_id=user-f`, asFile('x'), 403);

    const file = '/v1/attachments/{attachment_id}';
    const id = stored.body.data.id;
    const read = await raw(`/v1/attachments/${id}?user_id=user-f`);
    assert.equal(read.status, 200);
    assert.equal(read.body, 'meeting notes');
    assertMatches(file, 'get', read, 'text/plain');
    await check(file, `/v1/attachments/${id}?user_id=user-x`, {}, 404);
    await check(file, `/v1/attachments/${id}?nope=1`, {}, 400);
    const second = (await raw(`/v1/attachments?bot_id=${bot}&user_id=user-f`, { ...asFile('draft'), method: 'POST' })).body.data.id;
    await check(file, `/v1/attachments/${second}?user_id=user-f`, { method: 'DELETE' }, 200);
    await check(file, `/v1/attachments/${second}?user_id=user-f`, { method: 'DELETE' }, 404);
    const sent = await check('/v1/bots/{bot_id}/messages', `/v1/bots/${bot}/messages`, { body: { message: '', user_id: 'user-f', attachments: [id] } }, 200);
    assert.equal(sent.body.data.user_message.attachments[0].id, id);
    await check(file, `/v1/attachments/${id}?user_id=user-f`, { method: 'DELETE' }, 409);
  });

  it('channels', async () => {
    const bot = (await raw('/v1/bots', { body: { name: 'On platforms' } })).body.data.id;
    const [tg, wa] = ['/v1/bots/{bot_id}/channels/telegram', '/v1/bots/{bot_id}/channels/whatsapp'];
    await check(tg, `/v1/bots/${bot}/channels/telegram`, {}, 404);
    await check(tg, `/v1/bots/${bot}/channels/telegram`, { method: 'PUT', body: { bot_token: 'not a token' } }, 400);
    const telegramId = (await check(tg, `/v1/bots/${bot}/channels/telegram`, { method: 'PUT', body: { bot_token: FAKE_TELEGRAM_TOKEN } }, 200)).body.data.id;
    await check(tg, `/v1/bots/${bot}/channels/telegram`, {}, 200);
    const { phoneNumberId, accessToken, appSecret, verifyToken } = FAKE_WHATSAPP;
    const whatsappBody = { phone_number_id: phoneNumberId, access_token: accessToken, app_secret: appSecret, verify_token: verifyToken };
    const whatsappId = (await check(wa, `/v1/bots/${bot}/channels/whatsapp`, { method: 'PUT', body: whatsappBody }, 200)).body.data.id;
    await check(wa, `/v1/bots/${bot}/channels/whatsapp`, {}, 200);

    const tgHook = '/v1/channels/telegram/{channel_id}';
    const update = telegramUpdate(1, 42, 'hello');
    const secretHeader = (secret: string) => ({ auth: null, body: update, headers: { 'x-telegram-bot-api-secret-token': secret } });
    await check(tgHook, `/v1/channels/telegram/${telegramId}`, secretHeader(telegram.webhook!.secret_token), 200);
    await check(tgHook, `/v1/channels/telegram/${telegramId}`, secretHeader('wrong'), 401);
    await check(tgHook, '/v1/channels/telegram/chn_missing123456789', secretHeader('wrong'), 404);
    const waHook = '/v1/channels/whatsapp/{channel_id}';
    const delivery = JSON.stringify(whatsappDelivery('wamid.CONTRACT', '15551234567', 'hello'));
    const signed = (secret: string) => ({ auth: null, body: delivery, headers: { 'x-hub-signature-256': hubSignature(secret, Buffer.from(delivery)) } });
    await check(waHook, `/v1/channels/whatsapp/${whatsappId}`, signed(appSecret), 200);
    await check(waHook, `/v1/channels/whatsapp/${whatsappId}`, signed('another'), 401);
    const handshake = (token: string) => `/v1/channels/whatsapp/${whatsappId}?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=challenge42`;
    const echoed = await raw(handshake(verifyToken), { auth: null });
    assert.equal(echoed.body, 'challenge42');
    assertMatches(waHook, 'get', echoed, 'text/plain');
    await check(waHook, handshake('wrong-token'), { auth: null }, 403);
    const sl = '/v1/bots/{bot_id}/channels/slack';
    await check(sl, `/v1/bots/${bot}/channels/slack`, { method: 'PUT', body: { bot_token: 'xoxp-not-a-bot-token' } }, 400);
    const slackId = (await check(sl, `/v1/bots/${bot}/channels/slack`, { method: 'PUT', body: { bot_token: FAKE_SLACK.botToken, signing_secret: FAKE_SLACK.signingSecret } }, 200)).body.data.id;
    await check(sl, `/v1/bots/${bot}/channels/slack`, {}, 200);
    const slHook = '/v1/channels/slack/{channel_id}';
    const slackAnswer = async (body: unknown, secret?: string) => {
      const res = await deliverSlack(service, slackId, body, clock, { secret });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text };
    };
    assertMatches(slHook, 'post', await slackAnswer(slackMessage('Ev0CONTRACT', 'C0CONTRACT', '1700000000.000100', 'hello')));
    const challenge = await slackAnswer({ type: 'url_verification', token: 'x', challenge: 'challenge42' });
    assert.equal(challenge.body, 'challenge42');
    assertMatches(slHook, 'post', challenge, 'text/plain');
    const refused = await slackAnswer(slackMessage('Ev0CONTRACT', 'C0CONTRACT', '1700000000.000100', 'hello'), 'another-signing-secret');
    assert.equal(refused.status, 401);
    assertMatches(slHook, 'post', refused);
    await service.deps.channels.drain();

    await check(tg, `/v1/bots/${bot}/channels/telegram`, { method: 'DELETE' }, 200);
    await check(tg, `/v1/bots/${bot}/channels/telegram`, { method: 'DELETE' }, 404);
    await check(wa, `/v1/bots/${bot}/channels/whatsapp`, { method: 'DELETE' }, 200);
    await check(sl, `/v1/bots/${bot}/channels/slack`, { method: 'DELETE' }, 200);
  });

  it('webhooks', async () => {
    const [list, one] = ['/v1/webhooks', '/v1/webhooks/{webhook_id}'];
    await check(list, '/v1/webhooks', { body: { url: 'ftp://127.0.0.1/x', events: ['message.created'] } }, 400);
    const id = (await check(list, '/v1/webhooks', { body: { url: 'http://127.0.0.1:9/hook', events: ['message.created'] } }, 201)).body.data.id;
    await check(list, '/v1/webhooks', {}, 200);
    await check(one, `/v1/webhooks/${id}`, {}, 200);
    await check(one, '/v1/webhooks/whk_missing123456789', {}, 404);
    await check(one, `/v1/webhooks/${id}`, { method: 'PATCH', body: { description: 'CRM' } }, 200);
    await check('/v1/webhooks/{webhook_id}/rotate-secret', `/v1/webhooks/${id}/rotate-secret`, { method: 'POST' }, 200);
    const delivery = (await check('/v1/webhooks/{webhook_id}/test', `/v1/webhooks/${id}/test`, { method: 'POST' }, 202)).body.data.id;
    await service.deps.webhooks.drain(); // port 9 refuses: the delivery waits for its retry
    await check('/v1/webhooks/{webhook_id}/deliveries', `/v1/webhooks/${id}/deliveries?limit=5`, {}, 200);
    await check('/v1/webhooks/{webhook_id}/deliveries', `/v1/webhooks/${id}/deliveries?cursor=@@`, {}, 400);
    const redeliver = '/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver';
    await check(redeliver, `/v1/webhooks/${id}/deliveries/${delivery}/redeliver`, { method: 'POST' }, 202);
    await check(redeliver, `/v1/webhooks/${id}/deliveries/dlv_missing123456789/redeliver`, { method: 'POST' }, 404);
    await check(one, `/v1/webhooks/${id}`, { method: 'PATCH', body: { enabled: false } }, 200);
    await check('/v1/webhooks/{webhook_id}/test', `/v1/webhooks/${id}/test`, { method: 'POST' }, 409);
    await check(one, `/v1/webhooks/${id}`, { method: 'DELETE' }, 200);
    await check(one, `/v1/webhooks/${id}`, { method: 'DELETE' }, 404);
  });

  it('conversation labels', async () => {
    const template = '/v1/conversations/{conversation_id}/labels';
    const conversation = (await raw('/v1/chat', { body: { messages: [{ role: 'user', content: 'hello' }] } })).body.data.conversation_id;
    await check(template, `/v1/conversations/${conversation}/labels`, { body: { add: ['vip', 'refund'] } }, 200);
    await check(template, `/v1/conversations/${conversation}/labels`, { body: { add: ['x'.repeat(41)] } }, 400);
    await check(template, '/v1/conversations/conv_missing123456789/labels', { body: { remove: ['vip'] } }, 404);
    const listed = await check('/v1/conversations', '/v1/conversations?label=vip', {}, 200);
    assert.deepEqual(listed.body.data.items.map((c: { id: string }) => c.id), [conversation]);
  });

  it('canned replies', async () => {
    const [list, one] = ['/v1/canned-replies', '/v1/canned-replies/{canned_reply_id}'];
    await check(list, '/v1/canned-replies', { body: { shortcut: 'Not ok', text: 'x' } }, 400);
    const id = (await check(list, '/v1/canned-replies', { body: { shortcut: 'refund-policy', text: 'Refunds take 5 days.' } }, 201)).body.data.id;
    await check(list, '/v1/canned-replies', { body: { shortcut: 'refund-policy', text: 'again' } }, 409);
    await check(list, '/v1/canned-replies', {}, 200);
    await check(one, `/v1/canned-replies/${id}`, { method: 'PATCH', body: { text: 'Refunds take 3 days.' } }, 200);
    await check(one, '/v1/canned-replies/cnr_missing123456789', { method: 'PATCH', body: { text: 'x' } }, 404);
    await check(one, `/v1/canned-replies/${id}`, { method: 'DELETE' }, 200);
    await check(one, `/v1/canned-replies/${id}`, { method: 'DELETE' }, 404);
  });

  it('channel management: the list, test messages, Telegram\'s webhook', async () => {
    const bot = (await raw('/v1/bots', { body: { name: 'Managed' } })).body.data.id;
    const list = '/v1/bots/{bot_id}/channels';
    await check(list, '/v1/bots/bot_missing123456789/channels', {}, 404);
    await check('/v1/bots/{bot_id}/channels/telegram', `/v1/bots/${bot}/channels/telegram`, { method: 'PUT', body: { bot_token: FAKE_TELEGRAM_TOKEN } }, 200);
    const { phoneNumberId, accessToken, appSecret, verifyToken } = FAKE_WHATSAPP;
    const whatsappBody = { phone_number_id: phoneNumberId, access_token: accessToken, app_secret: appSecret, verify_token: verifyToken };
    await check('/v1/bots/{bot_id}/channels/whatsapp', `/v1/bots/${bot}/channels/whatsapp`, { method: 'PUT', body: whatsappBody }, 200);
    await check('/v1/bots/{bot_id}/channels/slack', `/v1/bots/${bot}/channels/slack`, { method: 'PUT', body: { bot_token: FAKE_SLACK.botToken, signing_secret: FAKE_SLACK.signingSecret } }, 200);
    await check(list, `/v1/bots/${bot}/channels`, {}, 200);
    for (const [type, chat] of [['telegram', '42'], ['whatsapp', '4915112345678'], ['slack', 'C0CONTRACT']] as const) {
      const [send, one] = [`/v1/bots/{bot_id}/channels/${type}/test`, `/v1/bots/{bot_id}/channels/${type}/test/{test_id}`];
      await check(send, `/v1/bots/${bot}/channels/${type}/test`, { method: 'POST' }, 400); // nobody wrote yet
      const id = (await check(send, `/v1/bots/${bot}/channels/${type}/test`, { body: { chat, text: 'Testing' } }, 202)).body.data.id;
      await check(one, `/v1/bots/${bot}/channels/${type}/test/${id}`, {}, 200);
      await check(one, `/v1/bots/${bot}/channels/${type}/test/msg_missing123456789`, {}, 404);
    }
    const hook = '/v1/bots/{bot_id}/channels/telegram/webhook';
    await check(hook, `/v1/bots/${bot}/channels/telegram/webhook`, { method: 'DELETE' }, 200);
    await check(hook, `/v1/bots/${bot}/channels/telegram/webhook`, { method: 'POST' }, 200);
    await check(hook, '/v1/bots/bot_missing123456789/channels/telegram/webhook', { method: 'POST' }, 404);
    await service.deps.channels.drain();
  });

  it('covered a success answer of every documented operation', () => {
    const missing: string[] = [];
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) {
        const statuses = [...(covered.get(op.operationId) ?? [])];
        if (!statuses.some((s) => s < 300)) missing.push(op.operationId);
      }
    }
    assert.deepEqual(missing, []);
  });
});
