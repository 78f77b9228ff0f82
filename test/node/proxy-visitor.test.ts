/**
 * The token proxy and a turn's `visitor` (docs/visitor-context.md), without a service: the policy's
 * body rewrite and the token's verified name and email. A browser never makes its own name
 * "verified"; a token whose `authorize()` gave a name and email puts them in place of the browser's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planForward } from '../../src/proxy/policy.js';
import { TokenService, type MintRequest, type TokenGrant } from '../../src/proxy/tokens.js';

const grant = (extra: Partial<TokenGrant> = {}): TokenGrant => ({
  userId: 'u1',
  botId: 'bot_visitorpolicy01',
  agentId: null,
  scopes: ['chat:write', 'chat:read', 'bot:message'],
  origin: null,
  tokenId: 't',
  expiresAt: Math.floor(Date.now() / 1000) + 600,
  ...extra,
});

const turnRoutes = ['/v1/chat', '/v1/bots/bot_visitorpolicy01/messages'];
const rewrite = (path: string, g: TokenGrant, body: Record<string, unknown>) => planForward('POST', path, new URLSearchParams(), g).rewriteBody(body);
const forged = { page_url: 'https://shop.example/a', name: 'Mallory', email: 'm@evil.example', verified: true };

describe('a turn\'s visitor through the token proxy', () => {
  it("drops the browser's verified and keeps the rest", () => {
    for (const path of turnRoutes) {
      const out = rewrite(path, grant(), { message: 'hi', visitor: forged });
      assert.deepEqual(out.visitor, { page_url: 'https://shop.example/a', name: 'Mallory', email: 'm@evil.example' }, path);
    }
  });

  it("puts the token's verified name and email in place of the browser's, even when it sent none", () => {
    for (const path of turnRoutes) {
      const verified = grant({ name: 'Alice', email: 'alice@corp.example' });
      assert.deepEqual(rewrite(path, verified, { visitor: forged }).visitor, { page_url: 'https://shop.example/a', name: 'Alice', email: 'alice@corp.example', verified: true }, path);
      assert.deepEqual(rewrite(path, verified, {}).visitor, { name: 'Alice', email: 'alice@corp.example', verified: true }, path);
      // only an email vouched for: the browser's name does not ride along as verified
      const emailOnly = rewrite(path, grant({ email: 'alice@corp.example' }), { visitor: forged }).visitor as Record<string, unknown>;
      assert.equal(emailOnly.name, undefined);
      assert.equal(emailOnly.verified, true);
    }
  });

  it('adds nothing to a turn without a visitor, and passes a malformed one on for the service to refuse', () => {
    assert.equal('visitor' in rewrite('/v1/chat', grant(), { messages: [] }), false);
    assert.equal(rewrite('/v1/chat', grant(), { visitor: 'https://x.example' }).visitor, 'https://x.example');
  });
});

describe("the token's verified name and email", () => {
  const tokens = new TokenService([new TextEncoder().encode('a-secret-of-at-least-32-bytes-for-tests')], 'iss', 'aud');

  it('travel in the token, and authorize().claims cannot set them', async () => {
    const base: MintRequest = { userId: 'u1', botId: null, agentId: null, scopes: [], origin: null, ttlSeconds: 60 };
    const signed = await tokens.mint({ ...base, name: 'Alice', email: 'alice@corp.example' });
    const read = await tokens.verify(signed.token);
    assert.equal(read.name, 'Alice');
    assert.equal(read.email, 'alice@corp.example');
    const claimed = await tokens.verify((await tokens.mint({ ...base, claims: { name: 'Mallory', email: 'm@evil.example' } })).token);
    assert.equal(claimed.name, undefined);
    assert.equal(claimed.email, undefined);
  });
});
