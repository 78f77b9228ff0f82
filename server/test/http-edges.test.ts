// Edges of the HTTP layer found by attacking the service, each over a real loopback
// port: bodies with no length, unknown routes and methods, other API versions with a key, forged
// cursors, bodies nested 100,000 deep, one tenant's CORS origins, and bytes that are not UTF-8.
// Every answer is the JSON envelope with a stable code, never a 500.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../src/index.ts';
import { rawRequest, type RawRequest } from './support/raw-http.ts';
import { testDatabase, type TestDatabase } from './support/test-database.ts';

let database: TestDatabase;
let running: RunningServer;
let keyA: string;
let keyB: string;

before(async () => {
  database = await testDatabase();
  running = await startServer({ ...database.options, seed: false, logLevel: 'silent', corsOrigins: ['https://configured.example'] });
  keyA = (await running.service.createAccount({ name: 'A', rateLimit: { points: 100_000, durationSeconds: 60 } })).apiKey;
  keyB = (await running.service.createAccount({ name: 'B', rateLimit: { points: 100_000, durationSeconds: 60 } })).apiKey;
});
after(async () => {
  await running?.close();
  await database?.cleanup();
});

function send(path: string, options: RawRequest & { key?: string | null } = {}) {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? keyA : options.key;
  if (key) headers.authorization = `Bearer ${key}`;
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  return rawRequest(`${running.url}${path}`, { ...options, headers });
}

async function create(path: string, body: unknown, key = keyA): Promise<string> {
  const res = await send(path, { method: 'POST', body: JSON.stringify(body), key });
  assert.equal(res.status, 201, res.text);
  return res.json().data.id;
}

function assertError(res: { status: number; text: string; json(): any }, status: number, code: string) {
  assert.equal(res.status, status, res.text);
  const body = res.json();
  assert.equal(body.success, false);
  assert.equal(body.error.code, code, res.text);
  return body.error;
}

describe('requests without a body', () => {
  it('POST /v1/agents/{id}/train with no body and no Content-Length starts a job (202)', async () => {
    const agent = await create('/v1/agents', { name: 'Bodiless' });
    const res = await send(`/v1/agents/${agent}/train`, { method: 'POST', chunked: true });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.json().data.status, 'queued');
  });

  it('a method a path has no route for is 405 with Allow, body or not', async () => {
    for (const [method, path, allowed] of [
      ['DELETE', '/v1/openapi.json', 'GET'],
      ['DELETE', '/v1/chat', 'POST'],
      ['DELETE', '/v1/analytics/usage', 'GET'],
      ['PATCH', '/v1/bots', 'GET, POST'],
    ] as const) {
      for (const framing of [{}, { chunked: true }, { body: '{}' }]) {
        const res = await send(path, { method, ...framing });
        assertError(res, 405, 'method_not_allowed');
        assert.equal(res.headers.allow, allowed, `${method} ${path}`);
        assert.ok(res.headers['x-ratelimit-remaining']);
      }
    }
  });

  it('Allow lists every method the path really has', async () => {
    const bot = await create('/v1/bots', { name: 'Allow' });
    const res = await send(`/v1/bots/${bot}`, { method: 'PATCH', body: '{}' });
    assertError(res, 405, 'method_not_allowed');
    const allowed = String(res.headers.allow).split(', ');
    assert.ok(allowed.includes('GET') && allowed.includes('PUT'), String(res.headers.allow));
    assert.ok(!allowed.includes('PATCH'));
  });

  it('a chunked body over the limit is still 413', async () => {
    const res = await send('/v1/bots', { method: 'POST', chunked: true, body: JSON.stringify({ name: 'x'.repeat(600 * 1024) }) });
    assertError(res, 413, 'payload_too_large');
  });

  it('a chunked body within the limit reaches the handler whole', async () => {
    const res = await send('/v1/bots', { method: 'POST', chunked: true, body: JSON.stringify({ name: 'Chunked' }) });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.json().data.name, 'Chunked');
  });
});

describe('unknown routes under /v1', () => {
  it('answer the JSON envelope route_not_found with the rate-limit headers', async () => {
    const bot = await create('/v1/bots', { name: 'Routes' });
    for (const [method, path] of [
      ['GET', '/v1/no-such-endpoint'],
      ['GET', '/v1'],
      ['GET', '/v1/'],
      ['GET', '/v1/chat/'],
      ['POST', `/v1/bots/${bot}/nonsense`],
    ] as const) {
      const res = await send(path, { method, ...(method === 'POST' && { body: '{}' }) });
      assert.match(String(res.headers['content-type']), /^application\/json/, `${method} ${path}`);
      assertError(res, 404, 'route_not_found');
      assert.ok(res.headers['x-ratelimit-limit'], `${method} ${path}`);
      assert.ok(res.headers['x-request-id']);
    }
  });
});

describe('other API versions', () => {
  it('count a valid key against its own budget and report that budget', async () => {
    const { apiKey } = await running.service.createAccount({ name: 'v2', rateLimit: { points: 50, durationSeconds: 60 } });
    const first = await send('/v1/bots', { key: apiKey });
    assert.equal(first.headers['x-ratelimit-remaining'], '49');
    const v2 = await send('/v2/chat', { method: 'POST', body: '{}', key: apiKey });
    assertError(v2, 404, 'unsupported_version');
    assert.equal(v2.headers['x-ratelimit-limit'], '50');
    assert.equal(v2.headers['x-ratelimit-remaining'], '48');
  });

  it('still answer a caller without a key (per-IP budget) or with a bad one', async () => {
    assertError(await send('/v2/bots', { key: null }), 404, 'unsupported_version');
    assertError(await send('/v2/bots', { key: 'aicw_sk_bad' }), 404, 'unsupported_version');
  });
});

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('forged cursors', () => {
  it('with an impossible date or offset are 400 invalid_cursor on every keyset list', async () => {
    const agent = await create('/v1/agents', { name: 'Cursor' });
    for (const at of ['2026-13-45 99:99:99+00', '2026-01-01 00:00:00+99:99', '2026-02-30 10:00:00+00', '2026-01-01 24:00:00+00', '0000-01-01 00:00:00+00']) {
      for (const path of ['/v1/bots', '/v1/knowledge', '/v1/agents', `/v1/agents/${agent}/jobs`]) {
        const error = assertError(await send(`${path}?cursor=${b64({ at, id: 'bot_x' })}`), 400, 'invalid_cursor');
        assert.equal(error.param, 'cursor');
      }
    }
  });

  it('with a seq beyond bigint is 400 invalid_cursor on /v1/chat/history', async () => {
    for (const seq of ['9999999999999999999', '9223372036854775808']) {
      const error = assertError(await send(`/v1/chat/history?user_id=u1&cursor=${b64({ seq })}`), 400, 'invalid_cursor');
      assert.equal(error.param, 'cursor');
    }
    const largest = await send(`/v1/chat/history?user_id=u1&cursor=${b64({ seq: '9223372036854775807' })}`);
    assert.equal(largest.status, 200, largest.text);
  });

  it('the cursors the API hands out still page', async () => {
    for (const name of ['p1', 'p2', 'p3']) await create('/v1/bots', { name }, keyB);
    const first = (await send('/v1/bots?limit=2', { key: keyB })).json().data;
    const second = await send(`/v1/bots?limit=2&cursor=${first.next_cursor}`, { key: keyB });
    assert.equal(second.status, 200, second.text);
    assert.deepEqual(second.json().data.items.map((b: { name: string }) => b.name), ['p1']);
  });
});

describe('deeply nested bodies', () => {
  const nested = (depth: number) => `${'{"":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('100,000 levels are 400 json_too_deep on /v1/chat, /v1/bots and /v1/knowledge', async () => {
    for (const path of ['/v1/chat', '/v1/bots', '/v1/knowledge']) {
      for (const deep of [arrays(100_000), nested(100_000)]) {
        const body = `{"name":"n","title":"t","content":"c","messages":[{"role":"user","content":"hi"}],"metadata":${deep}}`;
        assertError(await send(path, { method: 'POST', body }), 400, 'json_too_deep');
      }
    }
  });

  it('brackets inside strings do not count, and ordinary depth passes validation as before', async () => {
    const res = await send('/v1/bots', { method: 'POST', body: JSON.stringify({ name: '['.repeat(5000) }) });
    assert.equal(res.status, 400, res.text); // too long a name: validation, not depth
    assert.equal(res.json().error.code, 'validation_failed');
    const unknown = await send('/v1/bots', { method: 'POST', body: `{"name":"n","metadata":${nested(60)}}` });
    assertError(unknown, 400, 'unknown_parameter');
  });
});

describe('CORS', () => {
  const EVIL = 'https://evil.example';
  let botOfB: string;
  let otherBotOfB: string;

  before(async () => {
    botOfB = await create('/v1/bots', { name: 'B site', channels: [{ type: 'website', allowed_origins: [EVIL] }] }, keyB);
    otherBotOfB = await create('/v1/bots', { name: 'B other' }, keyB);
  });

  it("a bot's origins never open another tenant's routes", async () => {
    for (const path of ['/v1/bots', '/v1/knowledge', '/v1/chat/history?user_id=u1']) {
      const res = await send(path, { headers: { origin: EVIL } });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers['access-control-allow-origin'], undefined, path);
    }
    const preflight = await send('/v1/bots', {
      method: 'OPTIONS',
      key: null,
      headers: { origin: EVIL, 'access-control-request-method': 'GET' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], undefined);
  });

  it("nor the same tenant's account-wide routes or other bots", async () => {
    assert.equal((await send('/v1/bots', { key: keyB, headers: { origin: EVIL } })).headers['access-control-allow-origin'], undefined);
    const other = await send(`/v1/bots/${otherBotOfB}`, { key: keyB, headers: { origin: EVIL } });
    assert.equal(other.headers['access-control-allow-origin'], undefined);
  });

  it("apply to that bot's own routes", async () => {
    const read = await send(`/v1/bots/${botOfB}`, { key: keyB, headers: { origin: EVIL } });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.headers['access-control-allow-origin'], EVIL);
    assert.match(String(read.headers['access-control-expose-headers']), /X-RateLimit-Remaining/i);
    const preflight = await send(`/v1/bots/${botOfB}/messages`, {
      method: 'OPTIONS',
      key: null,
      headers: { origin: EVIL, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], EVIL);
    assert.match(String(preflight.headers['access-control-allow-methods']), /POST/);
    const history = await send(`/v1/chat/history?user_id=u1&bot_id=${botOfB}`, { key: keyB, headers: { origin: EVIL } });
    assert.equal(history.headers['access-control-allow-origin'], EVIL);
  });

  it('configured origins apply everywhere; same-origin calls need no CORS', async () => {
    const res = await send('/v1/bots', { headers: { origin: 'https://configured.example' } });
    assert.equal(res.headers['access-control-allow-origin'], 'https://configured.example');
    const same = await send('/v1/bots', { headers: { origin: running.url } });
    assert.equal(same.headers['access-control-allow-origin'], undefined);
  });
});

describe('bodies that are not UTF-8', () => {
  it('are refused with 400 invalid_json (as the proxy does), not stored with U+FFFD', async () => {
    const prefix = Buffer.from('{"name":"bad ');
    const suffix = Buffer.from('"}');
    for (const bytes of [[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
      const body = new Uint8Array(Buffer.concat([prefix, Buffer.from(bytes), suffix]));
      for (const chunked of [false, true]) {
        const error = assertError(await send('/v1/bots', { method: 'POST', body, chunked, key: keyB }), 400, 'invalid_json');
        assert.match(error.message, /UTF-8/);
      }
    }
    const names = (await send('/v1/bots?limit=200', { key: keyB })).json().data.items.map((b: { name: string }) => b.name);
    assert.ok(!names.some((n: string) => n.startsWith('bad')), 'nothing was stored');
  });
});
