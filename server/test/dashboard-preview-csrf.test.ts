// The dashboard's bot preview is the real <ai-chat-widget>, which can send only one header of its
// own: `Authorization: Bearer <token>`. On the session passthrough /dashboard/api/v1 the session's
// CSRF token is accepted there as the CSRF proof of a write (the cookie stays the credential and the
// Origin check still runs); anywhere else, and with any other value, it is refused as before.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../src/index.ts';
import { DashboardClient, uniqueEmail } from './support/dashboard.ts';
import { createTestService } from './support/test-database.ts';

const V1 = '/dashboard/api/v1';

describe('the passthrough takes the CSRF token as a bearer token (the preview widget)', () => {
  let service: Service;
  let owner: DashboardClient;
  let botId: string;

  before(async () => {
    service = await createTestService({ dashboard: { signup: 'open' } });
    owner = new DashboardClient(service);
    assert.equal((await owner.signUp(uniqueEmail('preview'))).status, 201);
    const bot = await owner.call('POST', `${V1}/bots`, {
      body: { name: 'Preview', training: { intents: [{ name: 'hi', examples: ['hello', 'hi there'], responses: ['Hello!'] }] } },
    });
    assert.equal(bot.status, 201, JSON.stringify(bot.body));
    botId = bot.body.data.id;
  });
  after(() => service.close());

  const asWidget = (token: string, options: { origin?: string | null; cookie?: string | null } = {}) =>
    owner.call('POST', `${V1}/bots/${botId}/messages`, {
      body: { message: 'hello', user_id: 'dashboard-preview' },
      csrf: null,
      headers: { authorization: `Bearer ${token}` },
      ...options,
    });

  it('answers a bot message sent with Authorization: Bearer <csrf_token> and no X-CSRF-Token', async () => {
    const res = await asWidget(owner.csrf!);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.message.content, 'Hello!');
  });

  it('refuses another bearer value, a missing Origin, and a bearer without the session cookie', async () => {
    for (const [token, options, status, code] of [
      ['not-the-token', {}, 403, 'csrf_failed'],
      [owner.csrf!, { origin: null }, 403, 'csrf_failed'],
      [owner.csrf!, { origin: 'https://evil.example' }, 403, 'csrf_failed'],
      [owner.csrf!, { cookie: null }, 401, 'authentication_required'],
    ] as const) {
      const res = await asWidget(token, options);
      assert.deepEqual([res.status, res.body.error?.code], [status, code], JSON.stringify({ token, options }));
    }
    const conversations = await owner.call('GET', `${V1}/conversations?bot_id=${botId}`);
    assert.equal(conversations.body.data.items.length, 1, 'only the accepted message was stored');
  });

  it('is no CSRF proof outside the passthrough (the rest of /dashboard/api wants X-CSRF-Token)', async () => {
    const res = await owner.call('POST', '/dashboard/api/invites', { body: {}, csrf: null, headers: { authorization: `Bearer ${owner.csrf}` } });
    assert.deepEqual([res.status, res.body.error.code], [403, 'csrf_failed']);
  });
});
