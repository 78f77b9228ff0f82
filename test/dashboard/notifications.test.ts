// The operator bar of the dashboard shell in real Chromium against the real service: a visitor asks
// for a person while the operator is on another page, and the Inbox link's badge, the tab title's
// count, the beep (muted when asked, remembered) and the desktop notification (asked for from a
// button, shown only off the Inbox) follow; the presence chosen in the shell outlives the Inbox page.
// Headless Chromium shows no notification and plays no sound, so `Notification` and `AudioContext`
// are stubs that record their calls.
import { expect, fixture, html } from '@open-wc/testing';
import { DashboardApi } from '../../src/dashboard/api.js';
import '../../src/dashboard/app.js';
import type { AicdApp } from '../../src/dashboard/app.js';
import { askForPerson, button, deep, deepText, fill, operatorWithHandoffBot, signOut, until } from './helpers.js';

const shown: { title: string; tag?: string }[] = [];
let beeps = 0;
let permission: NotificationPermission = 'default';
let asked = 0;

class StubNotification {
  static get permission() {
    return permission;
  }
  static async requestPermission() {
    asked++;
    permission = 'granted';
    return permission;
  }
  onclick: (() => void) | null = null;
  constructor(title: string, options: NotificationOptions = {}) {
    shown.push({ title, tag: options.tag });
  }
  close() {}
}

class StubAudioContext {
  currentTime = 0;
  destination = {};
  resume = () => Promise.resolve();
  createGain = () => ({ gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (next: unknown) => next });
  createOscillator = () => ({ frequency: { value: 0 }, connect: (next: unknown) => next, start: () => beeps++, stop() {} });
}

const real = { Notification: globalThis.Notification, AudioContext: globalThis.AudioContext };
before(() => Object.assign(globalThis, { Notification: StubNotification, AudioContext: StubAudioContext }));
after(async () => {
  Object.assign(globalThis, real);
  localStorage.removeItem('aicd-sound-muted');
  history.replaceState(null, '', location.pathname);
  await signOut();
});

/** A fresh operator signed in (the browser's cookie), a bot that hands off, and a visitor of it. */
async function operatorWithBot() {
  await signOut();
  const { api, visitor, botId } = await operatorWithHandoffBot('Bar');
  let visitors = 0;
  const asks = async () => {
    const user = `bar-visitor-${++visitors}`;
    const { data } = await visitor.bots.sendMessage(botId, { message: 'hello', user_id: user });
    await askForPerson(visitor, data.conversation_id, user);
    return data.conversation_id;
  };
  return { api, botId, asks };
}

async function mountApp(route: string): Promise<AicdApp> {
  history.replaceState(null, '', `#/${route}`);
  const app = await fixture<AicdApp>(html`<aicd-app .api=${new DashboardApi()}></aicd-app>`);
  const bar = await until(() => deep(app, 'aicd-operator-bar'), 'the operator bar');
  await until(() => deep<HTMLSelectElement>(bar, 'select')?.disabled === false, 'the presence read');
  return app;
}

/** Waits until the service says so (`until` checks synchronously). */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const inboxLink = (app: AicdApp) => deep<HTMLAnchorElement>(app, 'nav a[href="#/inbox"]')!;

describe('aicd-operator-bar (dashboard shell)', () => {
  it('a visitor asking for a person: badge, title count, beep and desktop notification on another page', async () => {
    const { asks } = await operatorWithBot();
    const app = await mountApp('overview');
    expect(shown).to.have.length(0);
    expect(asked).to.equal(0, 'never asked on load');
    const enable = button(app, 'Enable desktop notifications')!;
    enable.click();
    await until(() => !button(app, 'Enable desktop notifications'), 'the button gone once allowed');
    expect(asked).to.equal(1);

    const first = await asks();
    await until(() => inboxLink(app).textContent!.includes('1'), 'the Inbox badge');
    expect(inboxLink(app).getAttribute('aria-label')).to.equal('Inbox: 1 waiting, 0 yours');
    await until(() => document.title.startsWith('(1) Overview'), 'the title count');
    await until(() => shown.length === 1, 'the desktop notification');
    expect(shown[0]).to.deep.equal({ title: 'A visitor is waiting for a person', tag: `aicd-waiting-${first}` });
    expect(beeps).to.equal(1);
    await expect(app).to.be.accessible();

    // muted: the next one is counted and notified, not heard; the choice is kept in this browser
    const sound = button(app, 'Sound')!;
    expect(sound.getAttribute('aria-pressed')).to.equal('true');
    sound.click();
    await until(() => sound.getAttribute('aria-pressed') === 'false', 'sound off');
    expect(localStorage.getItem('aicd-sound-muted')).to.equal('1');
    await asks();
    await until(() => document.title.startsWith('(2) Overview'), 'the title count of two');
    await until(() => shown.length === 2, 'the second notification');
    expect(beeps).to.equal(1);

    // on the Inbox itself (tab visible): no desktop notification, the count still moves
    location.hash = '#/inbox';
    await until(() => deep(app, 'aicd-inbox-page'), 'the inbox page');
    await asks();
    await until(() => document.title.startsWith('(3) Inbox'), 'the title count of three');
    expect(shown).to.have.length(2);
  });

  it('the presence chosen in the shell holds on every page, after leaving the Inbox too', async () => {
    const { api, botId } = await operatorWithBot();
    const app = await mountApp('inbox');
    await until(() => deep(app, 'aicd-inbox-page'), 'the inbox page');
    const bar = deep(app, 'aicd-operator-bar')!;
    await eventually(async () => (await api.presence()).status === 'online', 'online with the dashboard open');

    await fill(bar, 'presence', 'away');
    await until(() => deepText(bar).includes('Away'), 'the choice shown');
    expect((await api.presence()).chosen).to.equal('away');
    expect((await api.client.handoff.settings(botId)).data.unavailable_reason).to.equal('nobody_online');

    location.hash = '#/team';
    const team = await until(() => deep(app, 'aicd-team-page'), 'the team page');
    await until(() => deep(app, 'aicd-inbox-page') === undefined, 'the inbox page gone');
    await until(() => deepText(team).includes('Away'), "the team list's presence");
    expect(deep<HTMLSelectElement>(bar, 'select')!.value).to.equal('away');

    await fill(bar, 'presence', 'online');
    await eventually(async () => (await api.presence()).status === 'online', 'online again, off the Inbox');
    expect((await api.client.handoff.settings(botId)).data.available).to.equal(true);
  });
});
