// Failure paths against the real service and the fault routes: retry without duplicates, rate
// limits, token renewal, and hostile bot replies.
import { expect, oneEvent } from '@open-wc/testing';
import type { AiChatErrorEvent } from '../../src/element.js';
import { WidgetStorage } from '../../src/widget/conversation/storage.js';
import {
  $,
  $$,
  baseUrl,
  clearWidgetStorage,
  countOf,
  createBot,
  faultBaseUrl,
  historyOf,
  mount,
  newApiKey,
  uniqueKey,
} from './helpers.js';

/** Records the Idempotency-Key of every POST the page makes (requests pass through untouched). */
function spyIdempotencyKeys(): { keys: (string | null)[]; restore: () => void } {
  const original = window.fetch;
  const keys: (string | null)[] = [];
  window.fetch = (input, init) => {
    if (init?.method === 'POST') keys.push(new Headers(init.headers).get('Idempotency-Key'));
    return original(input, init);
  };
  return { keys, restore: () => (window.fetch = original) };
}

describe('<ai-chat-widget> resilience', () => {
  beforeEach(clearWidgetStorage);

  describe('retry', () => {
    it('keeps a failed message and retries it with the same Idempotency-Key, stored once', async () => {
      const apiKey = await newApiKey();
      const key = uniqueKey('retry');
      const { el, ready } = await mount({
        mode: 'inline',
        'base-url': faultBaseUrl(`flaky/1/${key}/status/500`),
        'api-key': apiKey,
      });
      await ready;
      const spy = spyIdempotencyKeys();
      try {
        expect(await el.send('please keep me')).to.equal(null);
        await el.updateComplete;
        const failed = el.messages[0];
        expect(failed).to.include({ content: 'please keep me', status: 'failed' });

        const received = oneEvent(el, 'ai-chat-message-received');
        $(el, '[part~="retry-button"]').click();
        await received;
        await el.updateComplete;
        expect(el.messages.map((m) => [m.role, m.status])).to.deep.equal([
          ['user', 'sent'],
          ['assistant', 'sent'],
        ]);
        expect(el.messages[0].id).to.equal(failed.id);
        expect(spy.keys).to.deep.equal([failed.id, failed.id]);
        expect(el.shadowRoot!.querySelector('[part~="retry-button"]')).to.equal(null);
      } finally {
        spy.restore();
      }
      const stored = await historyOf(apiKey, { conversation_id: el.conversationId! });
      expect(stored.filter((m) => m.role === 'user')).to.have.length(1);
      expect(await countOf(key)).to.equal(2);
    });

    it('retries a failed bot message without storing it twice', async () => {
      const apiKey = await newApiKey();
      const botId = await createBot(apiKey);
      const key = uniqueKey('retry-bot');
      // two failures: the starters request and the first send, in whichever order they arrive
      const { el, ready } = await mount({
        mode: 'inline',
        'base-url': faultBaseUrl(`flaky/2/${key}/status/500`),
        'api-key': apiKey,
        'bot-id': botId,
      });
      await ready;
      expect(await el.send('hello')).to.equal(null);
      await el.updateComplete;
      const received = oneEvent(el, 'ai-chat-message-received');
      $(el, '[part~="retry-button"]').click();
      expect((await received).detail.message.content).to.equal('Hello! How can I **help** you today?');
      const stored = await historyOf(apiKey, { conversation_id: el.conversationId! });
      expect(stored.map((m) => m.content)).to.deep.equal(['hello', 'Hello! How can I **help** you today?']);
      expect(await countOf(key)).to.equal(3);
    });
  });

  describe('rate limits', () => {
    it('on 429 shows a countdown, disables sending, and sends the queued message when it ends', async () => {
      const apiKey = await newApiKey();
      const key = uniqueKey('429');
      const { el, ready } = await mount({
        mode: 'inline',
        'base-url': faultBaseUrl(`flaky/1/${key}/status/429/2`),
        'api-key': apiKey,
      });
      await ready;
      const limited = oneEvent(el, 'ai-chat-rate-limit');
      const started = Date.now();
      const reply = el.send('hello');
      const { detail } = await limited;
      expect(detail.remaining).to.equal(0);
      expect(detail.retryAt.getTime()).to.be.greaterThan(Date.now() + 500);
      await el.updateComplete;
      expect($(el, '[part~="status"]').textContent).to.match(/Sending in [123] s/);
      expect(el.messages[0].status).to.equal('sending');
      expect($<HTMLButtonElement>(el, '[part~="send-button"]').disabled).to.equal(true);

      expect(await reply).to.not.equal(null);
      expect(Date.now() - started).to.be.greaterThan(1500);
      expect(await countOf(key)).to.equal(2); // one refusal, one send: no hammering
      await el.updateComplete;
      expect($(el, '[part~="status"]').textContent!.trim()).to.equal('');
    });

    it('waits out an exhausted window of a real account instead of hammering it', async () => {
      const apiKey = await newApiKey({ points: 2, duration_seconds: 3 });
      const key = uniqueKey('window');
      const { el, ready } = await mount({
        mode: 'inline',
        'base-url': faultBaseUrl(`count/${key}`),
        'api-key': apiKey,
      });
      await ready;
      await el.send('one');
      await el.send('two');
      const limited = oneEvent(el, 'ai-chat-rate-limit');
      const third = el.send('three');
      await limited;
      await el.updateComplete;
      expect($(el, '[part~="status"]').textContent).to.match(/Sending in \d s/);
      expect(await third).to.not.equal(null);
      expect(el.messages.filter((m) => m.status === 'sent')).to.have.length(6);
      expect(await countOf(key)).to.be.at.most(4);
    });
  });

  describe('tokens', () => {
    it('asks getToken again once after a 401 and replays the request', async () => {
      const apiKey = await newApiKey();
      const reasons: string[] = [];
      const getToken = async ({ reason }: { reason: string }) => {
        reasons.push(reason);
        return reasons.length === 1 ? 'not-a-valid-token' : apiKey;
      };
      const { el, ready } = await mount({ mode: 'inline', 'base-url': baseUrl }, { getToken });
      await ready;
      let errors = 0;
      el.addEventListener('ai-chat-error', () => errors++);
      expect(await el.send('hello')).to.not.equal(null);
      expect(reasons).to.deep.equal(['initial', 'unauthorized']);
      expect(errors).to.equal(0);
    });

    it('reports unauthorized when the renewed token is refused too', async () => {
      const { el, ready } = await mount({ mode: 'inline', 'base-url': baseUrl }, { getToken: async () => 'bad' });
      await ready;
      const error = oneEvent(el, 'ai-chat-error');
      expect(await el.send('hello')).to.equal(null);
      expect((await error).detail).to.include({ code: 'unauthorized', status: 401 });
      expect(el.messages[0].status).to.equal('failed');
    });

    it('reports token_expired when renewing the token fails', async () => {
      const getToken = async ({ reason }: { reason: string }) => {
        if (reason === 'unauthorized') throw new Error('session over');
        return 'expired-token';
      };
      const { el, ready } = await mount({ mode: 'inline', 'base-url': baseUrl }, { getToken });
      await ready;
      const error = oneEvent(el, 'ai-chat-error');
      await el.send('hello');
      expect((await error).detail).to.include({ code: 'token_expired', status: null });
    });

    it('reports unauthorized when the token-url refuses, keeping the message for retry', async () => {
      const tokenUrl = `${faultBaseUrl('status/403')}/token`;
      const { el, ready } = await mount({ mode: 'inline', 'base-url': baseUrl, 'token-url': tokenUrl });
      await ready;
      const error = oneEvent(el, 'ai-chat-error');
      expect(await el.send('hello')).to.equal(null);
      expect((await error).detail).to.include({ code: 'unauthorized', status: 403 });
      expect(el.messages[0]).to.include({ content: 'hello', status: 'failed' });
    });

    it('talks through the token proxy with a token from token-url', async function () {
      const probe = await fetch('/proxy/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      if (probe.status === 404) this.skip(); // the proxy is not mounted in this dev server
      const urls: string[] = [];
      const original = window.fetch;
      window.fetch = (input, init) => {
        urls.push(String(input instanceof Request ? input.url : input));
        return original(input, init);
      };
      try {
        const { el, ready } = await mount({ mode: 'inline', 'token-url': '/proxy/token' });
        await ready;
        expect(await el.send('hello')).to.not.equal(null);
      } finally {
        window.fetch = original;
      }
      expect(urls[0]).to.contain('/proxy/token');
      expect(urls.some((u) => new URL(u, location.href).pathname.endsWith('/v1/chat'))).to.equal(true);
    });
  });

  describe('hostile replies', () => {
    it('renders HTML and javascript: links from the bot as text', async () => {
      const win = window as unknown as { __xssTripwire: number };
      win.__xssTripwire = 0;
      const apiKey = await newApiKey();
      const botId = await createBot(apiKey, {
        training: {
          intents: [
            {
              name: 'attack',
              examples: ['show me the attack', 'attack please', 'run the attack'],
              responses: [
                '<img src=x onerror="window.__xssTripwire=1"><script>window.__xssTripwire=2</script> ' +
                  '[click me](javascript:window.__xssTripwire=3) and [docs](https://example.com/docs)',
              ],
            },
            {
              name: 'greeting',
              examples: ['hello', 'hi there', 'good morning'],
              responses: ['Hello!'],
            },
          ],
        },
      });
      const { el, ready } = await mount({ mode: 'inline', 'base-url': baseUrl, 'api-key': apiKey, 'bot-id': botId });
      await ready;
      const reply = await el.send('show me the attack');
      expect(reply!.content).to.contain('<img src=x');
      await el.updateComplete;
      await new Promise((r) => setTimeout(r, 100)); // an injected onerror would have fired by now
      const bubble = $$(el, '[part~="message-assistant"] [part~="bubble"]').at(-1)!;
      expect(bubble.querySelector('img, script')).to.equal(null);
      expect(bubble.textContent).to.contain('<img src=x onerror=');
      const links = [...bubble.querySelectorAll('a')];
      expect(links.map((a) => a.getAttribute('href'))).to.deep.equal(['https://example.com/docs']);
      expect(bubble.textContent).to.contain('click me');
      expect(win.__xssTripwire).to.equal(0);
    });
  });

  describe('history errors', () => {
    it('keeps the stored transcript and reports the error when history cannot load', async () => {
      const base = faultBaseUrl('status/503');
      new WidgetStorage('local', `${base}||h`).saveConversation('u1', {
        v: 1,
        conversationId: 'conv_stored',
        messages: [
          { id: 'm_1', role: 'user', content: 'kept locally', time: new Date().toISOString(), status: 'sent' },
        ],
      });
      const error = new Promise<AiChatErrorEvent>((resolve) =>
        document.addEventListener('ai-chat-error', resolve, { once: true }),
      );
      const { el, ready } = await mount({ id: 'h', mode: 'inline', 'base-url': base, 'api-key': 'k', 'user-id': 'u1' });
      expect(el.messages.map((m) => m.content)).to.deep.equal(['kept locally']);
      expect((await error).detail).to.include({ code: 'service_unavailable', status: 503, retryable: true });
      expect((await ready).detail.messageCount).to.equal(1);
      expect(el.messages.map((m) => m.content)).to.deep.equal(['kept locally']);
    });
  });
});
