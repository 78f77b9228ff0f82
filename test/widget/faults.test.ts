// Network faults, widget side (resilience.test.ts has the basic retry, 429 and token cases): server
// errors, timeouts, refused connections, unreadable answers, a 429 storm, lost answers and going
// offline. For each: the message is never lost, a retry is stored once (same Idempotency-Key), the
// UI says what happened in the user's language, and nothing stays "sending".
import { expect } from '@open-wc/testing';
import type { AiChatWidget } from '../../src/element.js';
import { loadStrings } from '../../src/widget/locales/load-strings.js';
import { resolveStrings } from '../../src/widget/locales/strings.js';
import {
  $,
  baseUrl,
  clearWidgetStorage,
  countOf,
  createBot,
  faultBaseUrl,
  historyOf,
  mount,
  newApiKey,
  uniqueKey,
  waitFor,
} from './helpers.js';

const en = resolveStrings('en');
const de = await loadStrings('de'); // an add-on: a German page loads it, and so does this test

/** Records the time and Idempotency-Key of every POST the page makes (requests pass through). */
function spyPosts(): { posts: { at: number; key: string | null }[]; restore: () => void } {
  const original = window.fetch;
  const posts: { at: number; key: string | null }[] = [];
  window.fetch = (input, init) => {
    if (init?.method === 'POST') posts.push({ at: Date.now(), key: new Headers(init.headers).get('Idempotency-Key') });
    return original(input, init);
  };
  return { posts, restore: () => (window.fetch = original) };
}

/**
 * Records the page's timers of at least `minMs` from now on and tells which are still pending
 * (neither fired nor cleared): a widget that would send again on its own has one waiting.
 */
function trackTimers(minMs: number): { seen: () => number; pending: () => number[]; restore: () => void } {
  const pending = new Map<number, number>();
  let seen = 0;
  const { setTimeout: realSet, clearTimeout: realClear } = window;
  window.setTimeout = ((handler: TimerHandler, ms = 0, ...args: unknown[]) => {
    const id = realSet(() => {
      pending.delete(id);
      if (typeof handler === 'function') (handler as (...a: unknown[]) => void)(...args);
    }, ms);
    if (ms >= minMs) {
      pending.set(id, ms);
      seen++;
    }
    return id;
  }) as typeof window.setTimeout;
  window.clearTimeout = ((id?: number) => {
    if (id !== undefined) pending.delete(id);
    realClear(id);
  }) as typeof window.clearTimeout;
  return {
    seen: () => seen,
    pending: () => [...pending.values()],
    restore: () => Object.assign(window, { setTimeout: realSet, clearTimeout: realClear }),
  };
}

/** Fails unless no user message is "sending" within `ms`. */
async function expectSettledWithin(el: AiChatWidget, ms: number): Promise<void> {
  await waitFor(() => el.messages.every((m) => m.status !== 'sending'), ms, 'every message to leave "sending"');
  await el.updateComplete;
}

function errorLine(el: AiChatWidget): string {
  return $(el, '[part~="error"]').textContent!.replace(/\s+/g, ' ').trim();
}

/** Clicks Retry and waits for the reply. */
async function retryAndReceive(el: AiChatWidget): Promise<void> {
  $(el, '[part~="retry-button"]').click();
  await waitFor(() => el.messages.some((m) => m.role === 'assistant' && m.status === 'sent'), 8000, `the reply (${JSON.stringify(el.messages)})`);
  await expectSettledWithin(el, 1000);
}

/** The stored user messages of the widget's conversation: each must be there exactly once. */
async function expectStoredOnce(apiKey: string, el: AiChatWidget, texts: string[]): Promise<void> {
  const stored = await historyOf(apiKey, { conversation_id: el.conversationId! });
  expect(stored.filter((m) => m.role === 'user').map((m) => m.content)).to.deep.equal(texts);
}

interface Case {
  name: string;
  /** Fault chain for the first `attempts` requests; later ones reach the service. */
  fault: string;
  /** Requests the client makes before giving up (1 when it does not retry). */
  attempts: number;
  attrs?: Record<string, string | boolean>;
  text: (s: typeof en) => string;
}

const CASES: Case[] = [

  { name: '500', fault: 'status/500', attempts: 1, text: (s) => s.errorServer },
  { name: '502', fault: 'status/502', attempts: 3, text: (s) => s.errorServer },
  { name: '503', fault: 'status/503', attempts: 3, text: (s) => s.errorServer },
  { name: 'an HTML error page', fault: 'html', attempts: 3, text: (s) => s.errorServer },
  { name: 'malformed JSON', fault: 'malformed-json', attempts: 1, text: (s) => s.errorGeneric },
  { name: 'an envelope without data', fault: 'no-data', attempts: 1, text: (s) => s.errorGeneric },
  { name: 'a connection cut mid-answer', fault: 'cut', attempts: 3, text: (s) => s.errorNetwork },
  { name: 'a hanging server', fault: 'hang', attempts: 3, attrs: { timeout: '300' }, text: (s) => s.errorTimeout },
  { name: 'a stalled stream', fault: 'sse-stall', attempts: 1, attrs: { timeout: '400', stream: true }, text: (s) => s.errorTimeout },
];

describe('<ai-chat-widget> network faults', () => {
  beforeEach(clearWidgetStorage);

  for (const c of CASES) {
    for (const lang of ['en', 'de'] as const) {
      it(`${c.name} (${lang}): keeps the message, says so, and a retry is stored once`, async function () {
        this.timeout(20_000);
        const strings = lang === 'de' ? de : en;
        const apiKey = await newApiKey();
        const key = uniqueKey(c.name.replace(/\W+/g, '-'));
        const { el, ready } = await mount({
          mode: 'inline',
          lang,
          'base-url': faultBaseUrl(`flaky/${c.attempts}/${key}/${c.fault}`),
          'api-key': apiKey,
          ...c.attrs,
        });
        await ready;
        const spy = spyPosts();
        try {
          const started = Date.now();
          const sent = el.send('keep this message');
          await expectSettledWithin(el, 8000);
          expect(await sent).to.equal(null);
          expect(Date.now() - started).to.be.below(8000);
          expect(el.messages).to.have.length(1);
          expect(el.messages[0]).to.include({ role: 'user', content: 'keep this message', status: 'failed' });
          expect(errorLine(el)).to.equal(`${strings.notSent} ${c.text(strings)} ${strings.retry}`);
          expect(await countOf(key)).to.equal(c.attempts);

          await retryAndReceive(el);
          expect(el.messages.map((m) => [m.role, m.status])).to.deep.equal([
            ['user', 'sent'],
            ['assistant', 'sent'],
          ]);
          expect(new Set(spy.posts.map((p) => p.key))).to.deep.equal(new Set([el.messages[0].id]));
        } finally {
          spy.restore();
        }
        await expectStoredOnce(apiKey, el, ['keep this message']);
        expect(await countOf(key)).to.equal(c.attempts + 1);
      });
    }
  }

  it('a refused connection fails as "no connection" (de) and keeps the message for later', async function () {
    this.timeout(15_000);
    const { el, ready } = await mount({ mode: 'inline', lang: 'de', 'base-url': 'http://127.0.0.1:1/v1', 'api-key': 'k' });
    await ready;
    const sent = el.send('niemals verlieren');
    await expectSettledWithin(el, 8000);
    expect(await sent).to.equal(null);
    expect(el.messages[0]).to.include({ content: 'niemals verlieren', status: 'failed' });
    expect(el.messages[0].error!.code).to.equal('network_error');
    expect(errorLine(el)).to.equal(`${de.notSent} ${de.errorNetwork} ${de.retry}`);
    const stored = JSON.stringify({ ...localStorage });
    expect(stored).to.contain('niemals verlieren');
  });

  for (const mode of ['chat', 'bot'] as const) {
    it(`an answer lost after the server stored it (${mode}) is fetched again, never stored twice`, async function () {
      this.timeout(15_000);
      const apiKey = await newApiKey();
      const botId = mode === 'bot' ? await createBot(apiKey) : '';
      const key = uniqueKey('lost');
      // getToken rather than api-key: the widget then loads no starters, so the one lost answer is the send's
      const { el, ready } = await mount(
        { mode: 'inline', 'base-url': faultBaseUrl(`flaky/1/${key}/lost`), ...(botId && { 'bot-id': botId }) },
        { getToken: async () => apiKey },
      );
      await ready;
      const spy = spyPosts();
      try {
        expect(await el.send('hello')).to.not.equal(null);
        expect(spy.posts.map((p) => p.key)).to.deep.equal([el.messages[0].id, el.messages[0].id]);
      } finally {
        spy.restore();
      }
      expect(el.messages.map((m) => [m.role, m.status])).to.deep.equal([
        ['user', 'sent'],
        ['assistant', 'sent'],
      ]);
      await expectStoredOnce(apiKey, el, ['hello']);
      expect(await countOf(key)).to.equal(2);
    });
  }

  it('a 429 storm: waits out every refusal, never hammers, and then sends once', async function () {
    this.timeout(20_000);
    const apiKey = await newApiKey();
    const key = uniqueKey('storm');
    const refusals = 4;
    const { el, ready } = await mount({
      mode: 'inline',
      lang: 'de',
      'base-url': faultBaseUrl(`flaky/${refusals}/${key}/status/429/1`),
      'api-key': apiKey,
    });
    await ready;
    const spy = spyPosts();
    try {
      const reply = el.send('geduldig');
      await waitFor(() => /\d s/.test($(el, '[part~="status"]').textContent ?? ''), 3000, 'the countdown');
      expect($(el, '[part~="status"]').textContent).to.match(/Zu viele Nachrichten\. Senden in \d s/);
      expect(el.messages[0].status).to.equal('sending');
      expect(await reply).to.not.equal(null);
      const gaps = spy.posts.slice(1).map((p, i) => p.at - spy.posts[i].at);
      expect(spy.posts).to.have.length(refusals + 1);
      for (const gap of gaps) expect(gap).to.be.at.least(900);
      expect(new Set(spy.posts.map((p) => p.key)).size).to.equal(1);
    } finally {
      spy.restore();
    }
    expect(await countOf(key)).to.equal(refusals + 1);
    await expectStoredOnce(apiKey, el, ['geduldig']);
    await el.updateComplete;
    expect($(el, '[part~="status"]').textContent!.trim()).to.equal('');
  });

  describe('offline', () => {
    afterEach(() => window.dispatchEvent(new Event('online')));

    it('while offline, fails at once without a request and says so; back online, sends it once', async () => {
      const apiKey = await newApiKey();
      const key = uniqueKey('offline');
      const { el, ready } = await mount({ mode: 'inline', lang: 'de', 'base-url': faultBaseUrl(`count/${key}`), 'api-key': apiKey });
      await ready;
      window.dispatchEvent(new Event('offline'));
      await el.updateComplete;
      expect($(el, '[part~="status"]').textContent!.trim()).to.equal(de.offline);
      expect(await el.send('später senden')).to.equal(null);
      await el.updateComplete;
      expect(el.messages[0]).to.include({ content: 'später senden', status: 'failed' });
      expect(errorLine(el)).to.equal(`${de.notSent} ${de.errorNetwork} ${de.retry}`);
      expect(await countOf(key)).to.equal(0);

      window.dispatchEvent(new Event('online'));
      await waitFor(() => el.messages.some((m) => m.role === 'assistant' && m.status === 'sent'), 8000, 'the reply');
      await expectSettledWithin(el, 1000);
      expect($(el, '[part~="status"]').textContent!.trim()).to.equal('');
      expect(await countOf(key)).to.equal(1);
      await expectStoredOnce(apiKey, el, ['später senden']);
    });

    it('back online, resends network failures once each, and leaves server refusals to the user', async function () {
      this.timeout(20_000);
      const apiKey = await newApiKey();
      const key = uniqueKey('outage');
      // six cut answers: the first send (3 attempts) and the first resend (3 attempts) both fail
      const { el, ready } = await mount({ mode: 'inline', 'base-url': faultBaseUrl(`flaky/6/${key}/cut`), 'api-key': apiKey });
      await ready;
      expect(await el.send('through the outage')).to.equal(null);
      expect(await countOf(key)).to.equal(3);

      const timers = trackTimers(100);
      try {
        window.dispatchEvent(new Event('online'));
        await waitFor(() => el.messages[0].status === 'sending', 1000, 'the resend');
        await expectSettledWithin(el, 8000);
        expect(el.messages[0].status).to.equal('failed');
        // no loop of its own: nothing is scheduled to send again; it waits for the next `online`
        expect(timers.seen(), 'the resend backed off through the tracked timers').to.be.greaterThan(0);
        expect(timers.pending(), 'timers still pending after the failure').to.deep.equal([]);
      } finally {
        timers.restore();
      }
      expect(await countOf(key)).to.equal(6);

      window.dispatchEvent(new Event('online'));
      await waitFor(() => el.messages.some((m) => m.role === 'assistant'), 8000, 'the reply');
      await expectSettledWithin(el, 1000);
      expect(await countOf(key)).to.equal(7);
      await expectStoredOnce(apiKey, el, ['through the outage']);
    });

    it('does not resend a message the server refused', async () => {
      const apiKey = await newApiKey();
      const key = uniqueKey('refused');
      const { el, ready } = await mount({ mode: 'inline', 'base-url': faultBaseUrl(`flaky/1/${key}/status/500`), 'api-key': apiKey });
      await ready;
      expect(await el.send('refused once')).to.equal(null);
      // The `online` handler picks what to resend at once (a resent message is `sending` on return).
      window.dispatchEvent(new Event('online'));
      await el.updateComplete;
      expect(el.messages[0].status).to.equal('failed');
      expect(await countOf(key)).to.equal(1);
    });
  });

  it('the timeout attribute reaches the client: a slow answer within it succeeds', async function () {
    this.timeout(10_000);
    const apiKey = await newApiKey();
    const { el, ready } = await mount({ mode: 'inline', timeout: '2000', 'base-url': faultBaseUrl('slow/300'), 'api-key': apiKey });
    await ready;
    expect(el.timeout).to.equal(2000);
    expect(await el.send('slow but fine')).to.not.equal(null);
  });
});
