// What an answer shows, from the real service: sources as numbered links that
// `[n]` markers in the text point to, and a bot's markdown answer with a table, headings, a task list
// and a code block whose Copy button copies through the real clipboard.
import { expect } from '@open-wc/testing';
import { sendKeys, sendMouse } from '@web/test-runner-commands';
import type { AiChatWidget } from '../../src/element.js';
import { $, $$, animationsFinished, baseUrl, clearWidgetStorage, createBot, mount, newApiKey } from './helpers.js';

async function addEntry(apiKey: string, entry: { title: string; content: string; source?: string }): Promise<void> {
  const response = await fetch(`${baseUrl}/knowledge`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify(entry),
  });
  expect(response.status).to.equal(201);
}

/** A knowledge base whose answer to QUESTION cites two entries: one with a page, one with a `javascript:` source. */
async function knowledgeAccount(): Promise<string> {
  const apiKey = await newApiKey();
  await addEntry(apiKey, {
    title: 'Shipping times',
    content: 'Parcels ship within 2 days of the order [1]. Express parcels arrive the next day.',
    source: 'https://shop.example/help/shipping',
  });
  // not cited, but the search's scores need a third entry to rank the other two alike
  await addEntry(apiKey, { title: 'Shipping costs', content: 'Shipping costs 5 euros. Orders over 50 euros ship free.', source: 'Help desk binder' });
  await addEntry(apiKey, {
    title: 'Islands \u202Efdp.exe',
    content: 'Parcels to islands ship within 5 days of the order [2].',
    source: 'javascript:alert(1)',
  });
  return apiKey;
}
const QUESTION = 'How many days do parcels take to ship after the order?';

/** Clicks the middle of `target` with a real (trusted) mouse event. */
async function click(target: Element): Promise<void> {
  target.scrollIntoView({ block: 'center' });
  const box = target.getBoundingClientRect();
  await sendMouse({ type: 'click', position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)] });
}

const answer = (el: AiChatWidget) => $(el, '[part~="message-assistant"] [part~="bubble"]');

describe('answers', () => {
  beforeEach(clearWidgetStorage);
  afterEach(() => sendMouse({ type: 'move', position: [0, 0] }));

  describe('sources as links', () => {
    for (const stream of [false, true]) {
      it(`numbers the sources, links each to its page, and links [n] in the text to them${stream ? ' (streamed)' : ''}`, async () => {
        const apiKey = await knowledgeAccount();
        const { el, ready } = await mount({ mode: 'inline', 'base-url': baseUrl, 'api-key': apiKey, stream });
        await ready;
        const reply = await el.send(QUESTION);
        expect(reply!.citations).to.deep.equal([
          { title: 'Shipping times', source: 'https://shop.example/help/shipping', url: 'https://shop.example/help/shipping' },
          { title: 'Islands \u202Efdp.exe', source: 'javascript:alert(1)' },
        ]);
        await el.updateComplete;

        // as rendered: the label and the first source apart ("Sources: [1]", not "Sources:[1]")
        expect(($(el, '[part~="citations"]') as HTMLElement).innerText).to.match(/^Sources: \[1\] Shipping times/);
        const items = $$(el, '[part~="citations"] li');
        // a direction override in a title is shown, not obeyed (it would reorder the sources after it)
        expect(items.map((li) => li.textContent!.trim())).to.deep.equal(['[1] Shipping times', '[2] Islands <U+202E>fdp.exe']);
        // the first has a page: a link that opens it in a new tab, safely
        const link = items[0].querySelector('a')!;
        expect(link.getAttribute('href')).to.equal('https://shop.example/help/shipping');
        expect(link.getAttribute('target')).to.equal('_blank');
        expect(link.getAttribute('rel')).to.equal('noopener noreferrer');
        expect(link.getAttribute('part')).to.equal('source-link');
        // the second's source is no http(s) page: its title only, never a javascript: link
        expect(items[1].querySelector('a')).to.equal(null);
        expect(el.shadowRoot!.querySelector('a[href^="javascript"]')).to.equal(null);

        // [1] and [2] in the answer link to the numbered sources, described by their titles
        const markers = [...answer(el).querySelectorAll<HTMLAnchorElement>('a.cite')];
        expect(markers.map((a) => a.textContent)).to.deep.equal(['[1]', '[2]']);
        markers.forEach((a, i) => {
          const target = el.shadowRoot!.getElementById(a.getAttribute('aria-describedby')!)!;
          expect(target, 'the marker names its source').to.equal(items[i]);
          expect(a.getAttribute('href')).to.equal(`#${items[i].id}`);
        });

        // following a marker focuses its source and leaves the page's URL alone
        const url = location.href;
        await click(markers[0]);
        expect(el.shadowRoot!.activeElement).to.equal(link);
        await click(markers[1]);
        expect(el.shadowRoot!.activeElement).to.equal(items[1]);
        expect(location.href).to.equal(url);
        await animationsFinished(el);
        await expect(el).to.be.accessible();
      });
    }

    it('keeps the links after a reload (the stored conversation and the service history)', async () => {
      const apiKey = await knowledgeAccount();
      const first = await mount({ mode: 'inline', 'base-url': baseUrl, 'api-key': apiKey });
      await first.ready;
      await first.el.send(QUESTION);
      first.el.remove();
      const { el, ready } = await mount({ mode: 'inline', 'base-url': baseUrl, 'api-key': apiKey });
      await ready;
      await el.updateComplete;
      expect($(el, '[part~="citations"] a').getAttribute('href')).to.equal('https://shop.example/help/shipping');
      expect([...answer(el).querySelectorAll('a.cite')].map((a) => a.textContent)).to.deep.equal(['[1]', '[2]']);
    });
  });

  describe('markdown from a bot', () => {
    const MARKDOWN = [
      '## Install',
      '| Plan | Price |\n|:--|--:|\n| Free | 0 € |\n| Team | 10 € |',
      '> Works with **every** framework.',
      '- [x] Add the script\n- [ ] Set the bot\n  1. Copy its id\n  2. Paste it',
      '---',
      '```html\n<script src="/w.js"></script>\n<ai-chat-widget bot-id="b1"></ai-chat-widget>\n```',
    ].join('\n\n');

    async function botAnswer(attrs: Record<string, string> = {}, markdown = MARKDOWN, container?: HTMLElement): Promise<AiChatWidget> {
      const apiKey = await newApiKey();
      const botId = await createBot(apiKey, {
        training: { intents: [{ name: 'install', examples: ['how do I install it', 'install the widget'], responses: [markdown] }] },
      });
      const { el, ready } = await mount({ mode: 'inline', 'base-url': baseUrl, 'api-key': apiKey, 'bot-id': botId, ...attrs }, {}, container);
      await ready;
      const reply = await el.send('how do I install it');
      expect(reply!.content).to.equal(markdown);
      await el.updateComplete;
      return el;
    }

    it('scrolls a wide table sideways inside its bubble on a phone-wide panel, and is accessible in dark theme', async () => {
      const container = document.createElement('div');
      container.style.width = '320px';
      document.body.append(container);
      try {
        const wide = `| ${['Plan', 'Monthly price', 'Seats included', 'Support hours'].join(' | ')} |\n|---|---|---|---|\n` +
          `| Enterprise-with-a-long-name | 1,000,000 € | unlimited-seats | round-the-clock |`;
        const el = await botAnswer({ theme: 'dark' }, `Compare:\n\n${wide}`, container);
        const region = answer(el).querySelector<HTMLElement>('[part="table"]')!;
        expect(region.scrollWidth, 'the table is wider than its region').to.be.above(region.clientWidth);
        const transcript = $(el, '[part~="transcript"]');
        expect(transcript.scrollWidth, 'the transcript itself does not scroll sideways').to.be.at.most(transcript.clientWidth);
        expect(region.getBoundingClientRect().right).to.be.at.most(answer(el).getBoundingClientRect().right + 0.5);
        // a keyboard user scrolls it: the region takes focus
        region.focus();
        expect(el.shadowRoot!.activeElement).to.equal(region);
        await animationsFinished(el);
        await expect(el).to.be.accessible();
      } finally {
        container.remove();
      }
    });

    it('renders the table, heading, quote, nested task list, rule and code block, and is accessible', async () => {
      const el = await botAnswer();
      const bubble = answer(el);
      expect(bubble.querySelector('[role="heading"]')!.textContent).to.equal('Install');
      const region = bubble.querySelector<HTMLElement>('[part="table"]')!;
      expect([region.getAttribute('role'), region.getAttribute('aria-label'), region.tabIndex]).to.deep.equal(['region', 'Table', 0]);
      expect(getComputedStyle(region).overflowX).to.equal('auto');
      expect([...bubble.querySelectorAll('td')].map((td) => td.textContent)).to.deep.equal(['Free', '0 €', 'Team', '10 €']);
      expect(bubble.querySelector('blockquote strong')!.textContent).to.equal('every');
      expect([...bubble.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')].map((c) => [c.checked, c.disabled])).to.deep.equal([
        [true, true],
        [false, true],
      ]);
      expect([...bubble.querySelectorAll('ul > li ol > li')].map((li) => li.textContent)).to.deep.equal(['Copy its id', 'Paste it']);
      expect(bubble.querySelector('hr')).to.not.equal(null);
      const code = bubble.querySelector('[part="code-block"]')!;
      expect(code.querySelector('.bar > span')!.textContent).to.equal('html');
      expect(code.querySelector('script, ai-chat-widget')).to.equal(null);
      await animationsFinished(el);
      await expect(el).to.be.accessible();
    });

    for (const stream of [false, true]) it(`copies a code block to the clipboard and says "Copied"${stream ? ' (streamed)' : ''}`, async () => {
      const el = await botAnswer(stream ? { stream: '' } : {});
      const code = answer(el).querySelector('[part="code-block"]')!;
      const button = code.querySelector<HTMLButtonElement>('[part="copy-button"]')!;
      expect(button.textContent).to.equal('Copy');
      const status = code.querySelector('[role="status"]')!;
      expect(status.textContent).to.equal('');
      await click(button);
      await new Promise((resolve) => requestAnimationFrame(resolve));
      expect(status.textContent).to.equal('Copied');
      // what a paste gets is the code, exactly
      const area = document.createElement('textarea');
      document.body.append(area);
      try {
        area.focus();
        await sendKeys({ down: 'Control' });
        await sendKeys({ press: 'KeyV' });
        await sendKeys({ up: 'Control' });
        expect(area.value).to.equal('<script src="/w.js"></script>\n<ai-chat-widget bot-id="b1"></ai-chat-widget>');
      } finally {
        area.remove();
      }
    });

    it('colours code with the host’s highlight function, themed from the page through ::part', async () => {
      const el = await botAnswer();
      const style = document.createElement('style');
      style.textContent = 'ai-chat-widget::part(token-tag) { color: rgb(200, 0, 0); }';
      document.head.append(style);
      try {
        el.highlight = (code, language) =>
          language === 'html' ? code.split(/(<\/?[\w-]+)/).filter(Boolean).map((text) => ({ text, type: text.startsWith('<') ? 'tag' : undefined })) : null;
        await el.updateComplete;
        const tags = [...answer(el).querySelectorAll('pre [part~="token-tag"]')];
        expect(tags.map((t) => t.textContent)).to.deep.equal(['<script', '</script', '<ai-chat-widget', '</ai-chat-widget']);
        expect(getComputedStyle(tags[0]).color).to.equal('rgb(200, 0, 0)');
        expect(answer(el).querySelector('pre code')!.textContent).to.equal('<script src="/w.js"></script>\n<ai-chat-widget bot-id="b1"></ai-chat-widget>');
        el.highlight = undefined;
        await el.updateComplete;
        expect(answer(el).querySelector('pre [part~="token"]')).to.equal(null);
      } finally {
        style.remove();
      }
    });
  });
});
