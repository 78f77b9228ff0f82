// The inbox on a phone (390×844), the whole dashboard shell against the real service in real
// Chromium: the navigation behind a menu button, one pane at a time (the list; the open
// conversation with a Back control), the reply box in reach and not covered, touch targets of at
// least 44 px, and never a page that scrolls sideways. axe finds nothing in either pane.
import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { DashboardApi } from '../../src/dashboard/api.js';
import '../../src/dashboard/app.js';
import type { AicdApp } from '../../src/dashboard/app.js';
import { askForPerson, button, deep, deepAll, fill, operatorWithHandoffBot, signOut, until } from './helpers.js';

const PHONE = { width: 390, height: 844 };
/** The least touch target (WCAG 2.5.5, and the platforms' guidelines). */
const TOUCH_PX = 44;

const noSidewaysScroll = () => document.documentElement.scrollWidth <= innerWidth;
const shown = (el: Element | undefined) => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
/** Not a target: folded away, off screen until focused (the skip link) or visually hidden (1 px). */
const target = (el: Element) => shown(el) && el.getBoundingClientRect().right > 0 && el.getBoundingClientRect().width > 1;

/** The visible controls below `root` a finger must hit, smaller than `TOUCH_PX` either way. */
function smallTargets(root: Element): string[] {
  return deepAll(root, 'button, select, input:not([type="checkbox"]):not([type="radio"]), nav a, textarea')
    .filter(target)
    .filter((el) => {
      const box = el.getBoundingClientRect();
      return box.height < TOUCH_PX - 0.5 || box.width < TOUCH_PX - 0.5;
    })
    .map((el) => `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}" ${Math.round(el.getBoundingClientRect().width)}×${Math.round(el.getBoundingClientRect().height)}`);
}

describe('the inbox on a phone', () => {
  before(() => setViewport(PHONE));
  after(async () => {
    await setViewport({ width: 800, height: 600 });
    history.replaceState(null, '', location.pathname);
    await signOut();
  });

  it('shows one pane at a time, replies and goes back, in reach, with no sideways scrolling; axe', async function () {
    this.timeout(40_000);
    await signOut();
    const { visitor, botId } = await operatorWithHandoffBot('Phone');
    history.replaceState(null, '', '#/inbox');
    const app = await fixture<AicdApp>(html`<aicd-app .api=${new DashboardApi()}></aicd-app>`);
    const inbox = await until(() => deep(app, 'aicd-inbox-page'), 'the inbox page');
    await until(() => deepAll(inbox, 'p').some((p) => p.textContent === 'Nobody is waiting.'), 'the empty inbox');

    // the navigation does not fit beside the page: a menu button (named as the navigation is) opens it
    const menu = button(app, /Dashboard$/)!;
    expect(menu.getAttribute('aria-expanded')).to.equal('false');
    expect(shown(deep(app, 'nav a[href="#/team"]')), 'the nav folded away').to.equal(false);
    menu.click();
    await until(() => menu.getAttribute('aria-expanded') === 'true' && shown(deep(app, 'nav a[href="#/team"]')), 'the open menu');
    expect(noSidewaysScroll(), 'no sideways scrolling with the menu open').to.equal(true);
    expect(smallTargets(app)).to.deep.equal([]);
    menu.click();
    await until(() => !shown(deep(app, 'nav a[href="#/team"]')), 'the menu closed');

    const user = 'phone-visitor';
    const { data: first } = await visitor.bots.sendMessage(botId, { message: 'hello from a phone', user_id: user });
    await askForPerson(visitor, first.conversation_id, user);
    const take = await until(() => button(inbox, `Take the conversation with ${user}`), 'the waiting conversation');
    expect(noSidewaysScroll(), 'the list: no sideways scrolling').to.equal(true);
    expect(smallTargets(app)).to.deep.equal([]);
    await expect(app).to.be.accessible();

    // the open conversation replaces the list, with a Back control
    take.click();
    const reply = await until(() => deep<HTMLTextAreaElement>(inbox, 'textarea#reply'), 'the reply box');
    const list = deep(inbox, 'section[aria-labelledby="queue-heading"]')!;
    expect(shown(list), 'the list hidden while a conversation is open').to.equal(false);
    const back = button(inbox, 'Back to the list')!;
    expect(shown(back)).to.equal(true);
    expect(noSidewaysScroll(), 'the conversation: no sideways scrolling').to.equal(true);
    expect(smallTargets(app)).to.deep.equal([]);

    // the reply box: brought into view, nothing on top of it
    reply.scrollIntoView({ block: 'center' });
    const box = reply.getBoundingClientRect();
    expect(box.top >= 0 && box.bottom <= innerHeight, 'the reply box in the viewport').to.equal(true);
    const onTop = app.shadowRoot!.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    expect(onTop, 'nothing of the shell covers the reply box').to.equal(app.shadowRoot!.querySelector('aicd-inbox-page'));
    expect(inbox.shadowRoot!.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)).to.equal(reply);
    await fill(inbox, 'reply', 'Hello from the phone inbox');
    button(inbox, 'Send')!.click();
    await until(() => deepAll(inbox, '.message.operator .text').some((p) => p.textContent === 'Hello from the phone inbox'), 'the reply in the transcript');
    const { data: seen } = await visitor.chat.history({ conversation_id: first.conversation_id, user_id: user });
    expect(seen.items.some((m) => m.role === 'operator' && m.content === 'Hello from the phone inbox')).to.equal(true);
    await expect(app).to.be.accessible();

    // Back: the list again, the focus on the conversation's Open button
    back.click();
    await until(() => shown(list) && !deep(inbox, 'textarea#reply'), 'the list again');
    expect(deepAll(inbox, 'button').find((b) => b.matches(':focus'))?.getAttribute('aria-label')).to.equal(`Open the conversation with ${user}`);
    expect(noSidewaysScroll(), 'back on the list: no sideways scrolling').to.equal(true);
  });
});
