/// <reference types="node" />
// `npm start`'s demo proxy and AI_CHAT_PROXY_ORIGINS: a dev server on another port (Vite, Next) may
// use it once its origin is listed; other origins are still refused. Runs the real server
// (server/src/main.ts) as `npm start` does.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startDemoServer, type DemoServer } from '../../scripts/screenshots.js';

const DEV_SERVER = 'http://localhost:5173';
let server: DemoServer | undefined;

before(async () => {
  server = await startDemoServer({ extraEnv: { AI_CHAT_PROXY_ORIGINS: `${DEV_SERVER}, http://127.0.0.1:3000` } });
});
after(async () => {
  await server?.stop();
});

function tokenRequest(origin: string, method = 'POST'): Promise<Response> {
  const headers: Record<string, string> = { origin, 'content-type': 'application/json' };
  if (method === 'OPTIONS') {
    headers['access-control-request-method'] = 'POST';
    headers['access-control-request-headers'] = 'content-type';
  }
  return fetch(`${server!.url}/proxy/token`, { method, headers, body: method === 'POST' ? '{}' : undefined });
}

describe('demo proxy: AI_CHAT_PROXY_ORIGINS', () => {
  it('mints tokens for a listed dev-server origin, with CORS (credentials allowed) for it', async () => {
    const preflight = await tokenRequest(DEV_SERVER, 'OPTIONS');
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), DEV_SERVER);
    assert.equal(preflight.headers.get('access-control-allow-credentials'), 'true');
    const minted = await tokenRequest(DEV_SERVER);
    assert.equal(minted.status, 200);
    assert.equal(minted.headers.get('access-control-allow-origin'), DEV_SERVER);
    const { data } = (await minted.json()) as { data: { token: string; api_base: string } };
    assert.equal(data.api_base, '/proxy/v1', 'relative: the widget resolves it against token-url');
    // and the token works from that origin
    const chat = await fetch(`${server!.url}${data.api_base}/chat`, {
      method: 'POST',
      headers: { origin: DEV_SERVER, authorization: `Bearer ${data.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'hello' }] }),
    });
    assert.equal(chat.status, 200);
  });

  it('still refuses origins it does not list', async () => {
    const refused = await tokenRequest('http://localhost:5174');
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'origin_not_allowed');
  });
});
