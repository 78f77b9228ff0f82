// Canned replies on the real service: CRUD by API key and by a dashboard session, the shortcut's
// shape and uniqueness per account, the text's bound, and the account's limit of 500.
// PGlite by default; PostgreSQL + Redis with AI_CHAT_TEST_DATABASE_URL / AI_CHAT_TEST_REDIS_URL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Service } from '../src/index.ts';
import { MAX_CANNED_REPLIES } from '../src/canned-replies/schema.ts';
import { caller, type Caller } from './support/api.ts';
import { DashboardClient, uniqueEmail } from './support/dashboard.ts';
import { createTestService } from './support/test-database.ts';

let service: Service;
let call: Caller;

before(async () => {
  service = await createTestService();
  call = caller(service, (await service.createAccount({ rateLimit: { points: 100_000, durationSeconds: 60 } })).apiKey);
});
after(async () => service?.close());

describe('canned replies', () => {
  it('creates, lists by shortcut, updates and deletes', async () => {
    const refund = await call('/v1/canned-replies', { body: { shortcut: 'refund-policy', text: 'Refunds take 5 days.' } });
    assert.equal(refund.status, 201, JSON.stringify(refund.body));
    assert.match(refund.body.data.id, /^cnr_/);
    await call('/v1/canned-replies', { body: { shortcut: 'hello', text: 'Hi! How can I help?' } });
    const list = await call('/v1/canned-replies');
    assert.deepEqual(list.body.data.items.map((r: { shortcut: string }) => r.shortcut), ['hello', 'refund-policy']);

    const changed = await call(`/v1/canned-replies/${refund.body.data.id}`, { method: 'PATCH', body: { text: 'Refunds take 3 days.' } });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.data.text, 'Refunds take 3 days.');
    assert.equal(changed.body.data.shortcut, 'refund-policy');

    assert.equal((await call(`/v1/canned-replies/${refund.body.data.id}`, { method: 'DELETE' })).status, 200);
    const again = await call(`/v1/canned-replies/${refund.body.data.id}`, { method: 'DELETE' });
    assert.equal(again.status, 404);
    assert.equal(again.body.error.code, 'resource_not_found');
  });

  it('refuses a taken shortcut with 409, on create and on update', async () => {
    const first = await call('/v1/canned-replies', { body: { shortcut: 'taken', text: 'one' } });
    assert.equal(first.status, 201);
    const clash = await call('/v1/canned-replies', { body: { shortcut: 'taken', text: 'two' } });
    assert.equal(clash.status, 409);
    assert.equal(clash.body.error.code, 'conflict');
    assert.equal(clash.body.error.param, 'shortcut');
    const other = await call('/v1/canned-replies', { body: { shortcut: 'free', text: 'three' } });
    const renamed = await call(`/v1/canned-replies/${other.body.data.id}`, { method: 'PATCH', body: { shortcut: 'taken' } });
    assert.equal(renamed.status, 409);
    assert.equal(renamed.body.error.param, 'shortcut');
    // the same shortcut in another account is that account's own
    const elsewhere = caller(service, (await service.createAccount({})).apiKey);
    assert.equal((await elsewhere('/v1/canned-replies', { body: { shortcut: 'taken', text: 'mine' } })).status, 201);
  });

  it('validates the shortcut and the text in the envelope', async () => {
    for (const body of [
      { shortcut: 'Upper', text: 'x' },
      { shortcut: 'with space', text: 'x' },
      { shortcut: 'x'.repeat(33), text: 'x' },
      { shortcut: '', text: 'x' },
      { shortcut: 'ok', text: '' },
      { shortcut: 'ok', text: 'x'.repeat(4001) },
      { shortcut: 'ok' },
      { shortcut: 'ok', text: 'x', extra: 1 },
    ]) {
      const res = await call('/v1/canned-replies', { body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.success, false);
      assert.match(res.body.error.code, /^(validation_failed|unknown_parameter)$/);
    }
    assert.equal((await call('/v1/canned-replies', { body: { shortcut: 'a_b-9', text: 'x'.repeat(4000) } })).status, 201);
    const empty = await call('/v1/canned-replies/cnr_missing123456789', { method: 'PATCH', body: {} });
    assert.equal(empty.status, 400);
  });

  it('keeps at most 500 per account', async () => {
    const { accountId, apiKey } = await service.createAccount({ rateLimit: { points: 100_000, durationSeconds: 60 } });
    const full = caller(service, apiKey);
    // All but one stored directly: 499 requests would only test the rate of this machine.
    await sql`insert into canned_replies (id, account_id, shortcut, text)
      select 'cnr_fill' || lpad(i::text, 12, '0'), ${accountId}, 'fill-' || i, 'text' from generate_series(1, ${MAX_CANNED_REPLIES - 1}) i`.execute(service.deps.db);
    assert.equal((await full('/v1/canned-replies', { body: { shortcut: 'last', text: 'fits' } })).status, 201);
    const over = await full('/v1/canned-replies', { body: { shortcut: 'one-too-many', text: 'no' } });
    assert.equal(over.status, 409);
    assert.equal(over.body.error.code, 'conflict');
    assert.equal((await full('/v1/canned-replies')).body.data.items.length, MAX_CANNED_REPLIES);
  });

  it('is reachable with the dashboard session, the writes with its CSRF token', async () => {
    const operator = new DashboardClient(service);
    assert.equal((await operator.signUp(uniqueEmail('team'))).status, 201);
    const created = await operator.call('POST', '/dashboard/api/v1/canned-replies', { body: { shortcut: 'thanks', text: 'Thank you!' } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const listed = await operator.call('GET', '/dashboard/api/v1/canned-replies');
    assert.deepEqual(listed.body.data.items.map((r: { shortcut: string }) => r.shortcut), ['thanks']);
    const noCsrf = await operator.call('POST', '/dashboard/api/v1/canned-replies', { body: { shortcut: 'other', text: 'x' }, csrf: null });
    assert.equal(noCsrf.status, 403);
  });
});
