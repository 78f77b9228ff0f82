// Streamed replies render incrementally: a finished block is rendered once, only
// the block still growing is parsed again, and deltas are applied once per frame. Asserted on work
// counters and node identity, never on time; the final DOM must equal the one-shot render.
import { expect } from '@open-wc/testing';
import { html, render } from 'lit';
import type { AiChatWidget } from '../../src/element.js';
import { blockWork, GROUP_SIZE, inlineWork, renderMarkdown, splitBlocks } from '../../src/widget/markdown/markdown.js';
import { streamedMarkdown } from '../../src/widget/markdown/streamed-markdown.js';
import { $, $$, clearWidgetStorage, faultBaseUrl, mount, newApiKey, waitFor } from './helpers.js';

/** Markdown of every kind the renderer knows, about `size` characters, with traps for a splitter. */
function markdownDocument(size: number): string {
  const sections: string[] = [];
  for (let i = 0; sections.join('\n\n').length < size; i++) {
    switch (i % 6) {
      case 0:
        sections.push(`## Section ${i}\n\nSome **bold ${i}**, *em*, \`code ${i}\` and a [link](https://example.com/${i}),\n` +
          `then a second line of the same paragraph with https://example.com/bare/${i}.`);
        break;
      case 1:
        sections.push(`- item one of ${i}\n- item *two*\n  continued on an indented line\n- item three`);
        break;
      case 2:
        // blank lines and markdown inside a fence must stay inside it
        sections.push('```ts\nconst a = **not bold**;\n\n- not a list\n\n# not a heading\n```');
        break;
      case 3:
        sections.push(`3. numbered from three (${i})\n4. four\n\n  indented after a blank line, still item four`);
        break;
      case 4:
        sections.push(`Windows line ends ${i}\r\nin one paragraph\r\n\r\nand **a bold that ends\r\nlater**.`);
        break;
      case 5:
        sections.push(`A paragraph\n- that turns into a list\n# and a heading ${i}`);
        break;
    }
  }
  return sections.join('\n\n');
}

/** The rendered HTML without Lit's comment markers. */
function clean(node: Element): string {
  return node.innerHTML.replace(/<!--[^>]*-->/g, '');
}

function oneShot(source: string): string {
  const div = document.createElement('div');
  render(renderMarkdown(source), div);
  return clean(div);
}

/** The longest block of `source`, in characters (from its start to the next block's). */
function longestBlock(source: string): number {
  const starts = [...splitBlocks(source).map((b) => b.from), source.length];
  return Math.max(...starts.slice(1).map((end, i) => end - starts[i]));
}

/** A bubble's markdown alone (without the "Assistant:" prefix for screen readers). */
function bubbleMarkdown(el: AiChatWidget): string {
  const bubble = $(el, '[part~="message-assistant"] [part~="bubble"]').cloneNode(true) as Element;
  bubble.querySelector('.sr-only')?.remove();
  return clean(bubble);
}

describe('streamed markdown', () => {
  describe('the directive', () => {
    it('renders every prefix of a document exactly as a one-shot render does', () => {
      const source = markdownDocument(4000);
      const div = document.createElement('div');
      // uneven steps, so prefixes end inside markers, fences, CRLF pairs and list items
      for (let end = 0, i = 0; end < source.length; i++) {
        end = Math.min(source.length, end + 1 + ((i * 13) % 29));
        const prefix = source.slice(0, end);
        render(html`${streamedMarkdown(prefix)}`, div);
        expect(clean(div), `prefix of ${end} characters`).to.equal(oneShot(prefix));
      }
    });

    it('starts over for a text that does not extend the one before, and when it shrinks', () => {
      const div = document.createElement('div');
      const first = markdownDocument(1500);
      for (const next of [first, 'Another **reply**\n\n- a\n- b', first, first.slice(0, 700), '', 'plain']) {
        render(html`${streamedMarkdown(next)}`, div);
        expect(clean(div)).to.equal(oneShot(next));
      }
    });

    it('replaces what the place showed before (a user message there, then a reply)', () => {
      const div = document.createElement('div');
      render(html`${'a user message'}`, div);
      render(html`${streamedMarkdown('')}`, div);
      expect(div.textContent).to.equal('');
    });

    it('parses only the open block again when text is appended', () => {
      const source = markdownDocument(20_000);
      const longest = longestBlock(source);
      const div = document.createElement('div');
      let previous = 0;
      for (let end = 100; previous < source.length; end += 50) {
        const next = Math.min(end, source.length);
        blockWork.chars = 0;
        render(html`${streamedMarkdown(source.slice(0, next))}`, div);
        expect(blockWork.chars, `characters parsed at ${next}`).to.be.at.most(2 * longest + (next - previous));
        previous = next;
      }
      expect(clean(div)).to.equal(oneShot(source));
    });
  });

  describe('in the widget, streamed through the service route', () => {
    beforeEach(clearWidgetStorage);

    it('renders a long streamed reply once per frame, each finished block once, ending as a one-shot render', async function () {
      this.timeout(60_000);
      const source = markdownDocument(60_000);
      const longest = longestBlock(source);
      const apiKey = await newApiKey();
      const { el, ready } = await mount({
        mode: 'inline',
        storage: 'none',
        'base-url': faultBaseUrl('sse-echo'),
        'api-key': apiKey,
        stream: true,
      });
      await ready;

      // every update of the element: how far the reply had grown, and the parsing it cost
      const updates: { length: number; parsed: number; scanned: number }[] = [];
      const host = el as unknown as { update(changed: unknown): void };
      const update = host.update;
      host.update = function (changed) {
        const [parsed, scanned] = [blockWork.chars, inlineWork.steps];
        update.call(this, changed);
        const reply = el.messages.find((m) => m.role === 'assistant');
        updates.push({ length: reply?.content.length ?? 0, parsed: blockWork.chars - parsed, scanned: inlineWork.steps - scanned });
      };
      let frames = 0;
      let counting = true;
      const countFrames = () => {
        frames++;
        if (counting) requestAnimationFrame(countFrames);
      };
      requestAnimationFrame(countFrames);

      const replied = el.send(source);
      const firstBlock = await waitFor(() => $$(el, '[part~="message-assistant"] [part~="bubble"] p')[0], 20_000, 'the first block');
      // every node removed from the reply from now on (a finished block must never be among them)
      const removed = new Set<Node>();
      const bubbleNow = $(el, '[part~="message-assistant"] [part~="bubble"]');
      const watch = new MutationObserver((records) => records.forEach((r) => r.removedNodes.forEach((n) => removed.add(n))));
      watch.observe(bubbleNow, { childList: true, subtree: true });
      // once a second group has begun, the first group and the blocks before it are finished
      await waitFor(() => bubbleNow.querySelectorAll(':scope > .md-group').length >= 2, 20_000, 'a second group');
      const finishedBlocks = [...bubbleNow.children].filter((c) => !c.matches('.sr-only, .md-group:last-child'));
      const reply = await replied;
      counting = false;
      await el.updateComplete;
      watch.disconnect();

      expect(reply?.content).to.equal(source);
      expect(bubbleMarkdown(el), 'final DOM').to.equal(oneShot(source));
      expect($$(el, '[part~="message-assistant"] [part~="bubble"] p')[0], 'the first block was never rendered again').to.equal(firstBlock);
      // finished blocks stay where they were put (moving them would make a screen reader read them again)
      expect(finishedBlocks.length).to.be.above(GROUP_SIZE);
      for (const block of finishedBlocks) {
        expect(removed.has(block), 'a finished block was removed').to.equal(false);
        expect(block.parentNode).to.equal(bubbleNow);
      }
      // long replies keep later blocks in groups: the bubble has a few dozen children, not one per block
      const bubble = $(el, '[part~="message-assistant"] [part~="bubble"]');
      const groups = bubble.querySelectorAll(':scope > .md-group').length;
      expect(groups).to.be.above(10);
      expect(bubble.children.length).to.be.at.most(groups + GROUP_SIZE + 3);

      // deltas are coalesced: one update a frame, plus the few for sending and the final message
      expect(updates.length, `${updates.length} updates in ${frames} frames`).to.be.at.most(frames + 6);
      expect(updates.length, 'the reply grew over several frames').to.be.above(3);
      // each update parsed the block that was still open plus what had arrived since the last one
      let before = 0;
      for (const u of updates) {
        const grown = Math.max(0, u.length - before);
        expect(u.parsed, `characters parsed at ${u.length}`).to.be.at.most(2 * longest + grown);
        expect(u.scanned, `inline steps at ${u.length}`).to.be.at.most(6 * (2 * longest + grown));
        before = Math.max(before, u.length);
      }
    });

    it('shows nothing of a stream cut short by reset, though frames were still due', async function () {
      this.timeout(30_000);
      const { el, ready } = await mount({
        mode: 'inline',
        storage: 'none',
        'base-url': faultBaseUrl('sse-echo'),
        'api-key': await newApiKey(),
        stream: true,
      });
      await ready;
      const replied = el.send(markdownDocument(30_000));
      await waitFor(() => el.messages.some((m) => m.role === 'assistant'), 20_000, 'the partial reply');
      el.reset();
      expect(await replied).to.equal(null);
      for (let i = 0; i < 5; i++) await new Promise((r) => requestAnimationFrame(r));
      await el.updateComplete;
      expect(el.messages).to.deep.equal([]);
      expect($$(el, '[part~="message"]')).to.have.length(0);
    });
  });
});
