// DNS rebinding: a page on evil.test points its own name at the service's loopback address and
// calls it as same-origin (Host and Origin both evil.test). The service answers only loopback names
// and its configured public URLs; any other Host gets 421 host_not_allowed on every route, before
// anything else runs (an unclaimed install must not be claimable that way).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { optionsFromEnv, resolveConfig } from '../../../server/src/config.ts';
import { bindAddressNames, startServer, type RunningServer } from '../../../server/src/index.ts';
import { rawRequest } from '../../../server/test/support/raw-http.ts';
import { testDatabase, type TestDatabase } from '../../../server/test/support/test-database.ts';

const PASSWORD = 'correct horse battery';

describe('Host check (DNS rebinding)', () => {
  let database: TestDatabase;
  let running: RunningServer;
  let port: string;
  const send = (path: string, host: string, init: { method?: string; body?: unknown; origin?: string } = {}) =>
    rawRequest(`${running.url}${path}`, {
      method: init.method,
      headers: {
        host,
        ...(init.origin && { origin: init.origin }),
        ...(init.body !== undefined && { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });

  before(async () => {
    database = await testDatabase();
    running = await startServer({
      ...database.options,
      seed: false,
      logLevel: 'silent',
      publicUrls: ['https://chat.example.com', 'http://other.example:8080'],
      // stands for npm start's static pages and demo proxy: mounts must be guarded too
      mount: (app) => {
        app.get('/page.html', (c) => c.html('<p>demo</p>'));
      },
    });
    port = new URL(running.url).port;
  });
  after(async () => {
    await running?.close();
    await database?.cleanup();
  });

  it('refuses a rebinding page: sign-up and sign-in under a foreign Host answer 421 and claim nothing', async () => {
    const evil = `evil.test:${port}`;
    for (const path of ['/dashboard/api/signup', '/dashboard/api/signin']) {
      const res = await send(path, evil, { method: 'POST', origin: `http://${evil}`, body: { email: 'attacker@evil.test', password: PASSWORD } });
      assert.equal(res.status, 421, `${path}: ${res.text}`);
      const body = res.json();
      assert.equal(body.success, false);
      assert.equal(body.error.code, 'host_not_allowed');
      assert.ok(body.error.request_id);
      assert.equal(res.headers['set-cookie'], undefined);
    }
    const policy = (await send('/dashboard/api/signup', `127.0.0.1:${port}`)).json();
    assert.equal(policy.data.install_claimed, false);
  });

  it('answers 421 on every kind of route: API, dashboard page, static mount, unknown path', async () => {
    for (const path of ['/v1/openapi.json', '/v1/bots', '/dashboard/', '/page.html', '/nowhere', '/v2/bots']) {
      const res = await send(path, `evil.test:${port}`);
      assert.equal(res.status, 421, path);
      assert.equal(res.json().error.code, 'host_not_allowed', path);
    }
  });

  it('serves loopback names on any port and the public URLs by host and port', async () => {
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'localhost', 'app.localhost:1234', 'chat.example.com', 'CHAT.example.com', 'other.example:8080']) {
      assert.equal((await send('/page.html', host)).status, 200, host);
      assert.equal((await send('/v1/openapi.json', host)).status, 200, host);
    }
    for (const host of ['chat.example.com:8443', 'other.example', 'chat.example.com.evil.test', 'localhost.evil.test', '127.0.0.1.nip.io', '[::2]']) {
      assert.equal((await send('/page.html', host)).status, 421, host);
      assert.equal((await send('/v1/openapi.json', host)).status, 421, host);
    }
  });
});

describe('Host check configuration', () => {
  it('reads AI_CHAT_PUBLIC_URL as a comma-separated list and refuses a start with one that is not an http(s) URL', () => {
    assert.deepEqual(optionsFromEnv({ AI_CHAT_PUBLIC_URL: 'https://a.example, http://b.example:8080' }).publicUrls, [
      'https://a.example',
      'http://b.example:8080',
    ]);
    assert.throws(() => resolveConfig({ publicUrls: ['chat.example.com'] }), /AI_CHAT_PUBLIC_URL/);
    assert.throws(() => resolveConfig({ publicUrls: ['ftp://chat.example.com'] }), /AI_CHAT_PUBLIC_URL/);
  });

  it('bound beyond loopback without a public URL: serves the bind address besides loopback names, and warns', (t) => {
    const warn = t.mock.method(console, 'warn', () => {});
    assert.deepEqual(bindAddressNames('10.1.2.3', {}), ['10.1.2.3']);
    assert.deepEqual(bindAddressNames('fd00::5', {}), ['[fd00::5]']);
    assert.match(String(warn.mock.calls[0]!.arguments[0]), /AI_CHAT_PUBLIC_URL/);
    const wildcard = bindAddressNames('0.0.0.0', {});
    assert.ok(wildcard.includes('127.0.0.1'), wildcard.join(', ')); // every interface address of this machine
    assert.equal(warn.mock.callCount(), 3);

    assert.deepEqual(bindAddressNames('127.0.0.1', {}), []);
    assert.deepEqual(bindAddressNames('::1', {}), []);
    assert.deepEqual(bindAddressNames('10.1.2.3', { publicUrls: ['https://chat.example.com'] }), []);
    assert.deepEqual(bindAddressNames('10.1.2.3', { logLevel: 'silent' }), ['10.1.2.3']);
    assert.equal(warn.mock.callCount(), 3, 'no warning when loopback, configured or silent');
  });
});
