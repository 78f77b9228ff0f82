// The bots page against the real service in real Chromium: create and train a bot in the editor,
// talk to it in the live preview (the real <ai-chat-widget>), the embed snippets, field-level
// validation errors, hostile names as text, delete with confirmation, axe and keyboard.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/dashboard/pages/bots-page.js';
import type { AicdBotsPage } from '../../src/dashboard/pages/bots-page.js';
import type { AiChatWidget } from '../../src/element.js';
import { button, confirmDialog, deep, deepAll, fill, HOSTILE, newTenant, tabTo, until, type Tenant } from './helpers.js';

async function mount(tenant: Tenant): Promise<AicdBotsPage> {
  const el = await fixture<AicdBotsPage>(
    html`<aicd-bots-page .client=${tenant.client} .previewBaseUrl=${tenant.baseUrl} .csrfToken=${tenant.token}></aicd-bots-page>`,
  );
  await until(() => deep(el, 'table') || el.shadowRoot!.textContent!.includes('No bots'), 'the first page');
  return el;
}

const editor = (el: Element) => deep(el, 'aicd-bot-editor')!;
const submit = (el: Element) => deepAll<HTMLButtonElement>(editor(el), 'form button[type="submit"]')[0]!.click();

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
    const el = await mount(tenant);
    button(el, 'New bot')!.click();
    await until(() => deep(el, 'aicd-bot-editor'), 'the editor');
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

    expect(await ask(widget, 'when are you open')).to.include('We are open 9 to 5');
    const conversations = (await tenant.client.conversations.list({ bot_id: bot!.id })).data.items;
    expect(conversations).to.have.length(1);
    expect(conversations[0]!.user_id).to.equal('dashboard-preview');

    const script = deep(el, '.snippet-script')!.textContent!;
    expect(script).to.include(`bot-id="${bot!.id}"`).and.include('token-url=').and.include('/dist/ai-chat-widget.iife.js');
    const proxy = deep(el, '.snippet-proxy')!.textContent!;
    expect(proxy).to.include(`botId: "${bot!.id}"`).and.include('["https://shop.example"]').and.include('process.env.AI_CHAT_API_KEY');
    expect(proxy).not.to.include(tenant.token, 'no key in a snippet');
    const copies = deepAll<HTMLElement & { text: string }>(el, 'aicd-copy-button');
    expect(copies.map((c) => c.text)).to.deep.equal([script, proxy]);
  });

  it('edits a bot: a saved change retrains it and the list shows the new name', async () => {
    const tenant = await newTenant();
    await tenant.client.bots.create({ name: 'Old name', training: { intents: [{ name: 'hi', examples: ['hello'], responses: ['Hi!'] }] } });
    const el = await mount(tenant);
    button(el, 'Edit Old name')!.click();
    await until(() => deep<HTMLInputElement>(el, 'input[name="name"]')?.value === 'Old name', 'the form');
    await fill(el, 'name', 'New name');
    await fill(el, 'training.intents.0.responses', 'Hello there!');
    submit(el);
    await until(() => deepAll(el, 'tbody td').some((td) => td.textContent === 'New name'), 'the renamed row');
    const [bot] = (await tenant.client.bots.list()).data.items;
    expect(bot!.training.intents[0]!.responses).to.deep.equal(['Hello there!']);
    expect(bot!.status).to.equal('ready');
  });

  it('shows validation errors at the fields the service names', async () => {
    const tenant = await newTenant();
    const el = await mount(tenant);
    button(el, 'New bot')!.click();
    await until(() => deep(el, 'aicd-bot-editor'), 'the editor');
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
    const el = await mount(tenant);
    button(el, 'New bot')!.click();
    await until(() => deep(el, 'aicd-bot-editor'), 'the editor');
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
    await until(() => deepAll(el, 'tbody td').some((td) => td.textContent === 'With entities'), 'the saved bot');
    const [bot] = (await tenant.client.bots.list()).data.items;
    expect(bot!.training.entities).to.deep.equal([{ name: 'sku', type: 'regex', pattern: 'SKU-[0-9]{4}' }]);
  });

  it('renders hostile bot names and intents as text, and deletes a bot after confirming', async () => {
    const tenant = await newTenant();
    const name = HOSTILE.slice(0, 100);
    await tenant.client.bots.create({ name, training: { intents: [{ name: 'x', examples: [HOSTILE], responses: [HOSTILE] }] } });
    const el = await mount(tenant);
    expect(deepAll(el, 'tbody td')[0]!.textContent).to.equal(name);
    button(el, `Edit ${name}`)!.click();
    await until(() => deep(el, '.snippet-script'), 'the editor with its snippets');
    expect(deep<HTMLTextAreaElement>(el, 'textarea[name="training.intents.0.responses"]')!.value).to.equal(HOSTILE);
    // In the snippet the name is an escaped attribute value: pasted, it cannot open a tag.
    expect(deep(el, '.snippet-script')!.textContent).to.include('title="&lt;img src=x onerror=&quot;__pwned++&quot;&gt;');
    expect(deepAll(el, 'aicd-bots-page img, aicd-bot-editor img, script:not([src]), b')).to.deep.equal([]);
    expect(deepAll(editor(el), 'img, b')).to.deep.equal([]);
    expect(globalThis.__pwned).to.equal(0);

    button(el, 'Delete bot')!.click();
    await confirmDialog(el);
    await until(() => el.shadowRoot!.textContent!.includes('No bots'), 'the empty list');
    expect(deep(el, 'aicd-bot-editor')).to.equal(undefined);
    expect((await tenant.client.bots.list()).data.items).to.deep.equal([]);
  });

  it('is accessible with the editor open, and reachable by keyboard', async () => {
    const tenant = await newTenant();
    await tenant.client.bots.create({ name: 'Helper', training: { intents: [{ name: 'hi', examples: ['hello'], responses: ['Hi!'] }] } });
    const el = await mount(tenant);
    await expect(el).to.be.accessible();
    button(el, 'Edit Helper')!.click();
    await until(() => deep(el, 'ai-chat-widget'), 'the editor');
    await expect(el).to.be.accessible();
    expect(await tabTo(button(el, 'Save and train')!)).to.equal(true);
    expect(await tabTo(button(el, 'Copy the token proxy')!)).to.equal(true);
  });
});
