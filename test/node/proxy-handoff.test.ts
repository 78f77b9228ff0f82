/// <reference types="node" />
// The handoff events stream through the token proxy never outlives its token (human handoff): with a
// 2-second token and no max_seconds asked, the proxy caps the stream at the token's remaining
// lifetime, so it ends by itself; the expired token is then refused, and a renewed token for the
// same user resumes by last_event_id with the event that happened in between. Against the REAL service.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SseLineParser, type SseEvent } from '../../src/client/sse.js';
import { call, createBot, hostProxy, mint, SHOP, startService, type HostedProxy, type RunningService } from './proxy-harness.js';

let service: RunningService;
let accountId: string;
let apiKey: string;
let botId: string;
let host: HostedProxy;
/** How far the proxy's clock (`now`) is ahead of the real one: the test moves it instead of waiting. */
let ahead = 0;

before(async () => {
  service = await startService();
  ({ accountId, apiKey } = await service.service.createAccount({ name: 'handoff via proxy' }));
  botId = await createBot(service.url, apiKey);
  host = await hostProxy({ apiKey, upstream: service.url, botId, tokenTtlSeconds: 2, now: () => Date.now() + ahead });
});
after(async () => {
  await host?.close();
  await service?.close();
});

/** Reads a whole event stream (it must end by itself: the test's timeout guards that). */
async function readAll(res: Response): Promise<SseEvent[]> {
  const parser = new SseLineParser();
  const text = await res.text();
  return [...parser.push(text), ...parser.end()];
}

describe('handoff events through the proxy', () => {
  it('end with the token; a renewed token resumes from the last event id', { timeout: 30_000 }, async () => {
    const { token } = await mint(host.url, { user: 'alice', origin: SHOP });
    const first = await call(host.url, token, `/v1/bots/${botId}/messages`, { method: 'POST', body: { message: 'hello' }, origin: SHOP });
    const firstBody = (await first.json()) as { data: { conversation_id: string } };
    assert.equal(first.status, 200, JSON.stringify(firstBody));
    const conversationId = firstBody.data.conversation_id;

    const stream = await fetch(`${host.url}/v1/conversations/${conversationId}/events`, { headers: { authorization: `Bearer ${token}`, origin: SHOP } });
    assert.equal(stream.status, 200);
    const events = await readAll(stream); // ends when the token's lifetime is over
    const ready = events.find((e) => e.event === 'ready');
    assert.ok(ready?.id, 'a ready frame with the position');

    // meanwhile the conversation changes (the service's own code, as an operator's action would)
    const deps = (service as unknown as { service: { deps: { handoff: { transition(a: string, c: string, to: string): Promise<unknown> } } } }).service.deps;
    await deps.handoff.transition(accountId, conversationId, 'waiting');

    // past the 2 s lifetime and the proxy's 5 s clock-skew tolerance: the old token is refused now
    ahead += 8000;
    const stale = await fetch(`${host.url}/v1/conversations/${conversationId}/events`, { headers: { authorization: `Bearer ${token}`, origin: SHOP } });
    assert.equal(stale.status, 401);
    assert.equal(((await stale.json()) as { error: { code: string } }).error.code, 'token_expired');

    const renewed = await mint(host.url, { user: 'alice', origin: SHOP });
    const resumed = await fetch(`${host.url}/v1/conversations/${conversationId}/events?last_event_id=${ready!.id}`, { headers: { authorization: `Bearer ${renewed.token}`, origin: SHOP } });
    assert.equal(resumed.status, 200);
    const caught = (await readAll(resumed)).filter((e) => e.event === 'status');
    assert.equal(caught.length, 1);
    assert.equal(JSON.parse(caught[0]!.data).status, 'waiting');
  });
});
