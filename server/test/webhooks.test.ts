// Outgoing webhooks: subscriptions, Standard Webhooks signatures checked with the `standardwebhooks`
// library, durable delivery with retries on an injected clock, redelivery, restarts, SSRF checks at
// subscribe and delivery time, tenant isolation, and signing secrets sealed at rest. The receiver is
// a loopback fake.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { createService, type Service, type ServiceOptions } from '../src/index.ts';
import { signedHeaders } from '../src/webhooks/signing.ts';
import { RETRY_SCHEDULE_MS } from '../src/webhooks/delivery.ts';
import { WEBHOOK_EVENTS } from '../src/webhooks/schema.ts';
import { TestClock } from './support/channels.ts';
import { clientFor, startTestService, type TestClient } from './support/core.ts';
import { FakePlatform, type FakeRequest } from './support/fake-platform.ts';
import { testDatabase } from './support/test-database.ts';

const clock = new TestClock();
const receiver = new FakePlatform(() => ({ status: 200, body: { ok: true } }));
/** The worker runs only when a test drains it; a hung receiver is given up on sooner than in production. */
const webhookOptions = (allowPrivateHosts: boolean) => ({ allowPrivateHosts, now: clock.now, pollMs: 3_600_000, requestTimeoutMs: 3000 });

let api: TestClient;
let botId: string;

before(async () => {
  await receiver.listen();
  api = await startTestService({ webhooks: webhookOptions(true) });
  const bot = await api.json('/v1/bots', { method: 'POST', body: { name: 'Shop' } }); // untrained: answers its fallback
  assert.equal(bot.res.status, 201, JSON.stringify(bot.body));
  botId = bot.body.data.id;
});
after(async () => {
  await api?.service.close();
  await receiver.close();
});

const drain = (client: TestClient = api) => client.service.deps.webhooks.drain();
const hooks = (path: string) => receiver.requests.filter((request) => request.path === path);

async function subscribe(path: string, events: string[], client: TestClient = api) {
  const { res, body } = await client.json('/v1/webhooks', { method: 'POST', body: { url: `${receiver.url}${path}`, events, description: path } });
  assert.equal(res.status, 201, JSON.stringify(body));
  return body.data as { id: string; secret: string };
}

async function log(id: string, client: TestClient = api) {
  const { res, body } = await client.json(`/v1/webhooks/${id}/deliveries`);
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.data.items as { id: string; event_id: string; type: string; status: string; attempts: number; last_status: number | null; last_error: string | null; next_attempt_at: string | null }[];
}

const headersOf = (request: FakeRequest) => Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));

/** The library's own check, at the request's timestamp (the test clock runs ahead of the real one). */
function verifiedAtItsTime(secret: string, request: FakeRequest): void {
  const headers = headersOf(request);
  const expected = new Webhook(secret).sign(headers['webhook-id']!, new Date(Number(headers['webhook-timestamp']) * 1000), request.raw);
  assert.equal(headers['webhook-signature'], expected);
}

describe('signing', () => {
  it("signs the Standard Webhooks specification's example as the specification does", () => {
    const headers = signedHeaders('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', new Date(1_614_265_330_000), '{"test": 2432232314}');
    assert.deepEqual(headers, { 'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek', 'webhook-timestamp': '1614265330', 'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' });
  });
});

describe('events', () => {
  it('a bot message produces conversation.started and message.created, signed, verified by standardwebhooks', async () => {
    const { id, secret } = await subscribe('/events', ['conversation.started', 'message.created']);
    assert.match(secret, /^whsec_[A-Za-z0-9+/=]{44}$/);
    const turn = await api.json(`/v1/bots/${botId}/messages`, { method: 'POST', body: { message: 'hello', user_id: 'ada' } });
    assert.equal(turn.res.status, 200, JSON.stringify(turn.body));
    await drain();
    const received = hooks('/events');
    assert.equal(received.length, 3);
    // The clock was not moved: the library's own verify, its timestamp tolerance included, accepts each.
    const payloads = received.map((request) => new Webhook(secret).verify(request.raw, headersOf(request)) as { type: string; timestamp: string; data: any });
    const started = payloads.find((p) => p.type === 'conversation.started')!;
    assert.equal(started.data.conversation.id, turn.body.data.conversation_id);
    assert.equal(started.data.conversation.bot_id, botId);
    assert.match(started.data.conversation.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const messages = payloads.filter((p) => p.type === 'message.created').map((p) => p.data);
    assert.deepEqual(messages.map((m) => m.message.role).sort(), ['assistant', 'user']);
    const reply = messages.find((m) => m.message.role === 'assistant')!;
    assert.deepEqual(reply.message, turn.body.data.message);
    assert.equal(reply.bot_id, botId);
    assert.equal(reply.user_id, 'ada');
    assert.equal(new Set(received.map((r) => r.headers['webhook-id'])).size, 3);
    assert.ok((await log(id)).every((d) => d.status === 'delivered' && d.attempts === 1 && d.last_status === 200));
  });

  it('feedback and handoff status changes are events too', async () => {
    await subscribe('/more', ['feedback.given', 'handoff.requested', 'handoff.closed']);
    const turn = await api.json(`/v1/bots/${botId}/messages`, { method: 'POST', body: { message: 'hi', user_id: 'bea' } });
    const feedback = await api.json(`/v1/messages/${turn.body.data.message.id}/feedback`, { method: 'POST', body: { rating: 'down', reason: 'not_helpful', user_id: 'bea' } });
    assert.equal(feedback.res.status, 200, JSON.stringify(feedback.body));
    const db = api.service.deps.db;
    const conversationId = turn.body.data.conversation_id;
    await db.updateTable('conversations').set({ status: 'waiting', waiting_since: new Date() }).where('id', '=', conversationId).execute();
    await db.updateTable('conversations').set({ status: 'closed' }).where('id', '=', conversationId).execute();
    await drain();
    // Deliveries go out side by side: receivers order events by their `timestamp`, not by arrival.
    const events = Object.fromEntries(hooks('/more').map((request) => [request.body.type, request.body.data]));
    assert.deepEqual(Object.keys(events).sort(), ['feedback.given', 'handoff.closed', 'handoff.requested']);
    assert.equal(events['feedback.given'].rating, 'down');
    assert.equal(events['feedback.given'].message_id, turn.body.data.message.id);
    assert.equal(events['handoff.requested'].conversation_id, conversationId);
    assert.equal(events['handoff.closed'].status, 'closed');
  });

  it('a satisfaction rating is the csat.given event, and every type the API lists can be subscribed to', async () => {
    const all = await api.json('/v1/webhooks', { method: 'POST', body: { url: `${receiver.url}/all`, events: WEBHOOK_EVENTS } });
    assert.equal(all.res.status, 201, JSON.stringify(all.body));
    assert.ok(WEBHOOK_EVENTS.includes('csat.given'));
    await api.json(`/v1/webhooks/${all.body.data.id}`, { method: 'DELETE' });
    await subscribe('/csat', ['csat.given']);
    const turn = await api.json(`/v1/bots/${botId}/messages`, { method: 'POST', body: { message: 'hi', user_id: 'cid' } });
    const conversationId = turn.body.data.conversation_id;
    const rated = await api.json(`/v1/conversations/${conversationId}/csat`, { method: 'POST', body: { rating: 4, comment: 'Fine.', user_id: 'cid' } });
    assert.equal(rated.res.status, 201, JSON.stringify(rated.body));
    await drain();
    const [event] = hooks('/csat').map((request) => request.body);
    assert.equal(event.type, 'csat.given');
    assert.deepEqual(
      { ...event.data, given_at: undefined },
      { conversation_id: conversationId, bot_id: botId, agent_id: null, user_id: 'cid', operator_id: null, rating: 4, comment: 'Fine.', given_at: undefined },
    );
    assert.equal(new Date(event.data.given_at).toISOString(), rated.body.data.created_at);
  });
});

describe('subscriptions', () => {
  it('never answers the secret after creation; rotating answers a new one that signs from then on', async () => {
    const { id, secret } = await subscribe('/rotate', ['message.created']);
    for (const path of ['/v1/webhooks', `/v1/webhooks/${id}`]) {
      const { res, body } = await api.json(path);
      assert.equal(res.status, 200);
      assert.ok(!JSON.stringify(body).includes(secret.slice(6, 20)));
      assert.ok(!JSON.stringify(body).includes('whsec_'));
    }
    const patched = await api.json(`/v1/webhooks/${id}`, { method: 'PATCH', body: { description: 'renamed' } });
    assert.equal(patched.body.data.description, 'renamed');
    assert.equal(patched.body.data.secret, undefined);
    const rotated = await api.json(`/v1/webhooks/${id}/rotate-secret`, { method: 'POST' });
    assert.equal(rotated.res.status, 200);
    assert.notEqual(rotated.body.data.secret, secret);
    await api.json(`/v1/webhooks/${id}/test`, { method: 'POST' });
    await drain();
    const [request] = hooks('/rotate');
    assert.equal(request!.body.type, 'webhook.test');
    verifiedAtItsTime(rotated.body.data.secret, request!);
    assert.throws(() => new Webhook(secret).verify(request!.raw, headersOf(request!)));
  });

  it('refuses private, loopback, link-local, mapped and metadata targets at subscribe time', async () => {
    const strict = await startTestService({ webhooks: webhookOptions(false) });
    try {
      for (const url of ['http://127.0.0.1:9/x', 'http://10.0.0.8/x', 'http://[::1]/x', 'http://[::ffff:127.0.0.1]/x', 'http://169.254.169.254/latest/meta-data', 'http://100.64.0.1/', 'http://224.0.0.1/', 'http://0.0.0.0/']) {
        const { res, body } = await strict.json('/v1/webhooks', { method: 'POST', body: { url, events: ['message.created'] } });
        assert.equal(res.status, 400, url);
        assert.equal(body.error.code, 'url_not_allowed', url);
      }
      for (const url of ['ftp://example.com/x', 'https://user:pw@example.com/x', 'not a url']) {
        const { res, body } = await strict.json('/v1/webhooks', { method: 'POST', body: { url, events: ['message.created'] } });
        assert.equal(res.status, 400, url);
        assert.equal(body.error.code, 'validation_failed', url);
      }
      const bad = await strict.json('/v1/webhooks', { method: 'POST', body: { url: 'https://example.com/x', events: ['message.deleted'] } });
      assert.equal(bad.body.error.code, 'validation_failed');
      const long = await strict.json('/v1/webhooks', { method: 'POST', body: { url: `https://example.com/${'a'.repeat(2100)}`, events: ['message.created'] } });
      assert.equal(long.body.error.code, 'validation_failed');
    } finally {
      await strict.service.close();
    }
  });

  it('refuses at delivery a name that resolves to a loopback address', async () => {
    const strict = await startTestService({ webhooks: webhookOptions(false) });
    try {
      const port = new URL(receiver.url).port;
      const created = await strict.json('/v1/webhooks', { method: 'POST', body: { url: `http://localhost:${port}/rebound`, events: ['message.created'] } });
      assert.equal(created.res.status, 201, JSON.stringify(created.body));
      await strict.json(`/v1/webhooks/${created.body.data.id}/test`, { method: 'POST' });
      await drain(strict);
      assert.equal(hooks('/rebound').length, 0);
      const [delivery] = await log(created.body.data.id, strict);
      assert.equal(delivery!.status, 'pending');
      assert.equal(delivery!.last_status, null);
      assert.match(delivery!.last_error!, /^url_not_allowed/);
    } finally {
      await strict.service.close();
    }
  });

  it('bounds the subscriptions of an account', async () => {
    const other = await startTestService({ webhooks: { ...webhookOptions(true), maxSubscriptions: 2 } });
    try {
      await subscribe('/a', ['message.created'], other);
      await subscribe('/b', ['message.created'], other);
      const third = await other.json('/v1/webhooks', { method: 'POST', body: { url: `${receiver.url}/c`, events: ['message.created'] } });
      assert.equal(third.res.status, 409);
      assert.equal(third.body.error.code, 'conflict');
    } finally {
      await other.service.close();
    }
  });

  it('another account can neither see, change, test nor redeliver them', async () => {
    const { id } = await subscribe('/mine', ['message.created']);
    await api.json(`/v1/webhooks/${id}/test`, { method: 'POST' });
    await drain();
    const [delivery] = await log(id);
    const stranger = clientFor(api.service, (await api.service.createAccount()).apiKey);
    assert.deepEqual((await stranger.json('/v1/webhooks')).body.data.items, []);
    for (const [path, method] of [[`/v1/webhooks/${id}`, 'GET'], [`/v1/webhooks/${id}`, 'PATCH'], [`/v1/webhooks/${id}`, 'DELETE'], [`/v1/webhooks/${id}/deliveries`, 'GET'], [`/v1/webhooks/${id}/test`, 'POST'], [`/v1/webhooks/${id}/rotate-secret`, 'POST'], [`/v1/webhooks/${id}/deliveries/${delivery!.id}/redeliver`, 'POST']] as const) {
      const { res, body } = await stranger.json(path, { method, ...(method === 'PATCH' && { body: { enabled: false } }) });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(body.error.code, 'resource_not_found');
    }
    assert.equal((await api.json(`/v1/webhooks/${id}`)).body.data.enabled, true);
  });
});

describe('delivery', () => {
  it('retries a receiver that fails or is slow with backoff on the clock, honouring Retry-After, then delivers', async () => {
    const { id, secret } = await subscribe('/flaky', ['message.created']);
    receiver.failNext({ status: 500, body: { error: 'down' } });
    await api.json(`/v1/webhooks/${id}/test`, { method: 'POST' });
    await drain();
    let [delivery] = await log(id);
    assert.deepEqual([delivery!.status, delivery!.attempts, delivery!.last_status], ['pending', 1, 500]);
    assert.equal(Date.parse(delivery!.next_attempt_at!), clock.ms + RETRY_SCHEDULE_MS[0]!);

    clock.advance(RETRY_SCHEDULE_MS[0]! - 1);
    await drain();
    assert.equal(hooks('/flaky').length, 1); // not due yet
    const held = receiver.holdNext(); // the second try gets no answer within the deadline
    clock.advance(1);
    await drain();
    held.release();
    [delivery] = await log(id);
    assert.deepEqual([delivery!.attempts, delivery!.last_status], [2, null]);
    assert.match(delivery!.last_error!, /no answer within/);

    receiver.failNext({ status: 429, body: {}, headers: { 'retry-after': '300' } });
    clock.advance(RETRY_SCHEDULE_MS[1]!);
    await drain();
    [delivery] = await log(id);
    assert.deepEqual([delivery!.attempts, delivery!.last_status], [3, 429]);
    assert.equal(Date.parse(delivery!.next_attempt_at!), clock.ms + 300_000); // the receiver's wait, not the schedule's 2 minutes
    clock.advance(299_999);
    await drain();
    assert.equal(hooks('/flaky').length, 3);
    clock.advance(1);
    await drain();
    [delivery] = await log(id);
    assert.deepEqual([delivery!.status, delivery!.attempts, delivery!.last_status], ['delivered', 4, 200]);
    const tries = hooks('/flaky');
    assert.equal(tries.length, 4);
    assert.equal(new Set(tries.map((request) => request.headers['webhook-id'])).size, 1); // one event, however many tries
    assert.equal(new Set(tries.map((request) => request.raw)).size, 1);
    for (const request of tries) verifiedAtItsTime(secret, request);
  });

  it('redelivers a delivery: the same event id, one more try', async () => {
    const { id } = await subscribe('/again', ['message.created']);
    await api.json(`/v1/webhooks/${id}/test`, { method: 'POST' });
    await drain();
    const [delivery] = await log(id);
    const again = await api.json(`/v1/webhooks/${id}/deliveries/${delivery!.id}/redeliver`, { method: 'POST' });
    assert.equal(again.res.status, 202, JSON.stringify(again.body));
    await drain();
    const tries = hooks('/again');
    assert.equal(tries.length, 2);
    assert.equal(tries[0]!.headers['webhook-id'], tries[1]!.headers['webhook-id']);
    const [after] = await log(id);
    assert.deepEqual([after!.status, after!.attempts], ['delivered', 2]);
  });

  it('disables a subscription whose deliveries have all failed for days, and stops sending to it', async () => {
    const { id } = await subscribe('/dead', ['message.created']);
    receiver.failNext({ status: 500, body: {} });
    await api.json(`/v1/webhooks/${id}/test`, { method: 'POST' });
    await drain();
    clock.advance(6 * 24 * 3_600_000);
    receiver.failNext({ status: 500, body: {} });
    await drain(); // the first event's retry fails too: past five days of failures
    const { body } = await api.json(`/v1/webhooks/${id}`);
    assert.equal(body.data.enabled, false);
    assert.match(body.data.disabled_reason, /5 days/);
    const test = await api.json(`/v1/webhooks/${id}/test`, { method: 'POST' });
    assert.equal(test.res.status, 409);
    const enabled = await api.json(`/v1/webhooks/${id}`, { method: 'PATCH', body: { enabled: true } });
    assert.deepEqual([enabled.body.data.enabled, enabled.body.data.disabled_reason, enabled.body.data.failing_since], [true, null, null]);
    clock.advance(RETRY_SCHEDULE_MS[1]!);
    await drain(); // what waited while it was disabled goes out on its schedule
    assert.deepEqual((await log(id)).map((delivery) => delivery.status), ['delivered']);
  });
});

describe('restart', () => {
  it('deliveries waiting for a retry go out after the service restarts', async () => {
    const database = await testDatabase({ persistent: true });
    const options: ServiceOptions = { seed: false, logLevel: 'silent', apiKey: 'aicw_sk_webhook-restart-test-key-0123456789', ...database.options, webhooks: webhookOptions(true) };
    let service: Service = await createService(options);
    try {
      const client = clientFor(service, service.devApiKey!);
      const { id } = await subscribe('/restart', ['message.created'], client);
      receiver.failNext({ status: 503, body: {} });
      await client.json(`/v1/webhooks/${id}/test`, { method: 'POST' });
      await drain(client);
      await service.close();
      service = await createService(options);
      const next = clientFor(service, service.devApiKey!);
      clock.advance(RETRY_SCHEDULE_MS[0]!);
      await drain(next);
      const [delivery] = await log(id, next);
      assert.deepEqual([delivery!.status, delivery!.attempts], ['delivered', 2]);
      assert.equal(hooks('/restart').length, 2);
    } finally {
      await service.close();
      await database.cleanup();
    }
  });
});

describe('signing secrets at rest', () => {
  it('are sealed once the service has AI_CHAT_SECRETS_KEY, follow a key rotation, and a missing key fails the try, not the worker', async () => {
    const database = await testDatabase({ persistent: true });
    const keys = [randomBytes(32).toString('base64'), randomBytes(32).toString('base64'), randomBytes(32).toString('base64')];
    const start = (channels: ServiceOptions['channels']) =>
      createService({ seed: false, logLevel: 'silent', apiKey: 'aicw_sk_webhook-sealed-test-key-01234567890', ...database.options, webhooks: webhookOptions(true), channels });
    const rows = async (service: Service) =>
      (await sql<{ id: string; secret: string | null; secret_sealed: { key_id: string } | null }>`select id, secret, secret_sealed from webhook_subscriptions order by id`.execute(service.deps.db)).rows;
    const testEvent = async (service: Service, id: string) => {
      const client = clientFor(service, service.devApiKey!);
      assert.equal((await client.json(`/v1/webhooks/${id}/test`, { method: 'POST' })).res.status, 202);
      await drain(client);
      return (await log(id, client))[0]!;
    };
    let service = await start(undefined);
    try {
      // Without a key: kept as it is.
      const plain = await subscribe('/sealed-plain', ['message.created'], clientFor(service, service.devApiKey!));
      assert.deepEqual((await rows(service)).map((r) => [r.secret, r.secret_sealed]), [[plain.secret, null]]);
      await service.close();

      // With a key: the old row is sealed at start, a new one is sealed at once; neither is readable in the row.
      service = await start({ secretsKey: keys[0] });
      const sealed = await subscribe('/sealed-new', ['message.created'], clientFor(service, service.devApiKey!));
      const stored = await rows(service);
      assert.ok(stored.every((r) => r.secret === null && r.secret_sealed?.key_id), JSON.stringify(stored));
      for (const secret of [plain.secret, sealed.secret]) assert.ok(!JSON.stringify(stored).includes(secret.slice('whsec_'.length)), 'a secret in the clear');
      for (const [{ id, secret }, path] of [[plain, '/sealed-plain'], [sealed, '/sealed-new']] as const) {
        assert.equal((await testEvent(service, id)).status, 'delivered');
        verifiedAtItsTime(secret, hooks(path).at(-1)!);
      }
      await service.close();

      // Rotated: the previous key still opens, and every row is sealed under the new one.
      service = await start({ secretsKey: keys[1], previousSecretsKeys: [keys[0]!] });
      const [before] = (await rows(service)).map((r) => r.secret_sealed!.key_id);
      assert.ok((await rows(service)).every((r) => r.secret_sealed!.key_id === before) && before !== stored[0]!.secret_sealed!.key_id);
      assert.equal((await testEvent(service, sealed.id)).status, 'delivered');
      verifiedAtItsTime(sealed.secret, hooks('/sealed-new').at(-1)!);
      await service.close();

      // A key that never sealed them: the try fails and says why; nothing is sent unsigned.
      const sent = hooks('/sealed-new').length;
      service = await start({ secretsKey: keys[2] });
      const failed = await testEvent(service, sealed.id);
      assert.deepEqual([failed.status, failed.last_status], ['pending', null]);
      assert.match(failed.last_error ?? '', /signing secret cannot be read/);
      assert.equal(hooks('/sealed-new').length, sent);
    } finally {
      await service.close();
      await database.cleanup();
    }
  });
});
