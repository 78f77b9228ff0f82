// The XSS corpus (xss-payloads.ts) through every way text reaches the widget: the markdown renderer
// itself, host attributes, text the user types, bot replies and their suggestions, knowledge
// entries (answer text, citations and title suggestions), bot names and quick replies. Each check:
// nothing ran (tripwire), nothing but the widget's own elements and safe links is in the shadow
// root, and the payload's visible part still reads.
import { expect } from '@open-wc/testing';
import { render } from 'lit';
import type { AiChatWidget } from '../../src/element.js';
import { MESSAGE_LIMIT } from '../../src/widget/composer/input-limit.js';
import { renderMarkdown } from '../../src/widget/markdown/markdown.js';
import { $, $$, baseUrl, clearWidgetStorage, mount, newApiKey, typeText, waitFor } from '../widget/helpers.js';
import { PAYLOADS, makeTags } from './xss-payloads.js';
import { expectSafeDom, expectSafeWidget, installTripwire, pwnedCount, settleEvents } from './xss-support.js';

const TAGS = makeTags(PAYLOADS.length);
const CASES = PAYLOADS.map((p, i) => ({ name: p.name, tag: TAGS[i], text: p.make(TAGS[i]) }));
const ROOMY_LIMITS = { points: 100_000, duration_seconds: 60 };

/** The case's text cut to a channel's length limit (the tag stays: it is within the first 90 chars). */
function fit(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max);
}

async function post(apiKey: string, path: string, body: unknown): Promise<{ id: string }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${path} failed with ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { data: { id: string } }).data;
}

/** Waits until no user message is on its way and no reply is awaited. */
async function settled(el: AiChatWidget, what: string): Promise<void> {
  // generous: with ~200 messages in the transcript a 100k-character message takes seconds to lay out
  await waitFor(() => el.messages.length > 0 && el.messages.every((m) => m.status !== 'sending'), 30_000, what);
  await el.updateComplete;
}

describe('XSS corpus', function () {
  let restoreTripwire: () => void;
  beforeEach(() => {
    clearWidgetStorage();
    restoreTripwire = installTripwire();
  });
  afterEach(async () => {
    await settleEvents();
    expect(pwnedCount(), 'a payload ran').to.equal(0);
    restoreTripwire();
  });

  it('has well over 100 payloads, each with its tag early enough for short channels', () => {
    expect(CASES.length).to.be.greaterThan(100);
    for (const c of CASES) expect(c.text.indexOf(c.tag), c.name).to.be.within(0, 90);
  });

  it('the checks themselves catch a hostile element, handler and link', () => {
    const div = document.createElement('div');
    for (const bad of [
      '<img alt="x">', '<b onclick="x">b</b>', '<a href="javascript:void 0" rel="noopener noreferrer">a</a>', '<svg></svg>',
      '<label><input type="text"></label>', '<input type="checkbox">', '<a class="cite" href="javascript:void 0" aria-describedby="x">1</a>',
    ]) {
      div.innerHTML = `<p>${bad}</p>`;
      expect(() => expectSafeDom(div, bad), bad).to.throw();
    }
    div.innerHTML = '<p><a href="https://example.com/" rel="noopener noreferrer">ok</a></p>';
    expectSafeDom(div, 'a safe link');
  });

  it('the markdown renderer keeps every payload inert and readable', async function () {
    this.timeout(60_000);
    const host = document.createElement('div');
    const root = host.attachShadow({ mode: 'open' });
    document.body.append(host);
    try {
      for (const c of CASES) {
        const started = performance.now();
        render(renderMarkdown(c.text), root);
        const elapsed = performance.now() - started;
        expectSafeDom(root, c.name);
        expect(root.textContent, c.name).to.contain(c.tag);
        expect(elapsed, `${c.name}: render time (ms)`).to.be.below(2000);
        render(null, root);
      }
      await settleEvents();
    } finally {
      host.remove();
    }
  });

  it('host-provided title and welcome message stay text', async function () {
    this.timeout(60_000);
    const container = document.createElement('div');
    document.body.append(container);
    try {
      for (const c of CASES) {
        const { el } = await mount({ mode: 'inline', storage: 'none', title: c.text, 'welcome-message': c.text }, {}, container);
        expectSafeWidget(el, c.name);
        expect($(el, '[part~="title"]').textContent, c.name).to.contain(c.text);
        expect($(el, '[part~="message-assistant"] [part~="bubble"]').textContent, c.name).to.contain(c.tag);
        el.remove();
      }
    } finally {
      container.remove();
    }
  });

  it('text the user types shows verbatim and runs nothing', async function () {
    this.timeout(120_000);
    const apiKey = await newApiKey(ROOMY_LIMITS);
    const { el, ready } = await mount({ mode: 'inline', storage: 'none', 'base-url': baseUrl, 'api-key': apiKey });
    await ready;
    for (const c of CASES) {
      const textarea = $<HTMLTextAreaElement>(el, 'textarea');
      await typeText(el, c.text);
      textarea.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true }));
      const typed = c.text.replace(/\r\n?/g, '\n'); // a textarea turns CR into LF
      if ([...c.text].length > MESSAGE_LIMIT) {
        // Over the input limit Enter sends nothing: the draft stays whole (not cut), marked invalid.
        await el.updateComplete;
        expect(textarea.value, c.name).to.equal(typed);
        expect(textarea.getAttribute('aria-invalid'), c.name).to.equal('true');
        expectSafeWidget(el, c.name);
        // The host's send() has no input limit: the service refuses it (validation_failed) yet it is shown.
        textarea.value = '';
        textarea.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
        await el.send(c.text);
      }
      await settled(el, c.name);
      const users = $$(el, '[part~="message-user"] [part~="bubble"]');
      expect(users.at(-1)!.textContent, c.name).to.contain(typed.trim());
      expectSafeWidget(el, c.name);
    }
    expect(el.messages.filter((m) => m.role === 'user')).to.have.length(CASES.length);
  });

  it('bot replies and their suggestions render safely', async function () {
    this.timeout(150_000);
    const apiKey = await newApiKey(ROOMY_LIMITS);
    const bot = await post(apiKey, '/bots', {
      name: 'XSS replies',
      training: {
        intents: CASES.map((c, i) => ({
          name: `p${i}`,
          examples: [c.tag],
          responses: [fit(c.text, 4000)],
          suggestions: [fit(c.text, 100)],
        })),
        fallback: { threshold: 0.2, responses: ['fallback reply'] },
      },
    });
    const { el, ready } = await mount({ mode: 'inline', storage: 'none', 'base-url': baseUrl, 'api-key': apiKey, 'bot-id': bot.id });
    await ready;
    for (const c of CASES) {
      const reply = await el.send(c.tag);
      expect(reply, c.name).to.not.equal(null);
      await el.updateComplete;
      const bubble = $$(el, '[part~="message-assistant"] [part~="bubble"]').at(-1)!;
      expect(bubble.textContent, `${c.name}: the bot answered with the intent`).to.contain(c.tag);
      const suggestions = $$(el, '[part~="suggestion"]').map((b) => b.textContent ?? '');
      expect(suggestions.join('\n'), c.name).to.contain(c.tag);
      expectSafeWidget(el, c.name);
    }
  });

  it('knowledge content and titles come back as answers, citations and suggestions, safely', async function () {
    this.timeout(150_000);
    const apiKey = await newApiKey(ROOMY_LIMITS);
    for (const c of CASES) {
      await post(apiKey, '/knowledge', { title: fit(c.text, 200), content: fit(c.text, 100_000), tags: ['xss'] });
    }
    const { el, ready } = await mount({ mode: 'inline', storage: 'none', 'base-url': baseUrl, 'api-key': apiKey });
    await ready;
    let cited = 0;
    for (const c of CASES) {
      const reply = await el.send(c.tag);
      expect(reply, `${c.name}: ${JSON.stringify(el.messages.at(-1)?.error)}`).to.not.equal(null);
      await el.updateComplete;
      const row = $$(el, '[part~="message-assistant"]').at(-1)!;
      const suggestions = $$(el, '[part~="suggestion"]').map((b) => b.textContent ?? '').join('\n');
      expect(`${row.textContent}\n${suggestions}`, `${c.name}: the entry came back`).to.contain(c.tag);
      if (row.querySelector('[part~="citations"]')) cited++;
      expectSafeWidget(el, c.name);
    }
    // most answers are extracts with their sources listed (the rest: fallbacks suggesting titles)
    expect(cited).to.be.greaterThan(CASES.length / 2);
  });

  // The widget never shows a bot's name (the header is the host's `title`); hostile names must still
  // leave the bot usable, and its quick replies come back as starters.
  it('bot names and quick replies render safely', async function () {
    this.timeout(90_000);
    const apiKey = await newApiKey(ROOMY_LIMITS);
    const container = document.createElement('div');
    document.body.append(container);
    try {
      for (let start = 0; start < CASES.length; start += 10) {
        const batch = CASES.slice(start, start + 10);
        const bot = await post(apiKey, '/bots', {
          name: fit(batch[0].text, 100),
          quick_replies: batch.map((c) => fit(c.text, 100)),
        });
        const { el, ready } = await mount(
          { mode: 'inline', storage: 'none', 'base-url': baseUrl, 'api-key': apiKey, 'bot-id': bot.id },
          {},
          container,
        );
        await ready;
        await waitFor(() => $$(el, '[part~="suggestion"]').length === batch.length, 5000, `starters of batch ${start}`);
        const starters = $$(el, '[part~="suggestion"]').map((b) => b.textContent ?? '');
        batch.forEach((c, i) => expect(starters[i], c.name).to.contain(c.tag));
        expectSafeWidget(el, `batch ${start}`);
        el.remove();
      }
    } finally {
      container.remove();
    }
  });
});
