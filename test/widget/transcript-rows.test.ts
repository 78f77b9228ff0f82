// A long transcript: rows in blocks of 50 with content-visibility on the block,
// finished blocks frozen (plain DOM that no update visits, without Lit's per-row state). Asserted on
// work done (rows rendered, DOM mutations) and on what the user sees and hears, never on time.
import { expect } from '@open-wc/testing';
import { AiChatWidget, type TranscriptMessage } from '../../src/element.js';
import { BLOCK_SIZE } from '../../src/widget/transcript/transcript-rows.js';
import { $, $$, baseUrl, clearWidgetStorage, createBot, mount, newApiKey, waitFor } from './helpers.js';

const transcript = (n: number, tag = 'm'): TranscriptMessage[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `${tag}${i}`,
    role: i % 2 ? 'assistant' : 'user',
    content: i % 2 ? `answer ${i}, see [docs ${i}](https://example.com/${i})` : `question ${i}`,
    time: '',
    status: 'sent',
  }));

/** What the rows show, in DOM order, without the screen-reader prefix. */
const shown = (el: AiChatWidget) =>
  $$(el, '[part~="message"] [part~="bubble"]').map((b) => b.textContent!.replace(/^[^:]*: /, '').trim());

const expected = (messages: readonly TranscriptMessage[]) =>
  messages.map((m) => m.content.replace(/\[(docs \d+)\]\([^)]*\)/, '$1').replaceAll('**', ''));

/** Counts the rows the element renders (its row template) while `work` runs. */
async function rowsRendered(el: AiChatWidget, work: () => Promise<void>): Promise<number> {
  const proto = AiChatWidget.prototype as unknown as { renderMessage: (...args: unknown[]) => unknown };
  const original = proto.renderMessage;
  let calls = 0;
  proto.renderMessage = function (this: unknown, ...args: unknown[]) {
    calls++;
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    proto.renderMessage = original;
  }
  return calls;
}

describe('<ai-chat-widget> long transcripts', () => {
  beforeEach(clearWidgetStorage);

  it('puts 1,000 rows into blocks of 50 and skips the off-screen blocks, not each row', async () => {
    const { el } = await mount({ mode: 'inline', storage: 'none', 'base-url': baseUrl, 'api-key': 'unused' });
    el.messages = transcript(1000);
    await el.updateComplete;
    const blocks = $$(el, '.log > .block');
    expect(blocks).to.have.length(1000 / BLOCK_SIZE);
    expect(blocks.every((b) => b.childElementCount === BLOCK_SIZE)).to.equal(true);
    expect(blocks.every((b) => getComputedStyle(b).contentVisibility === 'auto')).to.equal(true);
    const rows = $$(el, '[part~="message"]');
    expect(rows.some((r) => getComputedStyle(r).contentVisibility === 'auto')).to.equal(false);
    expect(shown(el)).to.deep.equal(expected(el.messages));
  });

  it('leaves Lit\'s markers and the template\'s whitespace out of frozen rows, which look the same', async () => {
    const { el } = await mount({ mode: 'inline', storage: 'none', 'base-url': baseUrl, 'api-key': 'unused' });
    // every block but the last is frozen; the same message in both, for a like-for-like comparison
    const same = (id: string): TranscriptMessage => ({ id, role: 'assistant', content: 'Same **answer**, [a link](https://example.com)', time: '', status: 'sent' });
    el.messages = [...transcript(2 * BLOCK_SIZE), same('frozen'), same('live')].slice(1);
    await el.updateComplete;
    const rows = $$(el, '[part~="message"]');
    const nodes = (row: Element, show: number) => {
      const walker = document.createTreeWalker(row, show);
      let n = 0;
      while (walker.nextNode()) n++;
      return n;
    };
    const layoutWhitespace = (row: Element) => [...row.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE && !n.textContent!.trim());
    // each node Lit touched keeps a JS wrapper alive: frozen rows keep only what shows
    for (const row of rows.slice(0, 2 * BLOCK_SIZE)) {
      expect(nodes(row, NodeFilter.SHOW_COMMENT)).to.equal(0);
      expect(layoutWhitespace(row)).to.have.length(0);
    }
    const [frozen, live] = [rows[2 * BLOCK_SIZE - 1], rows[2 * BLOCK_SIZE]];
    expect(frozen.parentElement).to.not.equal(live.parentElement);
    expect(nodes(live, NodeFilter.SHOW_COMMENT)).to.be.greaterThan(0); // the last block's rows stay Lit's
    frozen.scrollIntoView();
    const box = (row: Element) => {
      const { width, height } = row.querySelector('[part~="bubble"]')!.getBoundingClientRect();
      return { width, height };
    };
    expect(box(frozen)).to.deep.equal(box(live));
    expect(frozen.querySelector('[part~="bubble"]')!.innerHTML.replace(/<!--[^>]*-->/g, '')).to.equal(
      live.querySelector('[part~="bubble"]')!.innerHTML.replace(/<!--[^>]*-->/g, ''),
    );
  });

  it('renders only the last block on an append at 1,000 and leaves the older rows untouched', async () => {
    const { el } = await mount({ mode: 'inline', storage: 'none', 'base-url': baseUrl, 'api-key': 'unused' });
    el.messages = transcript(1000);
    await el.updateComplete;
    const first = $$(el, '[part~="message"]').slice(0, 950);
    const mutated = new Set<Node>();
    const observer = new MutationObserver((records) => records.forEach((r) => mutated.add(r.target)));
    observer.observe($(el, '.log'), { subtree: true, childList: true, characterData: true, attributes: true });
    const extra: TranscriptMessage = { id: 'extra', role: 'assistant', content: 'the newest', time: '', status: 'sent' };
    const rendered = await rowsRendered(el, async () => {
      el.messages = [...el.messages, extra];
      await el.updateComplete;
    });
    observer.disconnect();
    // before: every one of the 1,001 rows went through the row template on every update
    expect(rendered).to.be.at.most(BLOCK_SIZE + 1);
    expect([...mutated].some((n) => first.some((row) => row.contains(n)))).to.equal(false);
    expect($$(el, '[part~="message"]').slice(0, 950)).to.deep.equal(first);
    expect(shown(el).at(-1)).to.equal('the newest');
    expect($$(el, '.log > .block')).to.have.length(21);
    // the next update (a draft typed) renders the last block's rows only: the full block before it is frozen
    const later = await rowsRendered(el, async () => {
      el.placeholder = 'Ask again';
      await el.updateComplete;
    });
    expect(later).to.be.at.most(1);
  });

  it('follows the transcript as a host grows, shrinks, edits and clears it', async () => {
    const { el } = await mount({ mode: 'inline', storage: 'none', 'base-url': baseUrl, 'api-key': 'unused' });
    const steps: TranscriptMessage[][] = [];
    const a = transcript(120, 'a');
    steps.push(a, a.slice(0, 60), [...a.slice(0, 60), ...transcript(3, 'b')]);
    const edited = steps[2].map((m, i) => (i === 7 || i === 55 ? { ...m, content: `${m.content} (edited)` } : m));
    steps.push(edited, edited.slice(0, 49), [], transcript(51, 'c'), transcript(51, 'd').reverse());
    for (const step of steps) {
      el.messages = step;
      await el.updateComplete;
      expect(shown(el)).to.deep.equal(expected(step));
      expect($$(el, '.log > .block')).to.have.length(Math.ceil(step.length / BLOCK_SIZE));
      expect($$(el, '.log > .block > [part~="message"]')).to.have.length(step.length);
    }
    // after shrinking, the (new) last block is not frozen: a row added to it is rendered on updates
    el.messages = a;
    await el.updateComplete;
    el.messages = [...a.slice(0, 60), ...transcript(1, 'e')];
    await el.updateComplete;
    const rendered = await rowsRendered(el, async () => {
      el.placeholder = 'Ask again';
      await el.updateComplete;
    });
    expect(rendered).to.equal(1);
  });

  it('keeps focus in a finished row that changes, and re-renders old rows for another language', async () => {
    const { el } = await mount({ mode: 'inline', storage: 'none', 'base-url': baseUrl, 'api-key': 'unused' });
    el.messages = transcript(200);
    await el.updateComplete;
    const link = () => $$(el, '[part~="message"]')[11].querySelector('a')!;
    link().focus();
    expect(el.shadowRoot!.activeElement).to.equal(link());
    el.messages = el.messages.map((m, i) => (i === 11 ? { ...m, content: `${m.content} (edited)` } : m));
    await el.updateComplete;
    expect(shown(el)[11]).to.equal('answer 11, see docs 11 (edited)');
    expect(el.shadowRoot!.activeElement).to.equal(link());
    expect(link().textContent).to.equal('docs 11');

    el.setAttribute('lang', 'de');
    await el.updateComplete;
    expect($$(el, '[part~="message"] .sr-only').map((s) => s.textContent!.trim())[10]).to.equal('Sie:');
    expect($$(el, '[part~="message"] .sr-only')[11].textContent!.trim()).to.equal('Assistent:');
    expect(el.shadowRoot!.activeElement).to.equal(link());
  });

  it('rates an answer of a frozen block: its row is rendered anew with focus on the thumb, and the service has it', async () => {
    const apiKey = await newApiKey();
    const botId = await createBot(apiKey);
    const { el, ready } = await mount({ mode: 'inline', storage: 'none', 'base-url': baseUrl, 'api-key': apiKey, 'bot-id': botId });
    await ready;
    await el.send('hello');
    el.messages = [...el.messages, ...transcript(BLOCK_SIZE)];
    await el.updateComplete;
    const answer = () => $$(el, '[part~="message"]')[1];
    expect(document.createTreeWalker(answer(), NodeFilter.SHOW_COMMENT).nextNode()).to.equal(null); // frozen
    const up = () => answer().querySelector<HTMLButtonElement>('[part~="feedback-up"]')!;
    const before = answer();
    up().focus();
    up().click();
    await el.updateComplete;
    expect(answer()).to.not.equal(before);
    expect(up().getAttribute('aria-pressed')).to.equal('true');
    expect(el.shadowRoot!.activeElement).to.equal(up());
    const ups = async () => {
      const res = await fetch(`${baseUrl}/analytics/feedback?granularity=hour`, { headers: { authorization: `Bearer ${apiKey}` } });
      return ((await res.json()) as { data: { totals: { up: number } } }).data.totals.up;
    };
    for (const start = Date.now(); (await ups()) !== 1; ) {
      if (Date.now() - start > 8000) throw new Error('the rating was not stored');
      await new Promise((r) => setTimeout(r, 50));
    }
    // the row the user works in keeps its Lit state now: taking the rating back updates it in place
    const rated = answer();
    up().click();
    await el.updateComplete;
    expect(answer()).to.equal(rated);
    expect(up().getAttribute('aria-pressed')).to.equal('false');
  });

  it('streams a reply into a new block, and a failed row of a finished block keeps its Retry', async () => {
    const apiKey = await newApiKey();
    const botId = await createBot(apiKey);
    const { el, ready } = await mount({ mode: 'inline', storage: 'none', 'base-url': baseUrl, 'api-key': apiKey, 'bot-id': botId, stream: true });
    await ready;
    const start = transcript(BLOCK_SIZE - 1);
    start[2] = { ...start[2], id: 'cut', status: 'sending' }; // shown as failed, with Retry
    el.messages = start;
    await el.updateComplete;
    const reply = await el.send('hello');
    expect(reply!.content).to.equal('Hello! How can I **help** you today?');
    await el.updateComplete;
    expect($$(el, '.log > .block')).to.have.length(2);
    expect($$(el, '.log > .block')[1].querySelector('strong')!.textContent).to.equal('help');
    // fill the second block and start a third: the first two are frozen now, but not the failed row
    el.messages = [...el.messages, ...transcript(BLOCK_SIZE, 'x')];
    await el.updateComplete;
    expect($$(el, '.log > .block')).to.have.length(3);
    const retry = $$(el, '[part~="message"]')[2].querySelector<HTMLButtonElement>('[part~="retry-button"]')!;
    retry.click();
    await waitFor(() => el.messages[2].status === 'sent', 8000, 'the retried message delivered');
    await el.updateComplete;
    expect($$(el, '[part~="message"]')[2].querySelector('[part~="error"]')).to.equal(null);
    expect(shown(el)).to.deep.equal(expected(el.messages));
  });
});
