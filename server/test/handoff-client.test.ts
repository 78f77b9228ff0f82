// The typed client's handoff methods over a loopback port to the real service:
// settings, state, asking for a person, offline messages, and `events()`, whose iterator reconnects
// after every stream the service ends (`maxSeconds: 1`) and resumes from the last event id: across
// several reconnects every operator message arrives once, in order.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { serve, type ServerType } from '@hono/node-server';
import { AiChatClient, ApiError, type HandoffEvent } from '../../src/client/index.ts';
import { HttpCore } from '../../src/client/http.ts';
import { followEvents } from '../../src/client/resources/handoff.ts';
import type { Service } from '../src/index.ts';
import { handoffSetup, openStream, startConversation, type HandoffSetup, type LiveStream } from './support/handoff.ts';
import { createTestService } from './support/test-database.ts';

let service: Service;
let server: ServerType;
let client: AiChatClient;
let setup: HandoffSetup;
let inbox: LiveStream;

before(async () => {
  service = await createTestService();
  setup = await handoffSetup(service);
  inbox = await openStream(service.fetch, 'http://127.0.0.1/dashboard/api/inbox/events', { cookie: `aicw_session=${setup.operator.cookie}` });
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: service.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  client = new AiChatClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, apiKey: service.devApiKey!, maxRetries: 0 });
});
after(async () => {
  inbox?.close();
  (server as { closeAllConnections?: () => void }).closeAllConnections?.();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await service.close();
});

describe('client.handoff', () => {
  it('settings, state, request, offline message; 409 and 404 as ApiError', async () => {
    const settings = await client.handoff.updateSettings(setup.botId, { enabled: true, after_fallbacks: 2 });
    assert.equal(settings.data.after_fallbacks, 2);
    assert.equal((await client.handoff.settings(setup.botId)).data.available, true);
    const conversationId = await startConversation(setup.api, setup.botId, 'client-a');
    assert.equal((await client.handoff.state(conversationId, { user_id: 'client-a' })).data.status, 'bot');
    assert.equal((await client.handoff.request(conversationId, { user_id: 'client-a' })).data.status, 'waiting');
    const left = await client.handoff.leaveOfflineMessage(conversationId, { email: 'a@example.test', message: 'later', user_id: 'client-a' });
    assert.equal(left.status, 201);
    await assert.rejects(client.handoff.state(conversationId, { user_id: 'client-b' }), (error) => error instanceof ApiError && error.status === 404);
    await client.handoff.updateSettings(setup.botId, { enabled: false });
    const other = await startConversation(setup.api, setup.botId, 'client-c');
    await assert.rejects(client.handoff.request(other, { user_id: 'client-c' }), (error) => error instanceof ApiError && error.code === 'handoff_unavailable' && error.status === 409);
    await client.handoff.updateSettings(setup.botId, { enabled: true });
  });

  it('events(): reconnects after each ended stream and resumes, every message once and in order', { timeout: 30_000 }, async () => {
    const user = 'client-stream';
    const conversationId = await startConversation(setup.api, setup.botId, user);
    await client.handoff.request(conversationId, { user_id: user });
    const controller = new AbortController();
    const received: HandoffEvent[] = [];
    const expected = ['m1', 'm2', 'm3', 'm4'];
    // Each open connection says so (its `ready` frame), so the messages can be sent one per
    // connection: the service ends every stream after 1 s and the iterator resumes with the last id.
    const waiting: (() => void)[] = [];
    const nextConnection = () => new Promise<void>((resolve) => waiting.push(resolve));
    const onReady = () => waiting.splice(0).forEach((wake) => wake());
    const firstConnection = nextConnection();
    const reading = (async () => {
      for await (const event of client.handoff.events(conversationId, { user_id: user, maxSeconds: 1, retryDelayMs: 50, signal: controller.signal, onReady })) {
        received.push(event);
        if (event.type === 'message' && event.data.content === expected.at(-1)) break;
      }
    })();
    await firstConnection;
    const operator = setup.operator;
    assert.equal((await operator.call('POST', `/dashboard/api/inbox/${conversationId}/take`)).status, 200);
    // spread over several connections: each message after the first waits for a new connection
    for (const [i, content] of expected.entries()) {
      if (i > 0) await nextConnection();
      assert.equal((await operator.call('POST', `/dashboard/api/inbox/${conversationId}/messages`, { body: { content } })).status, 201);
    }
    await reading;
    controller.abort();
    const messages = received.filter((e) => e.type === 'message').map((e) => (e.data as { content: string }).content);
    assert.deepEqual(messages, expected);
    assert.equal(received[0]!.type, 'status');
    const ids = received.map((e) => Number(e.id));
    assert.deepEqual(ids, [...ids].sort((a, b) => a - b));
    assert.equal(new Set(ids).size, ids.length);
  });

  it('followEvents() on the inbox stream yields every kind of event, a private note too', async () => {
    const port = (server.address() as AddressInfo).port;
    const cookie = `aicw_session=${setup.operator.cookie}`;
    const core = new HttpCore({
      baseUrl: `http://127.0.0.1:${port}/dashboard/api`,
      maxRetries: 0,
      fetch: (input, init) => fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), cookie } }),
    });
    const conversationId = await startConversation(setup.api, setup.botId, 'client-note-reader');
    const controller = new AbortController();
    let onReady!: () => void;
    const ready = new Promise<void>((resolve) => (onReady = resolve));
    const stream = followEvents(core, '/inbox/events', {}, { signal: controller.signal, onReady });
    const next = stream.next();
    await ready;
    const added = await setup.operator.call('POST', `/dashboard/api/inbox/${conversationId}/notes`, { body: { content: 'for the team' } });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    let event = (await next).value as HandoffEvent;
    while (event.type !== 'note') event = (await stream.next()).value as HandoffEvent;
    assert.equal(event.data.content, 'for the team');
    controller.abort();
  });

  it('events(): a conversation that is not the visitor’s throws 404 instead of retrying', async () => {
    const conversationId = await startConversation(setup.api, setup.botId, 'client-owner');
    const iterator = client.handoff.events(conversationId, { user_id: 'client-intruder' });
    await assert.rejects(iterator.next(), (error) => error instanceof ApiError && error.status === 404);
  });
});
