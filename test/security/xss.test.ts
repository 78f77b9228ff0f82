// The XSS corpus (xss-payloads.ts) through every way text reaches the widget. This file: the
// markdown renderer itself, host attributes, bot names and quick replies. Text the user types, bot
// replies and knowledge entries each have a file of their own (xss-*.test.ts), so each file stays
// well inside the runner's per-file time limit on a loaded machine. Each check: nothing ran
// (tripwire), nothing but the widget's own elements and safe links is in the shadow root, and the
// payload's visible part still reads.
import { expect } from '@open-wc/testing';
import { render } from 'lit';
import { renderMarkdown } from '../../src/widget/markdown/markdown.js';
import { $, $$, baseUrl, mount, newApiKey, waitFor } from '../widget/helpers.js';
import { CASES } from './xss-payloads.js';
import { ROOMY_LIMITS, expectSafeDom, expectSafeWidget, fit, guardEachTest, post, settleEvents } from './xss-support.js';

describe('XSS corpus', function () {
  guardEachTest();

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
