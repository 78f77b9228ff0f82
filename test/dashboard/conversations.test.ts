// The conversations page against the real service in real Chromium: filters (a label too), each
// conversation's labels, cursor paging, one transcript, export as JSON and as CSV (formula-safe),
// delete with confirmation, hostile visitor messages and labels as text, axe and keyboard.
import { expect, fixture, html } from '@open-wc/testing';
import type { ExportFile } from '../../src/dashboard/pages/conversation-export.js';
import { csvCell } from '../../src/dashboard/pages/conversation-export.js';
import '../../src/dashboard/pages/conversations-page.js';
import type { AicdConversationsPage } from '../../src/dashboard/pages/conversations-page.js';
import { button, confirmDialog, deep, deepAll, fill, HOSTILE, newTenant, tabTo, until, type Tenant } from './helpers.js';

async function mount(tenant: Tenant): Promise<AicdConversationsPage> {
  const el = await fixture<AicdConversationsPage>(html`<aicd-conversations-page .client=${tenant.client}></aicd-conversations-page>`);
  await until(() => deep(el, 'table') || el.shadowRoot!.textContent!.includes('No conversation'), 'the first page');
  return el;
}

/** A trained bot with one intent; returns its id. */
async function botOf(tenant: Tenant, name: string): Promise<string> {
  const { data } = await tenant.client.bots.create({
    name,
    training: { intents: [{ name: 'hours', examples: ['opening hours', 'when are you open'], responses: ['We are open 9 to 5.'] }] },
  });
  return data.id;
}

const users = (el: Element) => deepAll(el, 'tbody tr td:nth-child(3)').map((td) => td.textContent);

/** Applies the filter form after `fill`s; waits until the list shows exactly these users. */
async function apply(el: AicdConversationsPage, expected: string[]): Promise<void> {
  button(el, 'Apply filters')!.click();
  const shown = () => (deep(el, 'table') ? users(el) : el.shadowRoot!.textContent!.includes('No conversation matches') ? [] : null);
  await until(() => JSON.stringify(shown()) === JSON.stringify(expected), `the list of ${JSON.stringify(expected)}`);
}

describe('aicd-conversations-page', () => {
  it('filters by bot, user, text and start date', async () => {
    const tenant = await newTenant();
    const shop = await botOf(tenant, 'Shop');
    const blog = await botOf(tenant, 'Blog');
    for (let i = 0; i < 3; i++) await tenant.client.bots.sendMessage(shop, { message: `opening hours please ${i}`, user_id: `shopper-${i}` });
    await tenant.client.bots.sendMessage(blog, { message: 'when are you open, reader', user_id: 'reader' });
    const el = await mount(tenant);
    expect(users(el)).to.have.members(['shopper-0', 'shopper-1', 'shopper-2', 'reader']);
    await until(() => deepAll(el, 'tbody tr td:nth-child(2)').some((td) => td.textContent === 'Blog'), 'bot names, not ids');

    await until(() => deepAll(el, 'select[name="bot_id"] option').length === 3, 'the bot filter options');
    await fill(el, 'bot_id', blog);
    await apply(el, ['reader']);

    await fill(el, 'bot_id', '');
    await fill(el, 'user_id', 'shopper-1');
    await apply(el, ['shopper-1']);

    await fill(el, 'user_id', '');
    await fill(el, 'q', 'reader');
    await apply(el, ['reader']);

    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await fill(el, 'q', '');
    await fill(el, 'from', tomorrow);
    await apply(el, []);
    button(el, 'Reset')!.click();
    await until(() => users(el).length === 4, 'all conversations again');
  });

  it("shows each conversation's labels, as text, and filters by one", async () => {
    const tenant = await newTenant();
    const shop = await botOf(tenant, 'Shop');
    const ids: Record<string, string> = {};
    for (const user of ['refund-asker', 'parcel-asker', 'plain']) ids[user] = (await tenant.client.bots.sendMessage(shop, { message: 'opening hours', user_id: user })).data.conversation_id;
    await tenant.client.conversations.labels(ids['refund-asker']!, { add: ['refund', HOSTILE.slice(0, 40)] });
    await tenant.client.conversations.labels(ids['parcel-asker']!, { add: ['parcel'] });
    const el = await mount(tenant);
    const labelsOf = (user: string) => {
      const row = deepAll(el, 'tbody tr').find((tr) => tr.children[2]!.textContent === user);
      return row ? [...row.querySelectorAll('.labels li')].map((li) => li.textContent) : null;
    };
    expect(labelsOf('refund-asker')).to.deep.equal(['refund', HOSTILE.slice(0, 40)]);
    expect(labelsOf('parcel-asker')).to.deep.equal(['parcel']);
    expect(labelsOf('plain')).to.deep.equal([]);
    expect(deepAll(el, 'tbody img')).to.deep.equal([]);

    await fill(el, 'label', 'refund');
    await apply(el, ['refund-asker']);
    button(el, /^Open the conversation/)!.click();
    await until(() => deepAll(el, '.transcript .labels li').length === 2, 'the labels with the transcript');
    await expect(el).to.be.accessible();
    await fill(el, 'label', 'nobody-has-this');
    await apply(el, []);
  });

  it('loads the next page with the cursor', async () => {
    const tenant = await newTenant();
    const bot = await botOf(tenant, 'Busy');
    for (let i = 0; i < 52; i++) await tenant.client.bots.sendMessage(bot, { message: 'opening hours', user_id: `u${i}` });
    const el = await mount(tenant);
    expect(users(el)).to.have.length(50);
    button(el, 'Load more')!.click();
    await until(() => users(el).length === 52, 'the second page');
    expect(new Set(users(el)).size).to.equal(52);
    expect(button(el, 'Load more')?.outerHTML).to.equal(undefined);
  });

  it('shows a transcript, exports it as JSON and as formula-safe CSV, and deletes it after confirming', async () => {
    const tenant = await newTenant();
    const bot = await botOf(tenant, 'Shop');
    const first = await tenant.client.bots.sendMessage(bot, { message: '=HYPERLINK("http://evil.example","opening hours")', user_id: 'visitor-1' });
    await tenant.client.chat.send({ conversation_id: first.data.conversation_id, bot_id: bot, user_id: 'visitor-1', messages: [{ role: 'user', content: '+1 when are you open' }] });
    const el = await mount(tenant);
    button(el, /^Open the conversation/)!.click();
    await until(() => deepAll(el, '.messages li').length === 4, 'the transcript');
    expect(deepAll(el, '.messages .text').map((p) => p.textContent)).to.deep.equal([
      '=HYPERLINK("http://evil.example","opening hours")',
      'We are open 9 to 5.',
      '+1 when are you open',
      'We are open 9 to 5.',
    ]);

    const exported: ExportFile[] = [];
    el.addEventListener('aicd-export', (e) => exported.push((e as CustomEvent<ExportFile>).detail));
    button(el, 'Export JSON')!.click();
    button(el, 'Export CSV')!.click();
    const [json, csv] = exported;
    const parsed = JSON.parse(json!.text) as { conversation: { id: string }; messages: { content: string }[] };
    expect(json!.filename).to.equal(`${first.data.conversation_id}.json`);
    expect(parsed.conversation.id).to.equal(first.data.conversation_id);
    expect(parsed.messages.map((m) => m.content)[0]).to.equal('=HYPERLINK("http://evil.example","opening hours")');
    expect(csv!.type).to.match(/^text\/csv/);
    const lines = csv!.text.trimEnd().split('\r\n');
    expect(lines).to.have.length(5);
    expect(lines[0]).to.equal(
      '"conversation_id","message_id","created_at","role","content","source","intent","confidence","attachments","feedback_rating","feedback_reason","feedback_comment","csat_rating","csat_comment"',
    );
    expect(lines[1]).to.include(`"'=HYPERLINK(""http://evil.example"",""opening hours"")"`);
    expect(lines[3]).to.include(`"'+1 when are you open"`);

    button(el, 'Delete conversation')!.click();
    await confirmDialog(el);
    await until(() => el.shadowRoot!.textContent!.includes('No conversation'), 'the list without it');
    expect(deep(el, '.transcript')?.outerHTML).to.equal(undefined);
    expect((await tenant.client.conversations.list()).data.items).to.deep.equal([]);
  });

  it('makes every formula-starting cell text', () => {
    expect(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', 'plain', '', null, 3].map(csvCell)).to.deep.equal([
      `"'=1+1"`, `"'+1"`, `"'-1"`, `"'@SUM(A1)"`, `"'\tx"`, `"'\rx"`, '"plain"', '""', '""', '"3"',
    ]);
  });

  it('renders hostile visitor messages and user ids as text', async () => {
    const tenant = await newTenant();
    const { data } = await tenant.client.bots.create({
      name: HOSTILE.slice(0, 100),
      training: { intents: [{ name: 'echo', examples: ['hostile'], responses: [HOSTILE] }] },
    });
    const bot = data.id;
    await tenant.client.bots.sendMessage(bot, { message: `${HOSTILE} hostile`, user_id: 'x' });
    const el = await mount(tenant);
    await until(() => deepAll(el, 'option').some((o) => o.textContent === HOSTILE.slice(0, 100)), 'the hostile bot name');
    expect(HOSTILE.length).to.be.below(200, 'the list previews 200 characters');
    expect(deepAll(el, '.preview')[0]!.textContent).to.equal(HOSTILE);
    button(el, /^Open the conversation/)!.click();
    await until(() => deepAll(el, '.messages .text').length === 2, 'the transcript');
    expect(deepAll(el, '.messages .text').map((p) => p.textContent)).to.deep.equal([`${HOSTILE} hostile`, HOSTILE]);
    expect(deepAll(el, 'img, script:not([src]), b')).to.deep.equal([]);
    expect(globalThis.__pwned).to.equal(0);
  });

  it('is accessible with a transcript open, and reachable by keyboard', async () => {
    const tenant = await newTenant();
    const bot = await botOf(tenant, 'Shop');
    await tenant.client.bots.sendMessage(bot, { message: 'opening hours', user_id: 'visitor' });
    const el = await mount(tenant);
    await expect(el).to.be.accessible();
    expect(await tabTo(button(el, /^Open the conversation/)!)).to.equal(true);
    button(el, /^Open the conversation/)!.click();
    await until(() => deepAll(el, '.messages li').length === 2, 'the transcript');
    await expect(el).to.be.accessible();
    expect(await tabTo(button(el, 'Export CSV')!)).to.equal(true);
  });
});
