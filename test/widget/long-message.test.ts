// A very long user message must wrap at the panel's width, even in a layout forced before its row's
// first frame. Rows use content-visibility: auto; a row not rendered yet is size-contained, and
// without an inline estimate its width was 0, so the shrink-to-fit user bubble broke its text one
// character per line (30k line boxes, hundreds of ms to seconds). Asserted on geometry, not time.
import { expect } from '@open-wc/testing';
import type { AiChatWidget } from '../../src/element.js';
import { $, clearWidgetStorage, mount } from './helpers.js';

const LONG_WORD = 'a'.repeat(30_000);
const LONG_WORDS = 'lorem ipsum dolor sit amet '.repeat(1112).slice(0, 30_000);
const MARKUP = '<img src=x onerror=alert(1)>'.repeat(1000);

function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}

/** Shows `content` as the only (user) message; resolves after the update, before any frame. */
async function showUserMessage(el: AiChatWidget, content: string): Promise<void> {
  el.messages = [{ id: 'm1', role: 'user', content, time: new Date().toISOString(), status: 'sent' }];
  await el.updateComplete;
}

/** Geometry of the only bubble and of the transcript's content box, read with a forced layout. */
function measure(el: AiChatWidget) {
  const bubble = $(el, '[part~="bubble"]');
  const transcript = $(el, '[part~="transcript"]');
  const box = bubble.getBoundingClientRect();
  const style = getComputedStyle(bubble);
  const textHeight = box.height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
  const padding = getComputedStyle(transcript);
  const left = transcript.getBoundingClientRect().left + transcript.clientLeft + parseFloat(padding.paddingLeft);
  const width = transcript.clientWidth - parseFloat(padding.paddingLeft) - parseFloat(padding.paddingRight);
  return { bubble, box, lines: textHeight / parseFloat(style.lineHeight), panel: { width, right: left + width } };
}

describe('<ai-chat-widget> long user messages', () => {
  beforeEach(clearWidgetStorage);

  for (const [shape, content] of [
    ['one 30k-character word', LONG_WORD],
    ['30k characters of words', LONG_WORDS],
    ['markup-like text', MARKUP],
  ] as const) {
    it(`wraps ${shape} at the panel width in a layout forced before the first frame`, async () => {
      const { el } = await mount({ mode: 'inline' });
      await showUserMessage(el, content);

      // no frame has run: the row has not been rendered yet (the case that used to collapse)
      const before = measure(el);
      expect(before.box.width).to.be.at.most(before.panel.width);
      expect(before.box.width, 'bubble as wide as the row allows').to.be.above(before.panel.width / 2);
      // at 0 width each character took a line; wrapped at the panel width a line holds dozens
      expect(before.lines, 'line count').to.be.below(content.length / 10);
      expect(before.bubble.textContent).to.include(content);
      expect(before.bubble.querySelector('img')).to.equal(null);

      await nextFrame();
      await nextFrame();
      const after = measure(el);
      expect(after.box.width, 'same width once rendered').to.be.closeTo(before.box.width, 1);
      expect(after.box.height, 'same height once rendered').to.be.closeTo(before.box.height, 1);
      expect(after.box.right, 'right-aligned').to.be.closeTo(after.panel.right, 1);
    });
  }

  it('keeps a short user bubble fitted to its text and right-aligned', async () => {
    const { el } = await mount({ mode: 'inline' });
    await showUserMessage(el, 'hi there');
    await nextFrame();
    await nextFrame();
    const { box, lines, panel } = measure(el);
    expect(lines).to.be.closeTo(1, 0.1);
    expect(box.width).to.be.below(panel.width / 2);
    expect(box.right).to.be.closeTo(panel.right, 1);
  });
});
