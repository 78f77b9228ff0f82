// The HTTP core, end to end over a real in-memory PGlite: auth, envelope, headers, unknown routes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../src/index.ts';
import { createTestService } from './support/test-database.ts';

let service: Service;
let key: string;

before(async () => {
  service = await createTestService();
  key = (await service.createAccount()).apiKey;
});
after(() => service.close());

function call(path: string, init: RequestInit & { auth?: string | null } = {}) {
  const headers = new Headers(init.headers);
  const auth = init.auth === undefined ? key : init.auth;
  if (auth) headers.set('authorization', `Bearer ${auth}`);
  return service.fetch(new Request(`http://127.0.0.1${path}`, { ...init, headers }));
}

describe('http core', () => {
  it('answers 401 authentication_required without a key, with rate-limit headers', async () => {
    const res = await call('/v1/bots', { auth: null });
    assert.equal(res.status, 401);
    const body = await res.json();
    assert.equal(body.success, false);
    assert.equal(body.error.code, 'authentication_required');
    assert.ok(res.headers.get('x-ratelimit-limit'));
    assert.ok(res.headers.get('x-ratelimit-remaining'));
    assert.match(res.headers.get('x-ratelimit-reset') ?? '', /^\d{10}$/);
    assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
    assert.equal(res.headers.get('x-request-id'), body.error.request_id);
  });

  it('answers 401 invalid_api_key for an unknown key', async () => {
    const res = await call('/v1/bots', { auth: 'aicw_sk_not-a-real-key' });
    assert.equal(res.status, 401);
    assert.equal((await res.json()).error.code, 'invalid_api_key');
  });

  it('answers 404 route_not_found for an unknown route, with the envelope', async () => {
    const res = await call('/v1/nope');
    assert.equal(res.status, 404);
    assert.equal((await res.json()).error.code, 'route_not_found');
  });

  it('answers a clear error for another API version', async () => {
    const res = await call('/v2/chat', { method: 'POST' });
    assert.equal(res.status, 404);
    const body = await res.json();
    assert.equal(body.error.code, 'unsupported_version');
    assert.match(body.error.message, /v2.*\/v1/);
    assert.ok(res.headers.get('x-ratelimit-limit'));
  });

  it('rate-limits an account on its own plan and says when to retry', async () => {
    const small = await service.createAccount({ rateLimit: { points: 2, durationSeconds: 60 } });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 3; i++) {
      last = await call('/v1/nope', { auth: small.apiKey });
      statuses.push(last.status);
    }
    assert.deepEqual(statuses, [404, 404, 429]);
    const body = await last!.json();
    assert.equal(body.error.code, 'rate_limited');
    assert.equal(last!.headers.get('x-ratelimit-remaining'), '0');
    assert.ok(Number(last!.headers.get('retry-after')) >= 1);
  });
});

describe('configuration from the environment', () => {
  // Found by the soak bench: AI_CHAT_LOG_LEVEL=warn (not a level) logged every debug line.
  it('ignores an unknown AI_CHAT_LOG_LEVEL instead of logging everything', async () => {
    const { optionsFromEnv } = await import('../src/config.ts');
    assert.equal(optionsFromEnv({ AI_CHAT_LOG_LEVEL: 'warn' }).logLevel, undefined);
    assert.equal(optionsFromEnv({ AI_CHAT_LOG_LEVEL: 'debug' }).logLevel, 'debug');
    assert.equal(optionsFromEnv({}).logLevel, undefined);
  });
});
