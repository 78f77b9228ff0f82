// The knowledge page against the real service in real Chromium: add, search (the service's own
// search), edit, delete with confirmation, field-level errors, hostile titles as text, axe, keyboard.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/dashboard/pages/knowledge-page.js';
import type { AicdKnowledgePage } from '../../src/dashboard/pages/knowledge-page.js';
import { button, confirmDialog, deep, deepAll, fill, HOSTILE, newTenant, tabTo, until, type Tenant } from './helpers.js';

async function mount(tenant: Tenant): Promise<AicdKnowledgePage> {
  const el = await fixture<AicdKnowledgePage>(html`<aicd-knowledge-page .client=${tenant.client}></aicd-knowledge-page>`);
  await until(() => deep(el, 'table') || el.shadowRoot!.textContent!.includes('No entries'), 'the first page');
  return el;
}

const rowTitles = (el: Element) => deepAll(el, 'tbody tr td:first-child').map((td) => td.textContent);

describe('aicd-knowledge-page', () => {
  it('names its buttons apart: opening the form and adding the entry are two names', async () => {
    const el = await mount(await newTenant());
    button(el, 'New entry')!.click();
    await el.updateComplete;
    const names = deepAll<HTMLButtonElement>(el, 'button').map((b) => (b.getAttribute('aria-label') ?? b.textContent!).trim());
    expect(names.filter((name) => name === 'Add entry')).to.have.length(1);
  });

  it('adds an entry, finds it with the service’s search, edits it and deletes it after confirming', async () => {
    const tenant = await newTenant();
    const el = await mount(tenant);

    button(el, 'New entry')!.click();
    await el.updateComplete;
    await fill(el, 'title', 'Refund policy');
    await fill(el, 'content', 'Refunds are possible within 30 days of purchase with the receipt.');
    await fill(el, 'tags', 'policies, billing');
    deepAll<HTMLButtonElement>(el, 'form.editor button[type="submit"]')[0]!.click();
    await until(() => rowTitles(el).includes('Refund policy'), 'the new row');
    const stored = (await tenant.client.knowledge.list()).data.items;
    expect(stored.map((e) => [e.title, e.tags])).to.deep.equal([['Refund policy', ['policies', 'billing']]]);

    await fill(el, 'q', 'refunds receipt');
    button(el, 'Search')!.click();
    const hit = await until(() => deepAll(el, '.hits li button').find((b) => b.textContent === 'Refund policy'), 'a search hit');

    hit.click(); // opens the entry for editing
    await until(() => deep<HTMLInputElement>(el, 'input[name="title"]')?.value === 'Refund policy', 'the edit form');
    await fill(el, 'title', 'Refunds and returns');
    button(el, 'Save entry')!.click();
    await until(() => rowTitles(el).includes('Refunds and returns'), 'the renamed row');
    expect((await tenant.client.knowledge.get(stored[0]!.id)).data.title).to.equal('Refunds and returns');

    button(el, 'Delete Refunds and returns')!.click();
    await confirmDialog(el);
    await until(() => !rowTitles(el).includes('Refunds and returns'), 'the row to go');
    expect((await tenant.client.knowledge.list()).data.items).to.deep.equal([]);
    expect((await tenant.client.knowledge.search({ q: 'refunds receipt' })).data.items).to.deep.equal([]);
  });

  it('keeps the entry when the deletion is cancelled, by Escape or by Cancel', async () => {
    const tenant = await newTenant();
    await tenant.client.knowledge.create({ title: 'Keep me', content: 'Some text.' });
    const el = await mount(tenant);
    const remove = button(el, 'Delete Keep me')!;
    remove.focus();
    await sendKeys({ press: 'Enter' });
    const dialog = await until(() => deepAll<HTMLDialogElement>(el, 'dialog').find((d) => d.open), 'the dialog');
    expect(deepActiveElementIs(dialog.querySelector('button[value="cancel"]')!)).to.equal(true, 'Cancel has the focus first');
    await sendKeys({ press: 'Escape' });
    await until(() => !dialog.open, 'Escape to close the dialog');
    await until(() => deepActiveElementIs(remove), 'the focus back on the Delete button');
    remove.click();
    await until(() => dialog.open, 'the dialog again');
    dialog.querySelector<HTMLButtonElement>('button[value="cancel"]')!.click();
    await until(() => !dialog.open, 'the dialog to close');
    expect(rowTitles(el)).to.deep.equal(['Keep me']);
    expect((await tenant.client.knowledge.list()).data.items).to.have.length(1);
  });

  it('shows the service’s validation error at the field it names', async () => {
    const el = await mount(await newTenant());
    button(el, 'New entry')!.click();
    await el.updateComplete;
    await fill(el, 'title', 'x'.repeat(201)); // the service allows 200 characters
    await fill(el, 'content', 'Body');
    deepAll<HTMLButtonElement>(el, 'form.editor button[type="submit"]')[0]!.click();
    const title = await until(() => deep<HTMLInputElement>(el, 'input[name="title"][aria-invalid="true"]'), 'the title marked invalid');
    const error = deep(el, `#${title.getAttribute('aria-describedby')!.split(' ').pop()}`)!;
    expect(error.textContent).to.match(/title/);
    expect(deep<HTMLTextAreaElement>(el, 'textarea[name="content"]')!.getAttribute('aria-invalid')).to.equal('false');
    await until(() => deepActiveElementIs(title), 'focus on the invalid field');
  });

  it('renders hostile titles, tags and content as text', async () => {
    const tenant = await newTenant();
    await tenant.client.knowledge.create({ title: HOSTILE, content: `${HOSTILE} hostileword`, tags: ['<b>tag</b>'] });
    const el = await mount(tenant);
    expect(rowTitles(el)).to.deep.equal([HOSTILE]);
    expect(deepAll(el, 'tbody td')[1]!.textContent).to.equal('<b>tag</b>');
    await fill(el, 'q', 'hostileword');
    button(el, 'Search')!.click();
    await until(() => deep(el, '.hits li'), 'a hit');
    expect(deepAll(el, 'img, script:not([src]), b')).to.deep.equal([]);
    expect(globalThis.__pwned).to.equal(0);
  });

  it('is accessible with its form and search results open, and reachable by keyboard', async () => {
    const tenant = await newTenant();
    await tenant.client.knowledge.create({ title: 'Shipping', content: 'We ship worldwide in 3 days.', tags: ['docs'] });
    const el = await mount(tenant);
    await expect(el).to.be.accessible();
    await fill(el, 'q', 'ship');
    button(el, 'Search')!.click();
    await until(() => deep(el, '.hits li'), 'a hit');
    button(el, 'New entry')!.click();
    await el.updateComplete;
    await expect(el).to.be.accessible();
    expect(await tabTo(button(el, 'Delete Shipping')!)).to.equal(true);
  });
});

function deepActiveElementIs(target: Element): boolean {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active === target;
}
