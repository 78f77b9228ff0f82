// The dashboard's session surface (/dashboard/api): sign-up policy and the first sign-up, sign-in
// with one answer for unknown emails and wrong passwords, scrypt hashes, server-side sessions in
// HttpOnly SameSite=Lax cookies rotated on sign-in, CSRF (Origin + token), sign-in rate limits,
// sign-out, password change, and the security headers of dashboard pages. All over the real service.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../src/index.ts';
import { withDashboardTables } from '../src/db/dashboard-schema.ts';
import { DashboardClient, ORIGIN, uniqueEmail } from './support/dashboard.ts';
import { createTestService, sharedServices, TEST_DATABASE_URL, TEST_REDIS_URL, type SharedServices } from './support/test-database.ts';

const PASSWORD = 'correct horse battery';

describe('dashboard sign-up, sign-in and sessions', () => {
  let service: Service;
  let owner: DashboardClient;
  let ownerEmail: string;

  before(async () => {
    service = await createTestService({ dashboard: { signup: 'invite' }, publicUrls: ['https://dash.example'] });
    owner = new DashboardClient(service);
    ownerEmail = uniqueEmail('owner');
  });
  after(() => service.close());

  it('tells the sign-up policy, and the first sign-up owns the existing account', async () => {
    const policy = await owner.call('GET', '/dashboard/api/signup');
    assert.deepEqual(policy.body.data, { policy: 'invite', install_claimed: false });

    const res = await owner.signUp(ownerEmail.toUpperCase()); // stored lower-cased
    assert.equal(res.status, 201);
    assert.equal(res.body.data.account.id, service.devAccountId);
    assert.equal(res.body.data.user.role, 'owner');
    assert.equal(res.body.data.user.email, ownerEmail);
    assert.match(res.body.data.csrf_token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal((await owner.call('GET', '/dashboard/api/signup')).body.data.install_claimed, true);
  });

  it('refuses a later sign-up without an invite under the invite policy', async () => {
    const res = await new DashboardClient(service).signUp(uniqueEmail());
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'signup_not_allowed');
    assert.equal(res.body.success, false);
  });

  it('refuses a taken email only to someone the policy lets in: nobody else learns who has an account', async () => {
    const taken = await new DashboardClient(service).signUp(ownerEmail);
    const fresh = await new DashboardClient(service).signUp(uniqueEmail());
    assert.equal(taken.status, 403);
    assert.deepEqual({ ...taken.body.error, request_id: null }, { ...fresh.body.error, request_id: null });

    const { token } = (await owner.call('POST', '/dashboard/api/invites', { body: {} })).body.data;
    const invited = await new DashboardClient(service).signUp(ownerEmail, PASSWORD, { invite: token });
    assert.equal(invited.status, 409);
    assert.equal(invited.body.error.code, 'conflict');
    const pending = (await owner.call('GET', '/dashboard/api/invites')).body.data.items;
    assert.equal(pending.length, 1, 'the invite is not used up by the refused sign-up');
    assert.equal((await owner.call('DELETE', `/dashboard/api/invites/${pending[0].id}`)).status, 200);
  });

  it('stores the password as an scrypt hash with its parameters (N=2^15, r=8, p=3), never the password', async () => {
    const row = await withDashboardTables(service.deps.db)
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', ownerEmail)
      .executeTakeFirstOrThrow();
    assert.match(row.password_hash, /^\$scrypt\$ln=15,r=8,p=3\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    assert.ok(!row.password_hash.includes(PASSWORD));
  });

  it('sets the session in an HttpOnly, SameSite=Lax cookie scoped to /dashboard, Secure only over HTTPS', async () => {
    const res = await owner.signIn(ownerEmail);
    assert.equal(res.status, 200);
    const cookie = res.setCookies.find((line) => line.startsWith('aicw_session='))!;
    assert.match(cookie, /; HttpOnly/);
    assert.match(cookie, /; SameSite=Lax/);
    assert.match(cookie, /; Path=\/dashboard/);
    assert.doesNotMatch(cookie, /; Secure/);

    const https = new DashboardClient(service);
    const secure = await https.call('POST', '/dashboard/api/signin', {
      base: 'https://dash.example',
      origin: 'https://dash.example',
      body: { email: ownerEmail, password: PASSWORD },
    });
    assert.equal(secure.status, 200);
    assert.match(secure.setCookies.find((line) => line.startsWith('aicw_session='))!, /; Secure/);
  });

  it('keeps sessions server-side: the database holds only a hash of the cookie secret', async () => {
    const rows = await withDashboardTables(service.deps.db).selectFrom('sessions').select('id').execute();
    const ids = rows.map((row) => row.id);
    assert.ok(!ids.includes(owner.cookie!));
    assert.ok(ids.includes(createHash('sha256').update(owner.cookie!).digest('hex')));
  });

  it('rotates the session id on sign-in: the old cookie stops working', async () => {
    const before = owner.cookie!;
    const res = await owner.signIn(ownerEmail);
    assert.equal(res.status, 200);
    assert.notEqual(owner.cookie, before);
    assert.equal((await owner.call('GET', '/dashboard/api/me', { cookie: before })).status, 401);
    const me = await owner.call('GET', '/dashboard/api/me');
    assert.equal(me.status, 200);
    assert.equal(me.body.data.user.email, ownerEmail);
  });

  it('answers an unknown email exactly like a wrong password (401 invalid_credentials)', async () => {
    const wrong = await new DashboardClient(service).signIn(ownerEmail, 'not the password');
    const unknown = await new DashboardClient(service).signIn(uniqueEmail('nobody'), 'not the password');
    assert.equal(wrong.status, 401);
    assert.equal(unknown.status, 401);
    assert.equal(wrong.body.error.code, 'invalid_credentials');
    assert.deepEqual({ ...unknown.body.error, request_id: null }, { ...wrong.body.error, request_id: null });
    assert.deepEqual(unknown.setCookies, []);
  });

  it('refuses cookie-authenticated writes without this Origin or without the CSRF token (403 csrf_failed)', async () => {
    const body = { label: 'csrf probe' };
    const cases = [
      { origin: null }, // no Origin at all
      { origin: 'https://evil.example' },
      { origin: 'http://127.0.0.1:9999' }, // another port is another origin
      { csrf: null },
      { csrf: 'A'.repeat(43) },
    ];
    for (const override of cases) {
      const res = await owner.call('POST', '/dashboard/api/keys', { body, ...override });
      assert.equal(res.status, 403, JSON.stringify(override));
      assert.equal(res.body.error.code, 'csrf_failed');
    }
    const keys = await owner.call('GET', '/dashboard/api/keys');
    assert.ok(!keys.body.data.items.some((key: { label: string }) => key.label === 'csrf probe'), 'nothing was created');
    const good = await owner.call('POST', '/dashboard/api/keys', { body });
    assert.equal(good.status, 201);
  });

  it('refuses sign-in from another origin (no login CSRF)', async () => {
    const res = await new DashboardClient(service).call('POST', '/dashboard/api/signin', {
      origin: 'https://evil.example',
      body: { email: ownerEmail, password: PASSWORD },
    });
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'csrf_failed');
    assert.deepEqual(res.setCookies, []);
  });

  it('answers 401 authentication_required without a session, with the envelope', async () => {
    const res = await new DashboardClient(service).call('GET', '/dashboard/api/keys');
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'authentication_required');
  });

  it('changes the password: the old one and every other session stop working', async () => {
    const other = new DashboardClient(service);
    assert.equal((await other.signIn(ownerEmail)).status, 200);

    const wrong = await owner.call('PUT', '/dashboard/api/me/password', {
      body: { current_password: 'not it at all', new_password: 'a brand new passphrase' },
    });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error.code, 'invalid_credentials');
    const weak = await owner.call('PUT', '/dashboard/api/me/password', { body: { current_password: PASSWORD, new_password: 'short' } });
    assert.equal(weak.status, 400);
    assert.equal(weak.body.error.code, 'validation_failed');

    const before = owner.cookie;
    const res = await owner.call('PUT', '/dashboard/api/me/password', {
      body: { current_password: PASSWORD, new_password: 'a brand new passphrase' },
    });
    assert.equal(res.status, 200);
    assert.notEqual(owner.cookie, before, 'the session is rotated');
    assert.equal((await owner.call('GET', '/dashboard/api/me')).status, 200);
    assert.equal((await other.call('GET', '/dashboard/api/me')).status, 401, 'other sessions ended');
    assert.equal((await new DashboardClient(service).signIn(ownerEmail)).status, 401, 'old password refused');
    assert.equal((await new DashboardClient(service).signIn(ownerEmail, 'a brand new passphrase')).status, 200);
  });

  it('signs out: the session ends and the cookie is cleared', async () => {
    const session = new DashboardClient(service);
    await session.signIn(ownerEmail, 'a brand new passphrase');
    const cookie = session.cookie;
    const res = await session.call('POST', '/dashboard/api/signout');
    assert.equal(res.status, 200);
    assert.equal(session.cookie, null);
    assert.equal((await session.call('GET', '/dashboard/api/me', { cookie })).status, 401);
  });

  it('serves dashboard pages and answers with a strict CSP, frame-ancestors none and no-store', async () => {
    for (const path of ['/dashboard/', '/dashboard/api/me', '/dashboard/api/nope']) {
      const res = await service.fetch(new Request(`${ORIGIN}${path}`));
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.match(csp, /frame-ancestors 'none'/, path);
      assert.match(csp, /default-src 'none'/, path);
      assert.match(csp, /script-src 'self'(;|$)/, path);
      assert.equal(res.headers.get('x-frame-options'), 'DENY', path);
      assert.equal(res.headers.get('cache-control'), 'no-store', path);
      assert.equal(res.headers.get('access-control-allow-origin'), null, path);
    }
    const page = await service.fetch(new Request(`${ORIGIN}/dashboard/`));
    assert.equal(page.status, 200);
    // The built UI or, without a build, the page saying to run it (dashboard-page.test.ts has both).
    assert.match(await page.text(), /<title>Dashboard · ai-chat-widget<\/title>/);
    const bare = await service.fetch(new Request(`${ORIGIN}/dashboard`));
    assert.equal(bare.status, 301);
    assert.equal(bare.headers.get('location'), '/dashboard/');
  });

  it('answers bad input with the envelope, never a 500', async () => {
    const client = new DashboardClient(service);
    const cases: [string, unknown, number, string][] = [
      ['/dashboard/api/signin', 'not json', 400, 'invalid_json'],
      ['/dashboard/api/signin', { email: ownerEmail }, 400, 'validation_failed'],
      ['/dashboard/api/signin', { email: ownerEmail, password: 'x', extra: 1 }, 400, 'unknown_parameter'],
      ['/dashboard/api/signup', { email: 'not-an-email', password: PASSWORD }, 400, 'validation_failed'],
      ['/dashboard/api/signup', { email: uniqueEmail(), password: 'x'.repeat(20 * 1024) }, 413, 'payload_too_large'],
    ];
    for (const [path, body, status, code] of cases) {
      const res = await client.call('POST', path, { body });
      assert.equal(res.status, status, `${path} ${JSON.stringify(body).slice(0, 60)}`);
      assert.equal(res.body.error.code, code);
    }
  });
});

describe('dashboard sign-in rate limits', () => {
  const services: Service[] = [];
  const withLimits = async (perAddress: number, perAccount: number) => {
    const service = await createTestService({
      dashboard: {
        signup: 'open',
        signInLimits: {
          perAddress: { points: perAddress, durationSeconds: 600 },
          perAccount: { points: perAccount, durationSeconds: 600 },
        },
      },
    });
    services.push(service);
    return service;
  };
  after(async () => {
    for (const service of services) await service.close();
  });

  it('limits attempts per email, the same for a known and an unknown one', async () => {
    const service = await withLimits(100, 2);
    const known = uniqueEmail('known');
    assert.equal((await new DashboardClient(service).signUp(known)).status, 201);
    for (const email of [known, uniqueEmail('unknown')]) {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await new DashboardClient(service).signIn(email, 'wrong password')).status);
      assert.deepEqual(statuses, [401, 401, 429], email);
    }
    // the right password does not get through either until the window ends
    const blocked = await new DashboardClient(service).signIn(known);
    assert.equal(blocked.status, 429);
    assert.equal(blocked.body.error.code, 'rate_limited');
    assert.ok(Number(blocked.headers.get('retry-after')) > 0);
    // another email from the same address still may
    assert.equal((await new DashboardClient(service).signIn(uniqueEmail('other'), 'wrong password')).status, 401);
  });

  it('limits attempts per client address across emails', async () => {
    const service = await withLimits(3, 100);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await new DashboardClient(service).signIn(uniqueEmail('spray'), 'password1234')).status);
    assert.deepEqual(statuses, [401, 401, 401, 429]);
  });
});

describe('the session cookie behind a TLS-terminating proxy', () => {
  for (const trustedProxies of [1, 0]) {
    it(trustedProxies ? 'is Secure when a trusted proxy says https' : 'ignores X-Forwarded-Proto without trusted proxies', async () => {
      const service = await createTestService({ trustedProxies });
      try {
        const client = new DashboardClient(service);
        // The proxy speaks plain HTTP to the service; the browser's origin is https://.
        const res = await client.call('POST', '/dashboard/api/signup', {
          origin: 'https://127.0.0.1',
          headers: { 'x-forwarded-proto': 'https' },
          body: { email: uniqueEmail(), password: PASSWORD },
        });
        if (trustedProxies) {
          assert.equal(res.status, 201);
          assert.match(res.setCookies.find((line) => line.startsWith('aicw_session='))!, /; Secure/);
        } else {
          // Untrusted, the header is ignored: the request is plain HTTP, so an https Origin is foreign.
          assert.equal(res.status, 403);
          assert.equal(res.body.error.code, 'csrf_failed');
        }
      } finally {
        await service.close();
      }
    });
  }
});

describe('sign-in limits across instances (PostgreSQL + Redis)', () => {
  const skip = TEST_DATABASE_URL && TEST_REDIS_URL ? false : 'needs AI_CHAT_TEST_DATABASE_URL and AI_CHAT_TEST_REDIS_URL';
  let shared: SharedServices | undefined;
  before(async () => {
    if (skip) return;
    const dashboard = { signInLimits: { perAddress: { points: 100, durationSeconds: 600 }, perAccount: { points: 3, durationSeconds: 600 } } };
    shared = await sharedServices(2, { dashboard });
  });
  after(() => shared?.close());

  it('counts one budget per email whichever instance answers', { skip }, async () => {
    const [a, b] = shared!.instances as [Service, Service];
    const email = uniqueEmail('target');
    const statuses = [];
    for (const service of [a, b, a, b]) statuses.push((await new DashboardClient(service).signIn(email, 'wrong password')).status);
    assert.deepEqual(statuses, [401, 401, 401, 429]);
  });
});
