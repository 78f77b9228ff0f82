// The launcher's panel on a phone. At 375×667 the open panel fills the screen
// and is a modal dialog: aria-modal, Tab and Shift+Tab stay inside, Escape closes and focus returns
// to the launcher, and the page behind does not scroll. When an on-screen keyboard shrinks the
// viewport to 360 px, the newest message and the input stay visible.
//
// The keyboard is emulated by resizing the viewport to 375×360 (setViewport): headless Chromium
// has no on-screen keyboard, and a real one shrinks the visual viewport, which the panel follows
// (PhoneModal); a layout viewport resize shrinks the visual viewport the same way, so it is a fair
// stand-in.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import type { AiChatWidget } from '../../src/element.js';
import { $, $$, animationsFinished, clearWidgetStorage, createBot, escapeClosesToLauncher, mount, newApiKey, waitFor } from './helpers.js';

/** The page behind the widget: tall enough to scroll, with controls before and after it. */
async function hostPage(): Promise<HTMLDivElement> {
  return fixture<HTMLDivElement>(html`<div>
    <button id="before">Before</button>
    <div style="height: 3000px">Page content</div>
    <button id="after">After</button>
  </div>`);
}

/** Whether focus is inside the widget (its shadow tree or its slotted content). */
function focusInside(el: AiChatWidget): boolean {
  const active = document.activeElement;
  return active === el || (active !== null && el.contains(active));
}

const nextFrame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));

describe('the launcher panel on a phone', () => {
  let apiKey: string;
  let botId: string;
  before(async () => {
    apiKey = await newApiKey();
    botId = await createBot(apiKey);
  });
  beforeEach(async () => {
    clearWidgetStorage();
    await setViewport({ width: 375, height: 667 });
    window.scrollTo(0, 0);
  });
  afterEach(() => setViewport({ width: 800, height: 600 }));

  it('keeps the newest message and the input above a keyboard that shrinks the viewport to 360 px', async () => {
    const page = await hostPage();
    const { el, ready } = await mount({ 'api-key': apiKey, 'bot-id': botId, storage: 'none' }, {}, page);
    await ready;
    await el.open();
    for (const text of ['hello', 'opening hours', 'pricing', 'hi there', 'when are you open', 'how much does it cost']) {
      expect(await el.send(text), text).to.not.equal(null);
    }
    const input = $<HTMLTextAreaElement>(el, 'textarea');
    input.focus();
    const newest = () => $$(el, '[part~="message"]').at(-1)!;
    await waitFor(() => newest().getBoundingClientRect().bottom <= 667, 4000, 'the newest message in view');

    await setViewport({ width: 375, height: 360 });
    const visibleBottom = () => visualViewport!.offsetTop + visualViewport!.height;
    await waitFor(() => visualViewport!.height === 360, 4000, 'the smaller viewport');
    const below = () => newest().getBoundingClientRect().bottom - visibleBottom();
    await nextFrame();
    expect(below(), `the newest message is ${below()} px below the fold`).to.be.at.most(0);
    expect(newest().getBoundingClientRect().top).to.be.at.least(0);
    expect(input.getBoundingClientRect().bottom).to.be.at.most(visibleBottom());
    expect($(el, '[part~="panel"]').getBoundingClientRect().height).to.equal(360);
    expect(el.shadowRoot!.activeElement).to.equal(input);
  });

  it('is a modal dialog: focus stays inside, the page does not scroll, Escape closes to the launcher', async () => {
    const page = await hostPage();
    const { el, ready } = await mount(
      { 'api-key': apiKey, 'bot-id': botId, storage: 'none', 'welcome-message': 'Hi, see [the docs](https://example.com/docs).' },
      {},
      page,
    );
    await ready;
    $(el, '[part~="launcher"]').click();
    await el.updateComplete;
    const panel = $(el, '[part~="panel"]');
    expect(panel.getAttribute('role')).to.equal('dialog');
    // the modal is an add-on the widget loads once the viewport is phone-sized (at connect here)
    await waitFor(() => panel.getAttribute('aria-modal') === 'true', 4000, 'the modal panel');
    await animationsFinished(el);
    await expect(el).to.be.accessible();

    // Tab and Shift+Tab cycle through the panel's controls and never reach the page behind
    for (let i = 0; i < 8; i++) {
      await sendKeys({ press: 'Tab' });
      expect(focusInside(el), `Tab ${i + 1} left the dialog for ${document.activeElement?.id}`).to.equal(true);
    }
    await sendKeys({ down: 'Shift' });
    for (let i = 0; i < 8; i++) {
      await sendKeys({ press: 'Tab' });
      expect(focusInside(el), `Shift+Tab ${i + 1} left the dialog`).to.equal(true);
    }
    await sendKeys({ up: 'Shift' });
    // focus moved to the page by other means comes back
    page.querySelector<HTMLButtonElement>('#after')!.focus({ preventScroll: true });
    expect(focusInside(el)).to.equal(true);

    // the page behind does not scroll (keyboard scrolling from the panel; the page is 3000 px tall)
    $(el, '[part~="close-button"]').focus();
    await sendKeys({ press: 'PageDown' });
    await sendKeys({ press: 'End' });
    await nextFrame();
    expect(window.scrollY).to.equal(0);
    expect(getComputedStyle(document.documentElement).overflow).to.equal('hidden');

    await escapeClosesToLauncher(el);
    expect(panel.hasAttribute('aria-modal')).to.equal(false);
    // the page scrolls again, and focus may leave
    expect(getComputedStyle(document.documentElement).overflow).to.not.equal('hidden');
    page.querySelector<HTMLButtonElement>('#after')!.focus();
    expect(document.activeElement!.id).to.equal('after');
  });

  it('is not modal where the panel floats (wider than 480 px)', async () => {
    await setViewport({ width: 800, height: 600 });
    const page = await hostPage();
    const { el } = await mount({ storage: 'none' }, {}, page);
    await el.open();
    expect($(el, '[part~="panel"]').hasAttribute('aria-modal')).to.equal(false);
    expect(getComputedStyle(document.documentElement).overflow).to.not.equal('hidden');
    page.querySelector<HTMLButtonElement>('#after')!.focus();
    expect(document.activeElement!.id).to.equal('after');
  });

  it('becomes modal when the viewport narrows while it is open, and stops when it widens', async () => {
    await setViewport({ width: 800, height: 600 });
    const { el } = await mount({ storage: 'none' }, {}, await hostPage());
    await el.open();
    await setViewport({ width: 375, height: 667 });
    await waitFor(() => $(el, '[part~="panel"]').getAttribute('aria-modal') === 'true', 4000, 'aria-modal');
    await setViewport({ width: 800, height: 600 });
    await waitFor(() => !$(el, '[part~="panel"]').hasAttribute('aria-modal'), 4000, 'no aria-modal');
    expect(getComputedStyle(document.documentElement).overflow).to.not.equal('hidden');
  });
});
