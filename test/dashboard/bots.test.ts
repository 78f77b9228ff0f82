// The bots page against the real service in real Chromium: create and train a bot in the editor,
// talk to it in the live preview (the real <ai-chat-widget>), the embed snippets, field-level
// validation errors, hostile names as text, delete with confirmation, axe and keyboard.
import { installSnippet } from '../../src/dashboard/pages/embed-snippet.js';
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { DashboardApi } from '../../src/dashboard/api.js';
import '../../src/dashboard/pages/bot-editor.js';
import '../../src/dashboard/pages/conversations-page.js';
import type { AicdConversationsPage } from '../../src/dashboard/pages/conversations-page.js';
import type { ExportFile } from '../../src/dashboard/pages/conversation-export.js';
import type { AicdBotEditor } from '../../src/dashboard/pages/bot-editor.js';
import '../../src/dashboard/pages/bots-page.js';
import type { AicdBotsPage } from '../../src/dashboard/pages/bots-page.js';
import type { AiChatWidget } from '../../src/element.js';
import { button, confirmDialog, deep, deepActiveElement, deepAll, fill, HOSTILE, newTenant, signOut, tabTo, until, type Tenant } from './helpers.js';

async function mountList(tenant: Tenant): Promise<AicdBotsPage> {
  const el = await fixture<AicdBotsPage>(html`<aicd-bots-page .client=${tenant.client}></aicd-bots-page>`);
  await until(() => deep(el, 'table') || el.shadowRoot!.textContent!.includes('No bots'), 'the first page');
  return el;
}

/** The bot's page (`#/bots/<id>`, or `new`), its preview pointed at the tenant. */
async function mountEditor(tenant: Tenant, botId = 'new'): Promise<AicdBotEditor> {
  const el = await fixture<AicdBotEditor>(
    html`<aicd-bot-editor .client=${tenant.client} .botId=${botId} .previewBaseUrl=${tenant.baseUrl} .csrfToken=${tenant.token}></aicd-bot-editor>`,
  );
  await until(() => deep(el, 'form'), 'the form');
  return el;
}

const submit = (el: Element) => deepAll<HTMLButtonElement>(el, 'form button[type="submit"]')[0]!.click();
const links = (el: Element) => deepAll<HTMLAnchorElement>(el, 'tbody td a').map((a) => [a.textContent, a.getAttribute('href')]);

/** Types a message into the preview widget and waits for the bot's answer. */
async function ask(widget: AiChatWidget, text: string): Promise<string> {
  const before = deepAll(widget, '[part~="message-assistant"]').length;
  const input = deep<HTMLTextAreaElement>(widget, 'textarea[part="input"]')!;
  input.focus();
  await sendKeys({ type: text });
  await sendKeys({ press: 'Enter' });
  const replies = await until(() => {
    const all = deepAll(widget, '[part~="message-assistant"]');
    return all.length > before ? all : null;
  }, 'the bot to answer');
  return replies.at(-1)!.textContent!.trim();
}

describe('aicd-bots-page', () => {
  it('creates and trains a bot, talks to it in the preview, and offers its embed snippets', async () => {
    const tenant = await newTenant();
    const el = await mountEditor(tenant);
    await fill(el, 'name', 'Shop helper');
    await fill(el, 'language', 'en');
    await fill(el, 'training.intents.0.name', 'hours');
    await fill(el, 'training.intents.0.examples', 'opening hours\nwhen are you open\nwhat time do you open');
    await fill(el, 'training.intents.0.responses', 'We are open 9 to 5, Monday to Friday.');
    await fill(el, 'training.intents.0.suggestions', 'Pricing');
    await fill(el, 'quick_replies', 'Opening hours\nPricing');
    await fill(el, 'channels', 'https://shop.example');
    await fill(el, 'knowledge', 'tags');
    await fill(el, 'knowledge-tags', 'docs, faq');
    submit(el);

    const widget = await until(() => deep<AiChatWidget>(el, 'ai-chat-widget'), 'the preview', 20_000);
    const [bot] = (await tenant.client.bots.list()).data.items;
    expect(bot).to.include({ name: 'Shop helper', status: 'ready', language: 'en' });
    expect(bot!.quick_replies).to.deep.equal(['Opening hours', 'Pricing']);
    expect(bot!.channels).to.deep.equal([{ type: 'website', allowed_origins: ['https://shop.example'] }]);
    expect(bot!.knowledge).to.deep.equal({ tags: ['docs', 'faq'] });
    expect(bot!.training.intents).to.deep.equal([
      { name: 'hours', examples: ['opening hours', 'when are you open', 'what time do you open'], responses: ['We are open 9 to 5, Monday to Friday.'], suggestions: ['Pricing'] },
    ]);
    expect(widget.botId).to.equal(bot!.id);
    expect(el.botId).to.equal(bot!.id);
    expect(deep(el, 'h1')!.textContent).to.equal('Shop helper');
    expect(deep(el, '[role="status"]')!.textContent).to.equal('Saved. The bot is ready.');

    expect(await ask(widget, 'when are you open')).to.include('We are open 9 to 5');
    const conversations = (await tenant.client.conversations.list({ bot_id: bot!.id })).data.items;
    expect(conversations).to.have.length(1);
    expect(conversations[0]!.user_id).to.equal('dashboard-preview');

    // the bot lists its site: the one snippet, with no key and no proxy (test/widget/one-snippet.test.ts pastes it)
    const install = deep(el, '.snippet-install')!.textContent!;
    expect(install).to.include(`bot-id="${bot!.id}"`).and.include(`base-url="${location.origin}/v1"`).and.include('/dist/ai-chat-widget.iife.js');
    expect(install).not.to.include('token-url').and.not.include(tenant.token);
    expect(install).to.equal(installSnippet(bot!, location.origin), 'the text test/node/one-snippet.test.ts pastes');
    expect(deep(el, '.snippet-needs-origin')).to.not.exist;
    // sites that sign their users in: the proxy's script tag and the proxies
    const script = deep(el, '.snippet-script')!.textContent!;
    expect(script).to.include(`bot-id="${bot!.id}"`).and.include('token-url=').and.include('/dist/ai-chat-widget.iife.js');
    const proxy = deep(el, '.snippet-proxy')!.textContent!;
    expect(proxy).to.include(`botId: "${bot!.id}"`).and.include('["https://shop.example"]').and.include('process.env.AI_CHAT_API_KEY');
    expect(proxy).not.to.include(tenant.token, 'no key in a snippet');
    // the proxy is served where the script tag's token-url points: test/node/embed-snippets.test.ts runs both
    expect(proxy).to.include(`basePath: "/ai"`);
    const nextjs = deep(el, '.snippet-nextjs')!.textContent!;
    expect(nextjs).to.include(`basePath: "/ai"`).and.include('export const GET = proxy.fetch;').and.include('export const POST = proxy.fetch;');
    const copies = deepAll<HTMLElement & { text: string }>(el, 'aicd-copy-button');
    expect(copies.map((c) => c.text)).to.deep.equal([install, script, proxy, nextjs]);
  });

  it('edits a bot on its own page: a saved change retrains it', async () => {
    const tenant = await newTenant();
    await tenant.client.bots.create({ name: 'Old name', training: { intents: [{ name: 'hi', examples: ['hello'], responses: ['Hi!'] }] } });
    const list = await mountList(tenant);
    const [[, href]] = links(list);
    const el = await mountEditor(tenant, decodeURIComponent(href!.replace('#/bots/', '')));
    expect(deep<HTMLInputElement>(el, 'input[name="name"]')!.value).to.equal('Old name');
    await fill(el, 'name', 'New name');
    await fill(el, 'training.intents.0.responses', 'Hello there!');
    submit(el);
    await until(() => deep(el, 'h1')?.textContent === 'New name', 'the saved name');
    const [bot] = (await tenant.client.bots.list()).data.items;
    expect(bot!.training.intents[0]!.responses).to.deep.equal(['Hello there!']);
    expect(bot!.status).to.equal('ready');
  });

  it('shows validation errors at the fields the service names', async () => {
    const tenant = await newTenant();
    const el = await mountEditor(tenant);
    await fill(el, 'name', 'Valid');
    await fill(el, 'training.intents.0.name', 'Not Valid!'); // intent names are [a-z0-9_.-]
    await fill(el, 'training.intents.0.examples', 'hello');
    await fill(el, 'training.intents.0.responses', 'Hi');
    await fill(el, 'channels', 'not an origin');
    submit(el);
    const intentName = await until(() => deep<HTMLInputElement>(el, 'input[name="training.intents.0.name"][aria-invalid="true"]'), 'the intent name marked invalid');
    expect(deep(el, '#f-training-intents-0-name-error')!.textContent).to.match(/name/);
    expect(deep(el, 'textarea[name="channels"]')!.getAttribute('aria-invalid')).to.equal('true');
    expect(deep(el, 'input[name="name"]')!.getAttribute('aria-invalid')).to.equal('false');
    expect(deep(el, 'textarea[name="training.intents.0.examples"]')!.getAttribute('aria-invalid')).to.equal('false');
    expect(intentName.getAttribute('aria-describedby')).to.include('f-training-intents-0-name-error');
    expect((await tenant.client.bots.list()).data.items).to.deep.equal([]);
  });

  it('shows an entity pattern the service refuses at the pattern field', async () => {
    const tenant = await newTenant();
    const el = await mountEditor(tenant);
    await fill(el, 'name', 'With entities');
    await fill(el, 'training.intents.0.name', 'order');
    await fill(el, 'training.intents.0.examples', 'order {sku}');
    await fill(el, 'training.intents.0.responses', 'Ordering {sku}.');
    button(el, 'Add entity')!.click();
    await el.updateComplete;
    await fill(el, 'training.entities.0.name', 'sku');
    await fill(el, 'training.entities.0.type', 'regex');
    await fill(el, 'training.entities.0.pattern', '(unclosed');
    submit(el);
    const pattern = await until(() => deep<HTMLInputElement>(el, 'input[name="training.entities.0.pattern"][aria-invalid="true"]'), 'the pattern marked invalid');
    expect(deep(el, '#f-training-entities-0-pattern-error')!.textContent).to.match(/RE2/).and.not.match(/^Invalid body/);
    expect(pattern.getAttribute('aria-describedby')).to.include('f-training-entities-0-pattern-error');

    await fill(el, 'training.entities.0.pattern', 'SKU-[0-9]{4}');
    submit(el);
    await until(() => deep(el, 'h1')?.textContent === 'With entities', 'the saved bot');
    const [bot] = (await tenant.client.bots.list()).data.items;
    expect(bot!.training.entities).to.deep.equal([{ name: 'sku', type: 'regex', pattern: 'SKU-[0-9]{4}' }]);
  });

  it('renders hostile bot names and intents as text, in the list, the editor and the snippet', async () => {
    const tenant = await newTenant();
    const name = HOSTILE.slice(0, 100);
    const { data: bot } = await tenant.client.bots.create({ name, training: { intents: [{ name: 'x', examples: [HOSTILE], responses: [HOSTILE] }] } });
    const list = await mountList(tenant);
    expect(links(list)).to.deep.equal([[name, `#/bots/${bot.id}`]]);
    const el = await mountEditor(tenant, bot.id);
    await until(() => deep(el, '.snippet-script'), 'the snippets');
    // no website origin listed yet: the owner is told to add one, and no one-snippet install shows
    expect(deep(el, '.snippet-needs-origin')!.textContent).to.include('Allowed website origins');
    expect(deep(el, '.snippet-install')).to.not.exist;
    expect(deep(el, 'h1')!.textContent).to.equal(name);
    expect(deep<HTMLTextAreaElement>(el, 'textarea[name="training.intents.0.responses"]')!.value).to.equal(HOSTILE);
    // In the snippet the name is an escaped attribute value: pasted, it cannot open a tag.
    expect(deep(el, '.snippet-script')!.textContent).to.include('title="&lt;img src=x onerror=&quot;__pwned++&quot;&gt;');
    expect(deepAll(list, 'img, script:not([src]), b')).to.deep.equal([]);
    expect(deepAll(el, 'aicd-bot-editor img, form b, pre b, h1 b, script:not([src])').filter((n) => !n.closest('ai-chat-widget'))).to.deep.equal([]);
    expect(globalThis.__pwned).to.equal(0);
  });

  it('deletes a bot from the list after confirming, and keeps it when cancelled', async () => {
    const tenant = await newTenant();
    await tenant.client.bots.create({ name: 'Doomed' });
    const el = await mountList(tenant);
    button(el, 'Delete Doomed')!.click();
    const dialog = await until(() => deepAll<HTMLDialogElement>(el, 'dialog').find((d) => d.open), 'the dialog');
    expect(dialog.textContent).to.include('every conversation started with it');
    dialog.querySelector<HTMLButtonElement>('button[value="cancel"]')!.click();
    await until(() => !dialog.open, 'the dialog to close');
    expect((await tenant.client.bots.list()).data.items).to.have.length(1);
    button(el, 'Delete Doomed')!.click();
    await confirmDialog(el);
    await until(() => el.shadowRoot!.textContent!.includes('No bots'), 'the empty list');
    expect((await tenant.client.bots.list()).data.items).to.deep.equal([]);
  });

  it('deletes a bot from its own page after confirming, then goes back to the list', async () => {
    const tenant = await newTenant();
    const { data: bot } = await tenant.client.bots.create({ name: 'Doomed too' });
    const el = await mountEditor(tenant, bot.id);
    let deleted = 0;
    el.addEventListener('aicd-bot-deleted', () => deleted++);
    button(el, 'Delete bot')!.click();
    await confirmDialog(el);
    await until(() => deleted === 1, 'the deleted event');
    expect(location.hash).to.equal('#/bots');
    expect((await tenant.client.bots.list()).data.items).to.deep.equal([]);
    history.replaceState(null, '', location.pathname);
  });

  it('saves what visitors may attach (on, types, size in MB, files per message), checking the numbers first', async () => {
    const tenant = await newTenant();
    const { data: bot } = await tenant.client.bots.create({ name: 'Files', training: { intents: [{ name: 'hi', examples: ['hello'], responses: ['Hi!'] }] } });
    const el = await mountEditor(tenant, bot.id);
    const control = (selector: string) => deep<HTMLInputElement>(el, selector)!;
    const type = (t: string) => control(`input[name="attachments.types"][value="${t}"]`);
    // the service's defaults: off, every type, 5 MB, 3 files
    expect(control('input[name="attachments.enabled"]').checked).to.equal(false);
    expect(deepAll<HTMLInputElement>(el, 'input[name="attachments.types"]').filter((c) => c.checked)).to.have.length(6);
    expect(control('input[name="attachments.max_file_bytes"]').value).to.equal('5');
    expect(control('input[name="attachments.max_files"]').value).to.equal('3');

    control('input[name="attachments.enabled"]').click();
    for (const t of ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain']) type(t).click();
    await fill(el, 'attachments.max_file_bytes', '0');
    await fill(el, 'attachments.max_files', '11');
    submit(el);
    // judged before sending: every problem at its field, the focus on the first
    await until(() => deep(el, '#f-attachments-max_file_bytes-error'), 'the size error');
    expect(deep(el, '#f-attachments-max_files-error')!.textContent).to.include('1 to 10');
    expect(deep(el, '#attachments-types-error')!.textContent).to.include('at least one type');
    expect(type('image/png').getAttribute('aria-invalid')).to.equal('true');
    expect(deepActiveElement()).to.equal(type('image/png'));
    expect((await tenant.client.bots.get(bot.id)).data.updated_at).to.equal(bot.updated_at);

    for (const t of ['image/png', 'image/webp', 'application/pdf']) type(t).click();
    await fill(el, 'attachments.max_file_bytes', '50'); // over the service's own limit (10 MB here)
    await fill(el, 'attachments.max_files', '4');
    submit(el);
    await until(() => /at most \d+ \(the service's limit\)/.test(deep(el, '#f-attachments-max_file_bytes-error')?.textContent ?? ''), "the service's refusal at the size field");
    const size = deep<HTMLInputElement>(el, 'input[name="attachments.max_file_bytes"]')!;
    expect(size.getAttribute('aria-invalid')).to.equal('true');
    expect(size.getAttribute('aria-describedby')).to.include('f-attachments-max_file_bytes-error');
    expect(deep(el, '#attachments-types-error')?.outerHTML).to.equal(undefined);

    await fill(el, 'attachments.max_file_bytes', '2.5');
    submit(el);
    await until(() => deep(el, '[role="status"]')?.textContent === 'Saved. The bot is ready.', 'the save');
    const { data: saved } = await tenant.client.bots.get(bot.id);
    expect(saved.attachments).to.deep.equal({ enabled: true, types: ['image/png', 'image/webp', 'application/pdf'], max_file_bytes: 2.5 * 1024 * 1024, max_files: 4 });
    // shown as saved when the page is opened again
    const again = await mountEditor(tenant, bot.id);
    expect(deep<HTMLInputElement>(again, 'input[name="attachments.enabled"]')!.checked).to.equal(true);
    expect(deepAll<HTMLInputElement>(again, 'input[name="attachments.types"]:checked').map((c) => c.value)).to.deep.equal(['image/png', 'image/webp', 'application/pdf']);
    expect(deep<HTMLInputElement>(again, 'input[name="attachments.max_file_bytes"]')!.value).to.equal('2.5');
  });

  it("says what the website origins really do: an empty list opens the bot to no other origin", async () => {
    const tenant = await newTenant();
    const el = await mountEditor(tenant);
    const hint = deep(el, `#${deep(el, 'textarea[name="channels"]')!.getAttribute('aria-describedby')!.split(' ')[0]}`)!.textContent!;
    // server/src/http/cors.ts answers CORS on a bot's routes only for the origins its website channel lists
    expect(hint).to.include('Empty: no other origin may');
    expect(hint).not.to.include('any origin');
  });

  it('is accessible, list and editor, and reachable by keyboard', async () => {
    const tenant = await newTenant();
    const { data: bot } = await tenant.client.bots.create({ name: 'Helper', training: { intents: [{ name: 'hi', examples: ['hello'], responses: ['Hi!'] }] } });
    const list = await mountList(tenant);
    await expect(list).to.be.accessible();
    expect(await tabTo(deep(list, 'tbody a')!)).to.equal(true);
    expect(await tabTo(button(list, 'Delete Helper')!)).to.equal(true);
    const el = await mountEditor(tenant, bot.id);
    await until(() => deep(el, 'ai-chat-widget'), 'the preview');
    await expect(el).to.be.accessible();
    expect(await tabTo(deep(el, 'input[name="attachments.enabled"]')!)).to.equal(true);
    expect(await tabTo(button(el, 'Save and train')!)).to.equal(true);
    expect(await tabTo(button(el, 'Copy the Express token proxy')!)).to.equal(true);
    expect(await tabTo(button(el, 'Copy the Next.js token proxy')!)).to.equal(true);
  });
});

describe('a bot, end to end through the signed-in session (no API key in the browser)', () => {
  afterEach(async () => {
    await signOut(); // the next test, or test file, starts signed out
  });

  it('creates and trains a bot, talks to it in the preview, finds that conversation, exports and deletes it', async () => {
    const api = new DashboardApi();
    await api.signUp({ email: `bots.${Date.now()}@example.test`, password: 'correct horse battery', account_name: 'Bots end to end' });
    // The pages as the shell gives them: the session's client and CSRF token; the preview's default base URL.
    const session = (await api.me())!;
    const el = await fixture<AicdBotEditor>(
      html`<aicd-bot-editor .client=${api.client} .csrfToken=${api.csrfToken} .session=${session} .botId=${'new'}></aicd-bot-editor>`,
    );
    await until(() => deep(el, 'form'), 'the form');
    await fill(el, 'name', 'Session bot');
    await fill(el, 'training.intents.0.name', 'returns');
    await fill(el, 'training.intents.0.examples', 'how do I return an item\nreturn policy\ncan I send it back');
    await fill(el, 'training.intents.0.responses', 'Returns are free within 30 days.');
    submit(el);
    const widget = await until(() => deep<AiChatWidget>(el, 'ai-chat-widget'), 'the preview', 20_000);
    expect(widget.baseUrl).to.equal('/dashboard/api/v1');
    expect(widget.apiKey).to.equal('');
    const [bot] = (await api.client.bots.list()).data.items;
    expect(bot).to.include({ name: 'Session bot', status: 'ready' });

    expect(await ask(widget, 'what is your return policy')).to.include('Returns are free within 30 days.');

    const page = await fixture<AicdConversationsPage>(html`<aicd-conversations-page .client=${api.client}></aicd-conversations-page>`);
    const open = await until(() => button(page, /^Open the conversation/), 'the conversation in the list');
    expect(deepAll(page, 'tbody td:nth-child(3)').map((td) => td.textContent)).to.deep.equal([`dashboard-preview:${session.user.id}`]);
    open.click();
    await until(() => deepAll(page, '.messages .text').length === 2, 'the transcript');
    expect(deepAll(page, '.messages .text').map((p) => p.textContent)).to.deep.equal(['what is your return policy', 'Returns are free within 30 days.']);

    const exported: ExportFile[] = [];
    page.addEventListener('aicd-export', (e) => exported.push((e as CustomEvent<ExportFile>).detail));
    button(page, 'Export JSON')!.click();
    button(page, 'Export CSV')!.click();
    expect(JSON.parse(exported[0]!.text).messages).to.have.length(2);
    expect(exported[1]!.text.trimEnd().split('\r\n')).to.have.length(3);

    button(page, 'Delete conversation')!.click();
    await confirmDialog(page);
    await until(() => page.shadowRoot!.textContent!.includes('No conversation'), 'the list without it');
    expect((await api.client.conversations.list({ bot_id: bot!.id })).data.items).to.deep.equal([]);
    expect(JSON.stringify({ ...localStorage, ...sessionStorage })).not.to.match(/aicw_sk_/, 'no API key kept in the browser');
  });
});

describe('the pages in the built dashboard, under a strict Content-Security-Policy', () => {
  let frame: HTMLIFrameElement | undefined;
  afterEach(async () => {
    frame?.remove();
    await signOut();
  });

  it('show bots, a bot with its live preview, agents, knowledge and conversations without a violation', async function () {
    this.timeout(60_000); // a whole session of six pages, each loaded on first visit
    // /dist/* is served with `script-src 'self'; style-src 'self'` (test/support/csp-pages.mjs) and may
    // be framed, unlike /dashboard/ itself (frame-ancestors 'none'); its scripts are the same files.
    const built = await fetch('/dist/dashboard/index.html');
    expect(built.status, 'dist/dashboard is missing: run `npm run build` first').to.equal(200);
    expect(built.headers.get('content-security-policy')).to.include("style-src 'self'").and.include("script-src 'self'");
    const api = new DashboardApi();
    await api.signUp({ email: `csp.${Date.now()}@example.test`, password: 'correct horse battery', account_name: 'CSP' });
    const { data: bot } = await api.client.bots.create({
      name: 'Under CSP',
      training: { intents: [{ name: 'hours', examples: ['opening hours', 'when are you open'], responses: ['We are open 9 to 5.'] }] },
    });
    await api.client.knowledge.create({ title: 'Refunds', content: 'Refunds within 30 days.' });
    await api.client.agents.create({ name: 'Helper', examples: [{ input: 'hi', output: 'Hello!' }] });

    frame = document.createElement('iframe');
    frame.className = 'csp-frame';
    const loaded = new Promise((resolve) => frame!.addEventListener('load', resolve, { once: true }));
    frame.src = '/dist/dashboard/index.html#/knowledge';
    document.body.append(frame);
    await loaded;
    const doc = frame.contentDocument!;
    const violations: string[] = [];
    doc.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.violatedDirective}: ${e.sample || e.blockedURI}`));
    /** `selector` inside the page element `tag` of the framed shell (selectors do not cross shadow roots). */
    const inPage = (tag: string, selector: string) => {
      const page = deep(doc, tag);
      return page && deep(page, selector);
    };
    await until(() => inPage('aicd-knowledge-page', 'table'), 'the knowledge page in the frame', 15_000);

    const visit = async (hash: string, tag: string, ready: string) => {
      frame!.contentWindow!.location.hash = hash;
      return until(() => inPage(tag, ready), `${hash} in the frame`, 15_000);
    };
    await visit('#/bots', 'aicd-bots-page', 'tbody a');
    const widget = (await visit(`#/bots/${bot.id}`, 'aicd-bot-editor', 'ai-chat-widget')) as AiChatWidget;
    expect((await widget.send('when are you open'))?.content).to.include('We are open 9 to 5.');
    await visit('#/agents', 'aicd-agents-page', 'tbody td');
    await visit('#/conversations', 'aicd-conversations-page', 'tbody td');
    const conversations = deep(doc, 'aicd-conversations-page')!;
    button(conversations, /^Open the conversation/)!.click();
    await until(() => deepAll(conversations, '.messages li').length === 2, 'the transcript');
    expect(violations).to.deep.equal([]);

    // The listener does see a violation: a style attribute is refused.
    doc.body.insertAdjacentHTML('beforeend', '<p style="color: red">x</p>');
    await until(() => violations.length > 0, 'the control violation');
    expect(violations[0]).to.match(/^style-src/);
  });
});
