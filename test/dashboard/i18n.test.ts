// The dashboard in another language (src/dashboard/i18n): the picker switches the shell and the
// page without a reload and keeps the choice for the next visit; Arabic turns the layout right to
// left; dates follow the language. English stays the default here (the test browser is en-US).
import { expect, fixture, html } from '@open-wc/testing';
import { DashboardApi } from '../../src/dashboard/api.js';
import '../../src/dashboard/app.js';
import type { AicdApp } from '../../src/dashboard/app.js';
import { setLocale } from '../../src/dashboard/i18n/i18n.js';
import { button, deep, deepAll, fill, signOut, until } from './helpers.js';

let accounts = 0;

/** A new owner, signed in (the browser's cookie), and the shell on `#/<route>`. */
async function signedIn(route: string, prepare?: (api: DashboardApi) => Promise<void>): Promise<{ app: AicdApp; api: DashboardApi }> {
  const api = new DashboardApi();
  await api.signUp({ email: `i18n.${Date.now()}.${++accounts}@example.test`, password: 'correct horse battery', account_name: 'Sprachen' });
  await prepare?.(api);
  history.replaceState(null, '', `#/${route}`);
  const app = await fixture<AicdApp>(html`<aicd-app .api=${api}></aicd-app>`);
  await until(() => deep(app, 'nav'), 'the signed-in shell');
  return { app, api };
}

const navLabels = (root: Element) => deepAll<HTMLAnchorElement>(root, 'nav a').map((a) => a.textContent!.trim());
const heading = (root: Element, tag: string) => deep(deep(root, tag) ?? root, 'h1')?.textContent?.trim();

afterEach(async () => {
  localStorage.removeItem('aicd-locale');
  await setLocale('en');
  await signOut();
  history.replaceState(null, '', location.pathname);
});

describe('dashboard languages', () => {
  it('is English by default in an English browser', async () => {
    expect(navigator.language).to.match(/^en\b/);
    const { app } = await signedIn('keys');
    expect(navLabels(app)[0]).to.equal('Overview');
    expect(document.documentElement.lang).to.equal('en');
    expect(deep<HTMLSelectElement>(app, 'select[name="language"]')!.value).to.equal('en');
  });

  it('switches to German from the picker without a reload, and keeps it across a reload', async function () {
    this.timeout(40_000);
    const { app } = await signedIn('keys');
    await until(() => heading(app, 'aicd-keys-page') === 'API keys', 'the keys page');
    // The German catalog is fetched when German is chosen, not before (English is in the first load).
    const german = () => performance.getEntriesByType('resource').some((r) => r.name.includes('/i18n/de/'));
    expect(german(), 'German loaded before it was chosen').to.equal(false);
    await fill(app, 'language', 'de');
    await until(() => heading(app, 'aicd-keys-page') === 'API-Schlüssel', 'the keys page in German');
    expect(german(), 'German loaded once chosen').to.equal(true);
    expect(navLabels(app)).to.include.members(['Übersicht', 'Bots', 'Wissen', 'Posteingang', 'Konto']);
    expect(button(app, 'Abmelden'), 'the shell').to.exist;
    expect(button(deep(app, 'aicd-keys-page')!, 'Schlüssel erstellen'), 'the page').to.exist;
    expect(document.documentElement.lang).to.equal('de');
    expect(document.documentElement.dir).to.equal('ltr');
    expect(document.title).to.equal('API-Schlüssel · ai-chat-widget-Dashboard');

    location.hash = '#/overview';
    await until(() => heading(app, 'aicd-overview-page') === 'Übersicht', 'the overview in German');

    // A reload: the dashboard page itself, in a frame on this origin (same storage and cookie).
    const frame = document.createElement('iframe');
    frame.src = '/src/dashboard/index.html#/keys';
    document.body.append(frame);
    try {
      const inFrame = await until(() => frame.contentDocument?.querySelector('aicd-app'), 'the shell in the frame', 20_000);
      await until(() => heading(inFrame, 'aicd-keys-page') === 'API-Schlüssel', 'the reloaded keys page in German', 20_000);
      expect(frame.contentDocument!.documentElement.lang).to.equal('de');
      expect(deep<HTMLSelectElement>(inFrame, 'select[name="language"]')!.value).to.equal('de');
    } finally {
      frame.remove();
    }
  });

  it('turns right to left in Arabic, and axe finds nothing', async () => {
    const { app } = await signedIn('keys');
    await until(() => heading(app, 'aicd-keys-page'), 'the keys page');
    await fill(app, 'language', 'ar');
    await until(() => document.documentElement.dir === 'rtl', 'dir="rtl"');
    expect(document.documentElement.lang).to.equal('ar');
    await until(() => heading(app, 'aicd-keys-page') === 'مفاتيح API', 'the keys page in Arabic');
    // The navigation moves to the right, beside the page.
    const nav = deep(app, 'nav')!.getBoundingClientRect();
    const main = deep(app, 'main')!.getBoundingClientRect();
    expect(nav.left).to.be.greaterThan(main.left);
    await expect(app).to.be.accessible();
  });

  it('formats dates in the chosen language', async () => {
    let created = '';
    const { app } = await signedIn('keys', async (api) => void (created = (await api.createKey({ label: 'dated' })).key.created_at));
    await fill(app, 'language', 'fr');
    const page = await until(() => heading(app, 'aicd-keys-page') === 'Clés API' && deep(app, 'aicd-keys-page'), 'the keys page in French');
    const row = await until(() => deepAll(page, 'tbody tr').find((tr) => tr.textContent!.includes('dated')), 'the new key');
    const french = new Intl.DateTimeFormat('fr', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(created));
    expect(row.querySelectorAll('td')[3]!.textContent!.trim()).to.equal(french);
    expect(row.querySelectorAll('td')[5]!.textContent!.trim()).to.equal('Jamais', 'last used');
  });
});
