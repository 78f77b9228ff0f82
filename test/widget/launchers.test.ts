// Several launcher-mode widgets on one page: they stand side by side from the
// corner inward instead of exactly on top of each other, an open panel stays on screen and in
// front, each talks to its own bot on the real service, and while the panel is open the launcher
// shows a close icon and has a name of its own (not the header's "Close chat").
import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import type { AiChatWidget } from '../../src/element.js';
import { $, animationsFinished, clearWidgetStorage, createBot, mount, newApiKey } from './helpers.js';

const rectOf = (el: AiChatWidget, part: string) => $(el, `[part~="${part}"]`).getBoundingClientRect();

function overlaps(a: DOMRect, b: DOMRect): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

describe('several launchers on one page', () => {
  let apiKey: string;
  beforeEach(clearWidgetStorage);
  before(async () => {
    apiKey = await newApiKey();
  });
  afterEach(() => setViewport({ width: 800, height: 600 }));

  it('stand side by side, open in front and on screen, and each talks to its own bot', async () => {
    await setViewport({ width: 800, height: 600 });
    const sales = await createBot(apiKey, { name: 'Sales' });
    const support = await createBot(apiKey, {
      name: 'Support',
      training: { intents: [{ name: 'hi', examples: ['hello', 'hi there'], responses: ['Support here.'] }] },
    });
    const page = await fixture<HTMLDivElement>(html`<div></div>`);
    const first = await mount({ id: 'sales', 'api-key': apiKey, 'bot-id': sales, storage: 'none' }, {}, page);
    const second = await mount({ id: 'support', 'api-key': apiKey, 'bot-id': support, storage: 'none' }, {}, page);
    await Promise.all([first.ready, second.ready]);

    const a = rectOf(first.el, 'launcher');
    const b = rectOf(second.el, 'launcher');
    expect(overlaps(a, b), 'the launchers overlap').to.equal(false);
    expect(b.bottom).to.equal(a.bottom); // one row, from the corner inward
    expect(a.right).to.equal(800 - 20);
    expect(b.right).to.equal(a.left - 12);

    await second.el.open();
    const panel = rectOf(second.el, 'panel');
    expect(panel.left).to.be.at.least(0);
    expect(panel.top).to.be.at.least(0);
    expect(overlaps(panel, a), 'the open panel covers the other launcher').to.equal(false);
    // the open widget is in front of the others
    const middle = document.elementFromPoint(panel.left + panel.width / 2, panel.top + 10);
    expect(middle).to.equal(second.el);

    const reply = await second.el.send('hello');
    expect(reply?.content).to.equal('Support here.');
    expect(first.el.messages).to.have.length(0);
    await Promise.all([animationsFinished(first.el), animationsFinished(second.el)]);
    await expect(page).to.be.accessible();

    // the first one leaves: the second takes the corner
    first.el.remove();
    await new Promise((r) => requestAnimationFrame(r));
    expect(rectOf(second.el, 'launcher').right).to.equal(800 - 20);
  });

  it('mirrors the row under dir="rtl"', async () => {
    const page = await fixture<HTMLDivElement>(html`<div dir="rtl"></div>`);
    const first = await mount({ storage: 'none' }, {}, page);
    const second = await mount({ storage: 'none' }, {}, page);
    const a = rectOf(first.el, 'launcher');
    const b = rectOf(second.el, 'launcher');
    expect(a.left).to.equal(20);
    expect(b.left).to.equal(a.right + 12);
  });

  it('while open, the launcher shows a close icon and is named apart from the close button', async () => {
    const { el } = await mount({ storage: 'none' });
    const launcher = $(el, '[part~="launcher"]');
    const visibleIcon = () => [...launcher.querySelectorAll('svg')].find((svg) => svg.getClientRects().length);
    const chatPath = visibleIcon()!.querySelector('path')!.getAttribute('d');
    expect(launcher.getAttribute('aria-label')).to.equal('Open chat');

    await el.open();
    const closeButton = $(el, '[part~="close-button"]');
    expect(launcher.getAttribute('aria-label')).to.equal('Hide chat');
    expect(closeButton.getAttribute('aria-label')).to.equal('Close chat');
    const openPath = visibleIcon()!.querySelector('path')!.getAttribute('d');
    expect(openPath).to.not.equal(chatPath);
    expect(openPath).to.equal(closeButton.querySelector('path')!.getAttribute('d'));
    await expect(el).to.be.accessible();

    el.close();
    await el.updateComplete;
    expect(launcher.getAttribute('aria-label')).to.equal('Open chat');
    expect(visibleIcon()!.querySelector('path')!.getAttribute('d')).to.equal(chatPath);
  });
});
