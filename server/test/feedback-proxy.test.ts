// Feedback through the token proxy: a widget token rates only answers its own user
// got from its own bot, and takes its feedback back with DELETE. End to end, as `npm start` mounts it:
// the demo proxy on the real service on a loopback port, tokens minted at /proxy/token.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunningServer } from '../src/index.ts';
import { mintVisitor, startDemoServer, viaProxy, type Visitor } from './support/demo-server.ts';

let server: RunningServer;

before(async () => {
  server = await startDemoServer();
});
after(() => server?.close());

async function answerFor(who: Visitor): Promise<string> {
  const { res, body } = await viaProxy(server, who, `/v1/bots/${who.botId}/messages`, { body: { message: 'How fast is shipping?' } });
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.data.message.id;
}

describe('feedback through the demo token proxy', () => {
  it("a visitor rates their own answer (as the token's user and bot), changes it and takes it back", async () => {
    const alice = await mintVisitor(server);
    const answer = await answerFor(alice);
    // whatever user_id the browser sends, the token's user rates
    const given = await viaProxy(server, alice, `/v1/messages/${answer}/feedback`, { body: { rating: 'down', reason: 'incomplete', user_id: 'mallory' } });
    assert.equal(given.res.status, 200, JSON.stringify(given.body));
    assert.equal(given.body.data.user_id, alice.userId);
    assert.equal(given.body.data.bot_id, alice.botId);
    const changed = await viaProxy(server, alice, `/v1/messages/${answer}/feedback`, { body: { rating: 'up' } });
    assert.equal(changed.body.data.rating, 'up');
    const removed = await viaProxy(server, alice, `/v1/messages/${answer}/feedback?user_id=mallory`, { method: 'DELETE' });
    assert.equal(removed.res.status, 200, JSON.stringify(removed.body));
    assert.equal(removed.body.data.deleted, true);
  });

  it("another visitor's answer is not found, and another bot is refused", async () => {
    const alice = await mintVisitor(server);
    const bob = await mintVisitor(server);
    const answer = await answerFor(alice);
    const stolen = await viaProxy(server, bob, `/v1/messages/${answer}/feedback`, { body: { rating: 'down' } });
    assert.equal(stolen.res.status, 404, JSON.stringify(stolen.body));
    assert.equal(stolen.body.error.code, 'resource_not_found');
    const otherBot = await viaProxy(server, alice, `/v1/messages/${answer}/feedback`, { body: { rating: 'down', bot_id: 'bot_someoneelse01' } });
    assert.equal(otherBot.res.status, 403, JSON.stringify(otherBot.body));
    assert.equal(otherBot.body.error.code, 'permission_denied');
    const badId = await viaProxy(server, alice, '/v1/messages/..%2Fbots/feedback', { body: { rating: 'down' } });
    assert.equal(badId.res.status, 403, JSON.stringify(badId.body));
  });
});
