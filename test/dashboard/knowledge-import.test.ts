// The knowledge page's Import panel against the real service in real Chromium: files picked in the
// file input and a web page of this dev server imported as jobs whose progress the panel follows,
// the imported entries listed with their page as a link, a hostile file name shown as text, re-sync
// and delete of an import (with its entries), and axe.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/dashboard/pages/knowledge-page.js';
import type { AicdKnowledgePage } from '../../src/dashboard/pages/knowledge-page.js';
import { button, confirmDialog, deep, deepAll, deepText, fill, HOSTILE, newTenant, until, type Tenant } from './helpers.js';

async function mount(tenant: Tenant): Promise<AicdKnowledgePage> {
  const el = await fixture<AicdKnowledgePage>(html`<aicd-knowledge-page .client=${tenant.client}></aicd-knowledge-page>`);
  await until(() => deep(el, 'form.import'), 'the import panel');
  return el;
}

function pick(el: Element, files: File[]): void {
  const input = deep<HTMLInputElement>(el, 'input[type="file"][name="files"]')!;
  const transfer = new DataTransfer();
  for (const file of files) transfer.items.add(file);
  input.files = transfer.files;
}

describe('aicd-knowledge-imports', () => {
  it('imports picked files as a job, shows its progress and the entries by heading', async () => {
    const tenant = await newTenant();
    const el = await mount(tenant);
    pick(el, [
      new File(['# Shipping\n\nWe ship worldwide.\n\n## Europe\n\nThree days to Europe.'], 'shipping.md', { type: 'text/markdown' }),
      new File(['Opening hours are 9 to 5.'], `${HOSTILE}.txt`, { type: 'text/plain' }),
    ]);
    await fill(el, 'tags', 'docs');
    button(el, 'Import')!.click();

    await until(() => deepText(el).includes('Imported “shipping.md”'), 'the finished import');
    const row = await until(() => deep(el, 'tr[data-import]'), 'the import row');
    expect(row.textContent).to.include('succeeded');
    expect(row.textContent).to.include('2 of 2 documents');
    expect(row.textContent).to.include('3 added');
    await until(() => deepText(el).includes('Shipping › Europe'), 'the imported entries');
    expect(globalThis.__pwned).to.equal(0);
    expect(deepText(el)).to.include(`${HOSTILE}.txt`);
    const stored = (await tenant.client.knowledge.list()).data.items;
    expect(stored.map((e) => e.title).sort()).to.deep.equal([`${HOSTILE}.txt`, 'Shipping', 'Shipping › Europe']);
    expect(stored.every((e) => e.tags.includes('docs') && e.import_id !== null)).to.equal(true);
    await expect(el).to.be.accessible();
  });

  it('imports a web page, links the entries to it, re-syncs and deletes the import with its entries', async () => {
    const tenant = await newTenant();
    const el = await mount(tenant);
    const page = `${location.origin}/test/dashboard/fixtures/help-center.html`;
    const kind = deep<HTMLSelectElement>(el, 'select[name="kind"]')!;
    kind.value = 'url';
    kind.dispatchEvent(new Event('change'));
    await until(() => deep(el, 'input[name="url"]'), 'the URL field');
    await fill(el, 'url', page);
    await fill(el, 'max_pages', '3');
    button(el, 'Import')!.click();

    await until(() => deepText(el).includes('Imported “'), 'the finished import');
    const link = await until(() => deepAll<HTMLAnchorElement>(el, 'tbody a').find((a) => a.href === page), 'a link to the page');
    expect(link.target).to.equal('_blank');
    expect(link.rel).to.equal('noopener noreferrer');
    const entries = (await tenant.client.knowledge.list()).data.items;
    expect(entries.map((e) => [e.title, e.url, e.heading_path])).to.deep.include(['Help center › Descaling', page, ['Help center', 'Descaling']]);

    button(el, /^Sync /)!.click();
    await until(() => deepText(el).includes('0 added, 0 updated, 0 deleted'), 'the re-sync (nothing changed)');
    const unchanged = (await tenant.client.knowledge.list()).data.items;
    expect(unchanged.map((e) => e.version)).to.deep.equal(entries.map(() => 1));

    button(el, /^Delete http/)!.click();
    await confirmDialog(el);
    await until(() => deepText(el).includes('and its entries'), 'the deletion');
    expect((await tenant.client.knowledge.list()).data.items).to.deep.equal([]);
    await until(() => !deepText(el).includes('Help center › Descaling'), 'the entries to go from the table');
  });

  it('shows why an import was refused at the field it concerns', async () => {
    const tenant = await newTenant();
    const el = await mount(tenant);
    const kind = deep<HTMLSelectElement>(el, 'select[name="kind"]')!;
    kind.value = 'sitemap';
    kind.dispatchEvent(new Event('change'));
    await until(() => deep(el, 'input[name="url"]'), 'the URL field');
    await fill(el, 'url', 'file:///etc/passwd');
    button(el, 'Import')!.click();
    const error = await until(() => deep(el, '#f-url-error'), 'the URL error');
    expect(error.textContent).to.match(/http: and https:/);
    expect(deep<HTMLInputElement>(el, 'input[name="url"]')!.getAttribute('aria-invalid')).to.equal('true');
  });
});
