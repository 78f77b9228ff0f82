// Inline mode must not shift the host page (Lighthouse measured a Cumulative
// Layout Shift of 0.619 on /inline.html). This file does NOT import the element up front: the page
// holds <ai-chat-widget> before it is defined, as a page whose script loads late does, with the
// README's ":not(:defined)" rule applied word for word. Defining the element, the first render,
// the bot's starters and a restored transcript from the real service must all shift nothing.
import { expect } from '@open-wc/testing';
import type { AiChatWidget } from '../../src/element.js';
import { createBot, newApiKey } from './service.js';

/** The CSS block of the README's "Reserve its space" section. */
async function readmeRule(): Promise<string> {
  const readme = await (await fetch('/README.md')).text();
  const rule = /### Reserve its space[^\n]*\n[\s\S]*?```css\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!rule) throw new Error('README has no "Reserve its space" section with a css block');
  return rule;
}

/** Sums the layout shifts the browser reports from now on (what CLS adds up). */
function recordShifts(): { total(): number; stop(): void } {
  let total = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as PerformanceEntry[] & { value: number; hadRecentInput: boolean }[]) {
      if (!entry.hadRecentInput) total += entry.value;
    }
  });
  observer.observe({ type: 'layout-shift' });
  return { total: () => total, stop: () => observer.disconnect() };
}

const frames = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => requestAnimationFrame(r));
};

describe('layout shift of the host page', () => {
  let sheet: CSSStyleSheet;
  let apiKey: string;
  let botId: string;
  before(async () => {
    apiKey = await newApiKey();
    botId = await createBot(apiKey);
    sheet = new CSSStyleSheet();
    sheet.replaceSync(await readmeRule());
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  });
  after(() => {
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
  });

  it('reserves the box before the element is defined, and keeps it through upgrade and loading', async () => {
    expect(customElements.get('ai-chat-widget'), 'defined too early').to.equal(undefined);
    // a one-column grid, as the inline demo has on a phone: a widget wider than the column at its
    // min-content size would widen the column and reflow the text above it
    const page = document.createElement('main');
    page.style.cssText = 'display: grid; grid-template-columns: 1fr; width: 360px';
    page.innerHTML = `
      <h1 style="margin: 0">A shop</h1>
      <p id="above">Plants, pots and advice: ask the plant desk below about watering, light and repotting.</p>
      <ai-chat-widget id="cls-inline" mode="inline" style="--ai-chat-height: 420px" storage="local"
        bot-id="${botId}" api-key="${apiKey}" welcome-message="Hello **there**"></ai-chat-widget>
      <p id="below">The rest of the page</p>
      <ai-chat-widget id="cls-launcher" bot-id="${botId}" api-key="${apiKey}" storage="none">
        <span slot="header">Brand</span>
      </ai-chat-widget>`;
    document.body.prepend(page);
    try {
      const inline = page.querySelector<AiChatWidget>('#cls-inline')!;
      const below = page.querySelector<HTMLElement>('#below')!;
      const above = page.querySelector<HTMLElement>('#above')!;
      const aboveHeight = above.getBoundingClientRect().height;
      await frames(2);
      const reserved = inline.getBoundingClientRect();
      const belowTop = below.getBoundingClientRect().top;
      expect(reserved.height).to.equal(420);
      const upgrade = recordShifts();
      const ready = new Promise((resolve) => inline.addEventListener('ai-chat-ready', resolve, { once: true }));
      await import('../../src/ai-chat-widget.js');
      await ready;
      await frames(3);
      upgrade.stop();
      expect(inline.getBoundingClientRect().height).to.equal(reserved.height);
      expect(below.getBoundingClientRect().top).to.equal(belowTop);
      expect(above.getBoundingClientRect().height, 'the text above reflowed').to.equal(aboveHeight);
      expect(upgrade.total(), 'layout shift score of the upgrade').to.equal(0);

      // a conversation (a user's typing is input, which layout shift scores leave out), then the
      // element again: the stored transcript shows, and its history loads from the service
      expect(await inline.send('hello')).to.not.equal(null);
      await frames(2);
      const restore = recordShifts();
      const again = inline.cloneNode() as AiChatWidget;
      const restored = new Promise((resolve) => again.addEventListener('ai-chat-ready', resolve, { once: true }));
      inline.replaceWith(again);
      await restored;
      expect(again.messages.length).to.equal(2);
      await frames(3);
      restore.stop();
      expect(again.getBoundingClientRect().height).to.equal(reserved.height);
      expect(below.getBoundingClientRect().top).to.equal(belowTop);
      expect(restore.total(), 'layout shift score of the restore').to.equal(0);
    } finally {
      page.remove();
    }
  });
});
