// The dashboard shell and its account pages in real Chromium against the real service (mounted in
// the dev server: /dashboard/api and the /v1 passthrough): sign up, sign out, sign in, create an
// API key whose secret calls /v1/chat (200), revoke it (401 within 1 s), team and invites, roles,
// password change, the overview charts with their tables, hostile text, axe and the keyboard.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { LitElement } from 'lit';
import { DashboardApi } from '../../src/dashboard/api.js';
import '../../src/dashboard/app.js';
import type { AicdApp } from '../../src/dashboard/app.js';
import { loadPage, resolveRoute, ROUTES } from '../../src/dashboard/routes.js';
import { button, confirmDialog, deep, deepAll, deepText, fill, HOSTILE, tabTo, until } from './helpers.js';

const PASSWORD = 'correct horse battery';
let counter = 0;
const email = (name: string) => `${name}.${Date.now()}.${counter++}@example.test`;

/** The shell on `#/<route>`, with its own API instance (the browser's cookie is shared by all). */
async function mountApp(route = 'overview'): Promise<AicdApp> {
  history.replaceState(null, '', `#/${route}`);
  return fixture<AicdApp>(html`<aicd-app .api=${new DashboardApi()}></aicd-app>`);
}

async function signUpInUi(app: AicdApp, address: string, accountName = ''): Promise<void> {
  const signIn = await until(() => deep(app, 'aicd-sign-in'), 'the sign-in view');
  await until(() => button(signIn, 'Create account') || button(signIn, 'Create an account'), 'sign-up');
  button(signIn, 'Create an account')?.click();
  await until(() => button(signIn, 'Create account'), 'the sign-up form');
  await fill(signIn, 'email', address);
  await fill(signIn, 'password', PASSWORD);
  if (accountName && deep(signIn, '[name="account_name"]')) await fill(signIn, 'account_name', accountName);
  button(signIn, 'Create account')!.click();
  await until(() => deep(app, 'nav'), 'the signed-in shell');
}

async function openPage<E extends HTMLElement>(app: AicdApp, route: string, tag: string): Promise<E> {
  location.hash = `#/${route}`;
  return until(() => deep<E>(app, tag), `<${tag}>`);
}

const chat = (secret: string) =>
  fetch('/v1/chat', {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content: 'hello' }] }),
  });

/** Ends the browser's session from outside the shell (as another tab would). */
async function signOutElsewhere(): Promise<void> {
  const other = new DashboardApi();
  if (await other.me()) await other.signOut(); // me() gives it the CSRF token sign-out needs
}

afterEach(async () => {
  await signOutElsewhere(); // the next test starts signed out
  history.replaceState(null, '', location.pathname);
});

describe('aicd-app (dashboard shell)', () => {
  it('signs up, shows every section in the navigation, signs out and signs in again', async () => {
    const app = await mountApp();
    const address = email('owner');
    await signUpInUi(app, address, 'Acme support');
    const links = deepAll<HTMLAnchorElement>(app, 'nav a').map((a) => a.textContent);
    expect(links).to.deep.equal(['Overview', 'Bots', 'Agents', 'Knowledge', 'Conversations', 'Inbox', 'API keys', 'Channels', 'Webhooks', 'Team', 'Account']);
    expect(deep(app, 'nav a[aria-current="page"]')!.textContent).to.equal('Overview');
    await expect(app).to.be.accessible();

    button(app, 'Sign out')!.click();
    const signIn = await until(() => deep(app, 'aicd-sign-in'), 'the sign-in view');
    expect(await new DashboardApi().me()).to.equal(null, 'the session ended on the service');
    // Enabled, not only shown: the button is there (disabled) before the view knows whether to sign in or up.
    await until(() => button(signIn, 'Sign in')?.disabled === false, 'the sign-in form, ready');
    await fill(signIn, 'email', address);
    await fill(signIn, 'password', 'wrong password!!');
    button(signIn, 'Sign in')!.click();
    await until(() => deepText(signIn).includes('not correct'), 'the refusal');
    await expect(signIn).to.be.accessible();
    await fill(signIn, 'password', PASSWORD);
    button(signIn, 'Sign in')!.click();
    await until(() => deep(app, 'nav'), 'the shell again');
  });

  it('creates an API key whose secret (shown once) calls /v1/chat, then revokes it: 401 within 1 second', async () => {
    const app = await mountApp('keys');
    await signUpInUi(app, email('keys'), 'Keys account');
    const page = await until(() => deep(app, 'aicd-keys-page'), 'the keys page');
    await until(() => deepText(page).includes('requests per'), 'the plan');
    await fill(page, 'label', 'CI server');
    await fill(page, 'scope', 'full');
    button(page, 'Create key')!.click();
    const secret = (await until(() => deep(page, '.secret pre code'), 'the secret')).textContent!;
    expect(secret).to.match(/^aicw_sk_/);
    expect(deep(page, 'aicd-copy-button')).to.exist;
    // "Copy the key" and "I have copied it" stand apart, not touching
    const copy = button(page, 'Copy the key')!.getBoundingClientRect();
    const done = button(page, 'I have copied it')!.getBoundingClientRect();
    expect(Math.max(done.left - copy.right, done.top - copy.bottom)).to.be.at.least(4);
    expect(JSON.stringify({ ...localStorage, ...sessionStorage })).not.to.include(secret);
    expect(document.cookie).not.to.include(secret);
    await expect(page).to.be.accessible();

    expect((await chat(secret)).status).to.equal(200);

    button(page, 'I have copied it')!.click();
    await until(() => !deep(page, '.secret'), 'the secret to go');
    const prefix = secret.slice(0, 12);
    button(page, new RegExp(`^Revoke key ${prefix}`))!.click();
    await confirmDialog(page);
    const started = performance.now();
    let status = 0;
    while ((status = (await chat(secret)).status) !== 401 && performance.now() - started < 1000) await new Promise((r) => setTimeout(r, 25));
    expect(status).to.equal(401);
    await until(() => !deepAll(page, 'tbody code').some((code) => code.textContent!.startsWith(prefix)), 'the key to leave the list');
  });

  it('shows validation errors at the field', async () => {
    const app = await mountApp('keys');
    await signUpInUi(app, email('fields'), 'Fields account');
    const page = await until(() => deep(app, 'aicd-keys-page'), 'the keys page');
    await fill(page, 'expires_at', '2001-01-01T00:00');
    await fill(page, 'label', 'old');
    button(page, 'Create key')!.click();
    const input = await until(() => deep<HTMLInputElement>(page, 'input[name="expires_at"][aria-invalid="true"]'), 'the field error');
    expect(deep(page, `#${input.getAttribute('aria-describedby')!.split(' ').at(-1)}`)!.textContent).to.match(/future/i);
  });

  it('invites a teammate by link; the member sees keys and team read-only', async () => {
    const app = await mountApp('team');
    await signUpInUi(app, email('team-owner'), 'Team account');
    const team = await until(() => deep(app, 'aicd-team-page'), 'the team page');
    button(team, 'Create invite link')!.click();
    const url = (await until(() => deep(team, 'pre code'), 'the invite link')).textContent!;
    expect(url).to.match(/\/dashboard\/#invite=[A-Za-z0-9_-]+$/);
    await until(() => deepText(team).includes('Pending invites'), 'the pending invite');
    await expect(team).to.be.accessible();

    button(app, 'Sign out')!.click();
    await until(() => deep(app, 'aicd-sign-in'), 'signed out');
    app.remove();
    const memberEmail = email('member');
    history.replaceState(null, '', `#invite=${url.split('#invite=')[1]}`);
    const joined = await fixture<AicdApp>(html`<aicd-app .api=${new DashboardApi()}></aicd-app>`);
    const signIn = await until(() => deep(joined, 'aicd-sign-in'), 'the sign-up view');
    await until(() => deepText(signIn).includes('You were invited'), 'the invite notice');
    await fill(signIn, 'email', memberEmail);
    await fill(signIn, 'password', PASSWORD);
    button(signIn, 'Create account')!.click();
    await until(() => deep(joined, 'nav'), 'the member’s shell');
    expect(location.hash).to.equal('#/overview', 'the used invite token left the address bar');
    expect(deepText(joined)).to.include('Team account');

    const memberTeam = await openPage(joined, 'team', 'aicd-team-page');
    await until(() => deepText(memberTeam).includes(memberEmail), 'the teammates');
    expect(deepText(memberTeam)).to.include('Only owners can invite');
    expect(button(memberTeam, /^Remove/)?.outerHTML).to.equal(undefined);
    const keys = await openPage(joined, 'keys', 'aicd-keys-page');
    await until(() => deepText(keys).includes('Only owners can create'), 'the read-only keys page');
    expect(deep(keys, 'input[name="label"]')?.outerHTML).to.equal(undefined);
    expect(button(keys, /^Revoke/)?.outerHTML).to.equal(undefined);
    await expect(keys).to.be.accessible();
  });

  it('changes the password: a wrong current one is shown at its field', async () => {
    const app = await mountApp('account');
    const address = email('password');
    await signUpInUi(app, address, 'Password account');
    const page = await until(() => deep(app, 'aicd-account-page'), 'the account page');
    await fill(page, 'current_password', 'not my password');
    await fill(page, 'new_password', 'a brand new passphrase');
    button(page, 'Change password')!.click();
    await until(() => deep(page, 'input[name="current_password"][aria-invalid="true"]'), 'the field error');
    await fill(page, 'current_password', PASSWORD);
    button(page, 'Change password')!.click();
    await until(() => deepText(page).includes('Password changed'), 'the confirmation');
    await expect(page).to.be.accessible();
    // The new session (and CSRF token) is in use: a write still works.
    const api = (app as unknown as { api: DashboardApi }).api;
    expect((await api.client.bots.create({ name: 'after the change' })).status).to.equal(201);
  });

  it('shows the overview charts with a table view for each', async () => {
    const app = await mountApp('overview');
    await signUpInUi(app, email('overview'), 'Overview account');
    const api = (app as unknown as { api: DashboardApi }).api;
    const { data: reply } = await api.client.chat.send({ messages: [{ role: 'user', content: 'hello there' }] });
    // a visitor's thumbs down (the conversation has no user: rated without user_id)
    await api.client.feedback.give(reply.message.id, { rating: 'down', reason: 'not_helpful' });
    // Reload the page so it reads the conversation just made.
    location.hash = '#/account';
    await until(() => deep(app, 'aicd-account-page'), 'another page');
    const page = await openPage(app, 'overview', 'aicd-overview-page');
    const charts = await until(() => (deepAll(page, 'aicd-chart').length === 4 ? deepAll(page, 'aicd-chart') : null), 'four charts');
    await until(() => charts.every((chart) => deep(chart, 'canvas')), 'the canvases');
    for (const chart of charts) {
      const rows = deepAll(chart, 'tbody tr');
      expect(rows).to.have.length(7, 'a row per day');
      expect(deep(chart, '.plot')!.getAttribute('aria-hidden')).to.equal('true');
    }
    const conversations = deepAll(charts[0]!, 'tbody tr td').map((td) => Number(td.textContent));
    expect(conversations.reduce((a, b) => a + b, 0)).to.be.greaterThan(0);
    const toggle = button(charts[0]!, 'Show table')!;
    toggle.click();
    await until(() => toggle.getAttribute('aria-expanded') === 'true', 'the table shown');
    expect(deep(charts[0]!, 'table')!.classList.contains('visually-hidden')).to.equal(false);
    expect(deepText(page)).to.include('Feedback');
    const feedback = deepAll(charts[3]!, 'tbody tr td').map((td) => Number(td.textContent));
    expect(feedback.reduce((a, b) => a + b, 0)).to.equal(1, 'the thumbs down in the feedback chart');
    const downvoted = deepAll(page, 'section[aria-labelledby="downvoted-title"] td').map((td) => td.textContent);
    expect(downvoted.slice(0, 4)).to.deep.equal([reply.message.content.slice(0, 500), '1', '0', reply.conversation_id]);
    expect(deepText(page)).to.include('Not helpful');
    // The question the shell asked got a fallback (a new account has no bot trained for it).
    await until(() => deepAll(page, 'section[aria-labelledby="unanswered-title"] td').some((td) => td.textContent === 'hello there'), 'the unanswered question');
    await expect(page).to.be.accessible();
  });

  it('renders a hostile unanswered question as text in the overview', async () => {
    const app = await mountApp('account');
    await signUpInUi(app, email('hostile-question'), 'Hostile question');
    const api = (app as unknown as { api: DashboardApi }).api;
    const { data: bot } = await api.client.bots.create({ name: HOSTILE.slice(0, 100) });
    await api.client.chat.send({ bot_id: bot.id, messages: [{ role: 'user', content: HOSTILE }] });
    const page = await openPage(app, 'overview', 'aicd-overview-page');
    await until(() => deepAll(page, 'td').some((td) => td.textContent!.startsWith('<img src=x')), 'the question as text');
    expect(deepAll(page, 'img, script, b')).to.have.length(0);
    expect(globalThis.__pwned).to.equal(0);
  });

  it('renders hostile names and labels as text', async () => {
    const app = await mountApp('keys');
    await signUpInUi(app, email('hostile'), HOSTILE.slice(0, 100));
    const page = await until(() => deep(app, 'aicd-keys-page'), 'the keys page');
    await fill(page, 'label', HOSTILE.slice(0, 100));
    button(page, 'Create key')!.click();
    await until(() => deep(page, '.secret'), 'the new key');
    await until(() => deepAll(page, 'tbody td').some((td) => td.textContent!.includes('<img src=x')), 'the label as text');
    expect(deepText(app)).to.include('<script>');
    expect(deepAll(app, 'img, script, b')).to.have.length(0);
    expect(globalThis.__pwned).to.equal(0);
  });

  it('is reachable by keyboard: navigation, and Enter follows a link', async () => {
    const app = await mountApp('overview');
    await signUpInUi(app, email('keyboard'), 'Keyboard account');
    const keysLink = deepAll<HTMLAnchorElement>(app, 'nav a').find((a) => a.textContent === 'API keys')!;
    expect(await tabTo(keysLink)).to.equal(true);
    await sendKeys({ press: 'Enter' });
    await until(() => deep(app, 'aicd-keys-page'), 'the keys page');
    await until(() => deep(app, 'nav a[aria-current="page"]')?.textContent === 'API keys', 'the current link');
    const label = await until(() => deep<HTMLInputElement>(app, 'input[name="label"]'), 'the form');
    expect(await tabTo(label)).to.equal(true);
  });

  it('signs the shell out when the session ends elsewhere (a 401 from any call)', async () => {
    const app = await mountApp('keys');
    await signUpInUi(app, email('elsewhere'), 'Elsewhere account');
    await until(() => deep(app, 'aicd-keys-page'), 'the keys page');
    await signOutElsewhere(); // same browser cookie: this ends the shell's session too
    location.hash = '#/overview'; // the overview's calls answer 401
    await until(() => deep(app, 'aicd-sign-in'), 'the sign-in view');
  });

  it('offers sign-up only once the service has said how, so the account name is asked for', async () => {
    /** The real service's answer, held back until the test lets it through. */
    class HeldInfo extends DashboardApi {
      release!: () => void;
      private readonly released = new Promise<void>((resolve) => (this.release = resolve));
      override async signupInfo() {
        await this.released;
        return super.signupInfo();
      }
    }
    const api = new HeldInfo();
    history.replaceState(null, '', '#/overview');
    const app = await fixture<AicdApp>(html`<aicd-app .api=${api}></aicd-app>`);
    const signIn = await until(() => deep<LitElement>(app, 'aicd-sign-in'), 'the sign-in view');
    try {
      await signIn.updateComplete;
      // a boolean: a failing assertion carrying the element itself does not serialise for the report
      expect(button(signIn, 'Create an account') === undefined, 'no way to sign up before the answer').to.equal(true);
    } finally {
      api.release();
    }
    (await until(() => button(signIn, 'Create an account'), 'the sign-up switch')).click();
    await until(() => deep(signIn, '[name="account_name"]'), 'the account-name field (the install is claimed)');
  });
});

describe('routes.ts', () => {
  it('maps hashes to pages with their parameters, and every page of the table loads', async () => {
    expect(resolveRoute('#/bots/bot_abc')).to.deep.include({ params: { botId: 'bot_abc' } });
    expect(resolveRoute('#/bots/bot_abc')!.entry.tag).to.equal('aicd-bot-editor');
    expect(resolveRoute('#/bots/bot_abc/channels')).to.deep.include({ params: { botId: 'bot_abc' } });
    expect(resolveRoute('#/bots/bot_abc/channels')!.entry.tag).to.equal('aicd-channels-page');
    expect(resolveRoute('#/channels')).to.deep.include({ params: {} });
    expect(resolveRoute('#/nowhere')).to.equal(null);
    for (const entry of ROUTES) expect(await loadPage(entry), entry.module).to.equal(null);
  });

  it('reports a page module that does not exist instead of failing', async () => {
    const problem = await loadPage({ path: /^x$/, tag: 'aicd-nope-page', module: 'nope-page', title: 'Nope', nav: 'overview' });
    expect(problem).to.be.a('string');
  });
});

describe('the shell and its pages in the built dashboard, under a strict Content-Security-Policy', () => {
  let frame: HTMLIFrameElement | undefined;
  afterEach(() => frame?.remove());

  it('sign-in, overview charts, keys (a new secret), team and account run without a violation', async function () {
    this.timeout(60_000);
    // /dist/* is served with `script-src 'self'; style-src 'self'` (test/support/csp-pages.mjs) and
    // may be framed, unlike /dashboard/ itself; its scripts are the same files.
    const built = await fetch('/dist/dashboard/index.html');
    expect(built.status, 'dist/dashboard is missing: run `npm run build` first').to.equal(200);
    frame = document.createElement('iframe');
    const loaded = new Promise((resolve) => frame!.addEventListener('load', resolve, { once: true }));
    frame.src = '/dist/dashboard/index.html#/overview';
    document.body.append(frame);
    await loaded;
    const doc = frame.contentDocument!;
    const violations: string[] = [];
    doc.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.violatedDirective}: ${e.sample || e.blockedURI}`));
    const app = await until(() => doc.querySelector('aicd-app'), 'the shell in the frame');

    await signUpInUi(app as AicdApp, email('csp'), 'CSP account');
    await until(() => deep(app, 'aicd-overview-page'), 'the overview', 15_000);
    // something to draw (a new account's charts say "No data yet"): a chat and a thumbs down, then the overview again
    const api = (app as unknown as { api: DashboardApi }).api;
    const { data: reply } = await api.client.chat.send({ messages: [{ role: 'user', content: 'hello there' }] });
    await api.client.feedback.give(reply.message.id, { rating: 'down' });
    frame.contentWindow!.location.hash = '#/account';
    await until(() => deep(app, 'aicd-account-page'), 'another page', 15_000);
    frame.contentWindow!.location.hash = '#/overview';
    const overview = await until(() => deep(app, 'aicd-overview-page'), 'the overview', 15_000);
    await until(() => deepAll(overview, 'aicd-chart').length === 4 && deepAll(overview, 'aicd-chart').every((c) => deep(c, 'canvas')), 'the four charts', 15_000);
    const swatch = await until(() => deep(deepAll(overview, 'aicd-chart')[0]!, '.swatch'), 'a legend swatch');
    expect(getComputedStyle(swatch).backgroundColor).not.to.equal('rgba(0, 0, 0, 0)', 'colours set through the CSSOM');

    frame.contentWindow!.location.hash = '#/keys';
    const keys = await until(() => deep(app, 'aicd-keys-page'), 'the keys page', 15_000);
    await until(() => deep(keys, 'input[name="label"]'), 'the key form');
    await fill(keys, 'label', 'under CSP');
    button(keys, 'Create key')!.click();
    await until(() => deep(keys, '.secret pre code'), 'the secret');
    frame.contentWindow!.location.hash = '#/team';
    await until(() => deep(app, 'aicd-team-page') && deep(deep(app, 'aicd-team-page')!, 'tbody td'), 'the team page', 15_000);
    frame.contentWindow!.location.hash = '#/account';
    await until(() => deep(app, 'aicd-account-page'), 'the account page', 15_000);
    button(app, 'Sign out')!.click();
    await until(() => deep(app, 'aicd-sign-in'), 'signed out');
    expect(violations).to.deep.equal([]);
  });
});

describe('an invite link opened while signed in', () => {
  it('says to sign out first instead of showing nothing', async () => {
    const app = await mountApp('overview');
    await signUpInUi(app, email('signed-in-invite'), 'Signed in');
    location.hash = '#invite=sometoken123';
    const main = await until(() => deep(app, 'main'), 'the page');
    await until(() => deepText(main).includes('sign out first'), 'the notice');
    await expect(app).to.be.accessible();
    deep<HTMLAnchorElement>(main, 'a')!.click();
    await until(() => deep(app, 'aicd-overview-page'), 'the overview again');
  });
});
