// Deployments of the widget against the real service and real token proxies: a proxy on another
// origin with a login cookie, honest setup errors from a token URL, and a bot's own face (starters,
// welcome) through a token. The second origin is a real server on another loopback port
// (test/support/cross-origin.mjs); fetch is only observed here, never replaced.
import { expect, oneEvent } from '@open-wc/testing';
import type { AiChatWidget } from '../../src/element.js';
import { $, $$, clearWidgetStorage, faultBaseUrl, mount, uniqueKey, waitFor } from './helpers.js';

/** The second origin: `http://localhost:<other port>`, the same service behind token proxies. */
async function apiOrigin(): Promise<string> {
  return ((await (await fetch('/__test__/cross-origin')).json()) as { url: string }).url;
}

/** Signs `user` in on the API origin `api` (its login cookie; `sameSite: 'none'` sets `SameSite=None; Secure`). */
async function login(api: string, user: string, sameSite: 'lax' | 'none' = 'lax'): Promise<void> {
  const response = await fetch(`${api}/__test__/login?user=${user}&samesite=${sameSite}`, { method: 'POST', credentials: 'include' });
  expect(response.status).to.equal(204);
}

/** A widget whose token comes from the cookie-checking proxy on `api`, cookies included. */
function mountWithProxyOn(api: string, credentials: 'include' | null = 'include') {
  return mount({
    mode: 'inline',
    storage: 'none',
    'token-url': `${api}/proxy/token`,
    ...(credentials && { 'token-credentials': credentials }),
  });
}

/** Every URL the page fetches while `run` runs (the real fetch still does the work). */
async function observeFetches<T>(run: () => Promise<T>): Promise<{ result: T; urls: string[] }> {
  const urls: string[] = [];
  const original = window.fetch;
  window.fetch = (input, init) => {
    urls.push(new URL(String(input instanceof Request ? input.url : input), location.href).href);
    return original(input, init);
  };
  try {
    return { result: await run(), urls };
  } finally {
    window.fetch = original;
  }
}

/** The console warnings written while `run` runs. */
async function observeWarnings<T>(run: () => Promise<T>): Promise<{ result: T; warnings: string[] }> {
  const warnings: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => warnings.push(args.map(String).join(' '));
  try {
    return { result: await run(), warnings };
  } finally {
    console.warn = original;
  }
}

/** Sends `hello` and returns the `ai-chat-error` detail and the failed message's shown reason. */
async function failedSend(el: AiChatWidget) {
  const error = oneEvent(el, 'ai-chat-error');
  expect(await el.send('hello')).to.equal(null);
  const { detail } = await error;
  await el.updateComplete;
  return { detail, shown: $(el, '[part~="error"]').textContent!.replace(/\s+/g, ' ').trim() };
}

describe('deployments', () => {
  beforeEach(clearWidgetStorage);

  describe('a token proxy on another origin', () => {
    it('posts chat to the proxy (api_base resolves against token-url) with the login cookie sent', async () => {
      const api = await apiOrigin();
      expect(new URL(api).origin).to.not.equal(location.origin);
      const user = uniqueKey('user');
      await login(api, user);

      const { result: el, urls } = await observeFetches(async () => {
        const { el, ready } = await mountWithProxyOn(api);
        await ready;
        expect(await el.send('hello')).to.not.equal(null);
        return el;
      });
      expect(urls).to.include(`${api}/proxy/token`);
      expect(urls).to.include(`${api}/proxy/v1/chat`);
      expect(urls.filter((u) => new URL(u).origin === location.origin)).to.deep.equal([]);

      // the conversation belongs to the signed-in user: their token reads it (the proxy forces user_id)
      const grant = await fetch(`${api}/proxy/token`, {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      const { data } = (await grant.json()) as { data: { token: string; user_id: string } };
      expect(data.user_id).to.equal(user);
      const history = await fetch(`${api}/proxy/v1/chat/history?conversation_id=${el.conversationId}`, {
        headers: { authorization: `Bearer ${data.token}` },
      });
      const items = ((await history.json()) as { data: { items: Array<{ content: string }> } }).data.items;
      expect(items.map((m) => m.content)[0]).to.equal('hello');
      await fetch(`${api}/__test__/logout`, { method: 'POST', credentials: 'include' });
    });

    it('sends no cookie to another origin by default: unauthorized, and the console says token-credentials', async () => {
      const api = await apiOrigin();
      await login(api, uniqueKey('user'));
      const { el, ready } = await mountWithProxyOn(api, null);
      await ready;
      const { result, warnings } = await observeWarnings(() => failedSend(el));
      expect(result.detail).to.include({ code: 'unauthorized', status: 401 });
      expect(warnings.join('\n')).to.contain('token-credentials="include"');
      await fetch(`${api}/__test__/logout`, { method: 'POST', credentials: 'include' });
    });

    it('another site gets no cookie even with include and SameSite=None; Secure (third-party cookies are blocked)', async () => {
      const { cross_site_url: api } = (await (await fetch('/__test__/cross-origin')).json()) as { cross_site_url: string };
      await login(api, uniqueKey('user'), 'none');
      const { el, ready } = await mountWithProxyOn(api);
      await ready;
      const { detail } = await failedSend(el);
      expect(detail).to.include({ code: 'unauthorized', status: 401 }); // docs/proxy.md says what to do instead
    });
  });

  describe('honest setup errors from token-url', () => {
    it('404: token_endpoint_not_found, a setup sentence, and one console warning naming the fix', async () => {
      const tokenUrl = '/__test__/via-dev-server/no-proxy-here/token';
      const { el, ready } = await mount({ mode: 'inline', storage: 'none', 'token-url': tokenUrl });
      await ready;
      const { result, warnings } = await observeWarnings(async () => {
        const first = await failedSend(el);
        el.reset();
        await failedSend(el); // the same cause is told once
        return first;
      });
      expect(result.detail).to.include({ code: 'token_endpoint_not_found', status: 404, retryable: false });
      expect(result.shown).to.contain('The chat is not set up correctly on this page.');
      expect(result.shown).to.not.contain('session');
      expect(warnings).to.have.length(1);
      expect(warnings[0]).to.contain('no token proxy at that URL').and.contain('basePath');
    });

    it('403 origin_not_allowed (a dev server proxying to the demo proxy): its own code, the fix in the console', async () => {
      const { el, ready } = await mount({
        mode: 'inline',
        storage: 'none',
        'token-url': '/__test__/via-dev-server/strict-proxy/token',
      });
      await ready;
      const { result, warnings } = await observeWarnings(() => failedSend(el));
      expect(result.detail).to.include({ code: 'origin_not_allowed', status: 403 });
      expect(result.shown).to.contain('The chat is not set up correctly on this page.');
      expect(warnings.join('\n')).to.contain(`"${location.origin}"`).and.contain('allowedOrigins').and.contain('AI_CHAT_PROXY_ORIGINS');
    });

    it('no answer (another origin whose CORS refuses this page): token_endpoint_unreachable', async () => {
      const api = await apiOrigin();
      const { el, ready } = await mount({ mode: 'inline', storage: 'none', 'token-url': `${api}/strict-proxy/token` });
      await ready;
      const { result, warnings } = await observeWarnings(() => failedSend(el));
      expect(result.detail).to.include({ code: 'token_endpoint_unreachable', status: null, retryable: true });
      expect(result.shown).to.contain('The chat service cannot be reached.');
      expect(warnings.join('\n')).to.contain('could not be reached').and.contain('allowedOrigins');
    });

    it('a body that is no token (cut-off JSON): invalid_token_response', async () => {
      const { el, ready } = await mount({
        mode: 'inline',
        storage: 'none',
        'token-url': `${faultBaseUrl('malformed-json')}/token`,
      });
      await ready;
      const { result, warnings } = await observeWarnings(() => failedSend(el));
      expect(result.detail).to.include({ code: 'invalid_token_response', status: 200 });
      expect(result.shown).to.contain('The chat is not set up correctly on this page.');
      expect(warnings.join('\n')).to.contain('not the token proxy');
    });

    it('a refused session stays unauthorized (the visitor signed out)', async () => {
      const { el, ready } = await mount({
        mode: 'inline',
        storage: 'none',
        'token-url': '/__test__/via-dev-server/proxy/token', // cookie-checking proxy, no cookie: 401
      });
      await ready;
      const { detail, shown } = await failedSend(el);
      expect(detail).to.include({ code: 'unauthorized', status: 401 });
      expect(shown).to.contain('Your session has expired.');
    });
  });

  describe('bot-id with token-url', () => {
    async function demoBotId(): Promise<string> {
      const response = await fetch('/proxy/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      return ((await response.json()) as { data: { bot_id: string } }).data.bot_id;
    }

    it('shows the bot’s quick replies, loaded through the token', async () => {
      const botId = await demoBotId();
      const { el, ready } = await mount({ mode: 'inline', storage: 'none', 'bot-id': botId, 'token-url': '/proxy/token' });
      await ready;
      const starters = await waitFor(() => {
        const shown = $$(el, '[part~="suggestion"]').map((b) => b.textContent!.trim());
        return shown.length ? shown : null;
      }, 8000, 'the bot’s starters');
      expect(starters).to.include('How do I install it?');
    });

    it('the proxy answers the token’s own bot as a public profile only, and no other bot', async () => {
      const response = await fetch('/proxy/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      const { data } = (await response.json()) as { data: { token: string; bot_id: string } };
      const auth = { authorization: `Bearer ${data.token}` };
      const own = await fetch(`/proxy/v1/bots/${data.bot_id}`, { headers: auth });
      expect(own.status).to.equal(200);
      const bot = ((await own.json()) as { data: Record<string, unknown> }).data;
      // what visitors may attach is part of the public face: the widget's attach button
      expect(Object.keys(bot).sort()).to.deep.equal(['appearance', 'attachments', 'avatar_url', 'id', 'language', 'name', 'quick_replies']);
      const other = await fetch('/proxy/v1/bots/bot_someone_else', { headers: auth });
      expect(other.status).to.equal(403);
      const list = await fetch('/proxy/v1/bots', { headers: auth });
      expect(list.status).to.equal(403);
    });

    it('never starts blank: a localised welcome fills the empty panel until the first message', async () => {
      const botId = await demoBotId();
      const wrapper = document.createElement('div');
      wrapper.lang = 'de';
      document.body.append(wrapper);
      try {
        const { el, ready } = await mount({ mode: 'inline', storage: 'none', 'bot-id': botId, 'token-url': '/proxy/token' }, {}, wrapper);
        await ready;
        expect($(el, '[part~="welcome"]').textContent).to.contain('Hallo! Wie kann ich Ihnen helfen?');
        expect($$(el, '[part~="message"]')).to.have.length(0); // not a message: never sent, never counted
        expect(await el.send('hello')).to.not.equal(null);
        await el.updateComplete;
        expect($$(el, '[part~="welcome"]')).to.have.length(0);
        el.remove();

        const own = await mount({ mode: 'inline', storage: 'none', 'welcome-message': 'Moin!' }, {}, wrapper);
        expect($$(own.el, '[part~="welcome"]')).to.have.length(0);
        expect($(own.el, '[part~="message-assistant"]').textContent).to.contain('Moin!');
      } finally {
        wrapper.remove();
      }
    });
  });
});
