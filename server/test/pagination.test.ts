// Forged cursors on every list: always 400 `invalid_cursor` (param cursor), never a database error.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestClient } from './support/core.ts';

let api: TestClient;
let agentId: string;

before(async () => {
  api = await startTestService();
  agentId = (await api.json('/v1/agents', { method: 'POST', body: { name: 'Pager' } })).body.data.id;
});
after(() => api.service.close());

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

const forged = [
  b64({ at: 'not a time', id: 'bot_x' }),
  b64({ at: '1', id: 'x' }), // a "date" JavaScript accepts but PostgreSQL does not
  b64({ at: "2026-01-01 00:00:00+00'; drop table bots; --", id: 'x' }),
  b64({ c: '2026-01-01', i: 'x' }), // the right shape for no list
  b64({ c: 'garbage', i: 'x' }),
  b64({ seq: '1 or 1=1' }),
  b64('{"at": '),
  'not_base64_json',
];

describe('list cursors', () => {
  for (const path of ['/v1/bots', '/v1/knowledge', '/v1/agents', () => `/v1/agents/${agentId}/jobs`, '/v1/chat/history?user_id=u1']) {
    it(`rejects forged cursors on ${typeof path === 'string' ? path : 'agent jobs'}`, async () => {
      const base = typeof path === 'string' ? path : path();
      for (const cursor of forged) {
        const { res, body } = await api.json(`${base}${base.includes('?') ? '&' : '?'}cursor=${cursor}`);
        assert.equal(res.status, 400, `${base} ${cursor}: ${JSON.stringify(body)}`);
        assert.equal(body.error.code, 'invalid_cursor');
        assert.equal(body.error.param, 'cursor');
      }
    });
  }

  it('still pages with the cursors it hands out', async () => {
    for (const name of ['a', 'b', 'c']) await api.json('/v1/bots', { method: 'POST', body: { name } });
    const first = (await api.json('/v1/bots?limit=2')).body.data;
    assert.equal(first.items.length, 2);
    const second = (await api.json(`/v1/bots?limit=2&cursor=${first.next_cursor}`)).body.data;
    assert.deepEqual(second.items.map((b: { name: string }) => b.name), ['a']);
    assert.equal(second.has_more, false);
  });
});
