// The overview against the real service in real Chromium: bots by name (not id), conversation ids
// as links to the conversation, a chosen period in a chosen time zone (the reports asked in that
// zone), "No data yet" instead of empty axes, table headers that never break inside a word, and
// axe on each state.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/dashboard/pages/overview-page.js';
import type { AicdOverviewPage } from '../../src/dashboard/pages/overview-page.js';
import { localDay } from '../../src/dashboard/pages/overview-range.js';
import { button, deep, deepActiveElement, deepAll, fill, newTenant, until, type Tenant } from './helpers.js';

/** A bot answer rated thumbs down with a comment, in a visitor's conversation. */
async function ratedAnswer(tenant: Tenant) {
  const { data: bot } = await tenant.client.bots.create({
    name: 'Shop helper',
    training: { intents: [{ name: 'hours', examples: ['opening hours', 'when are you open'], responses: ['We are open 9 to 5.'] }] },
  });
  const { data: turn } = await tenant.client.bots.sendMessage(bot.id, { message: 'opening hours', user_id: 'visitor-1' });
  await tenant.client.feedback.give(turn.message.id, { rating: 'down', reason: 'incorrect', comment: 'We close at 4.', user_id: 'visitor-1' });
  return { botId: bot.id, conversationId: turn.conversation_id };
}

async function mount(tenant: Tenant): Promise<AicdOverviewPage> {
  const el = await fixture<AicdOverviewPage>(html`<aicd-overview-page .client=${tenant.client}></aicd-overview-page>`);
  await until(() => deep(el, '.tiles'), 'the reports');
  return el;
}

const tile = (el: Element, name: string) => deepAll(el, '.tiles div').find((d) => d.querySelector('dt')!.textContent === name)!.querySelector('dd')!.textContent;
const charts = (el: Element) => deepAll(el, 'aicd-chart');

/** Sets the period's form and shows it; resolves once the reports of that period are on screen. */
async function showPeriod(el: AicdOverviewPage, from: string, to: string, timeZone: string): Promise<void> {
  await fill(el, 'from', from);
  await fill(el, 'to', to);
  await fill(el, 'tz', timeZone);
  button(el, 'Show')!.click();
  await until(() => el.shadowRoot!.querySelector('p.hint[role="status"]')!.textContent === `From ${from} to ${to} (${timeZone.replaceAll('_', ' ')}), all bots and agents of the account.`, 'the period shown');
}

describe('aicd-overview-page', () => {
  it('names bots, links conversation ids to their conversation, and draws the charts it has data for', async () => {
    const tenant = await newTenant();
    const { botId, conversationId } = await ratedAnswer(tenant);
    const el = await mount(tenant);
    const owners = await until(() => deep(el, 'section[aria-labelledby="feedback-owners-title"] table'), 'the feedback per bot');
    const ownerCells = deepAll(owners, 'tbody td').map((td) => td.textContent!.trim());
    expect(ownerCells[0]).to.equal('Shop helper');
    expect(deepAll(el, 'td').map((td) => td.textContent!.trim())).not.to.include(botId);

    const downvoted = deep(el, 'section[aria-labelledby="downvoted-title"] table')!;
    const link = deep<HTMLAnchorElement>(downvoted, 'tbody a')!;
    expect([link.textContent, link.getAttribute('href')]).to.deep.equal([conversationId, `#/conversations/${conversationId}`]);
    const commentLink = deep<HTMLAnchorElement>(deep(el, 'table.comments')!, 'tbody a')!;
    expect(commentLink.getAttribute('href')).to.equal(`#/conversations/${conversationId}`);

    const [usageChart] = charts(el);
    await until(() => usageChart!.shadowRoot!.querySelector('canvas'), 'the conversations chart');
    expect(usageChart!.shadowRoot!.textContent).not.to.include('No data yet');

    // headers break between words only
    const th = deep(el, 'thead th')!;
    const style = getComputedStyle(th);
    expect([style.overflowWrap, style.wordBreak, style.hyphens]).to.deep.equal(['normal', 'normal', 'none']);
    await expect(el).to.be.accessible();
  });

  it('says "No data yet" on every chart without data, never empty axes', async () => {
    const tenant = await newTenant();
    const el = await mount(tenant);
    for (const chart of charts(el)) {
      expect(chart.shadowRoot!.querySelector('.empty')!.textContent).to.equal('No data yet');
      expect(chart.shadowRoot!.querySelector('canvas, .plot')).to.equal(null);
    }
    await expect(el).to.be.accessible();
  });

  it('shows a chosen period in a chosen time zone, counted by the service in that zone\'s days', async () => {
    const tenant = await newTenant();
    await ratedAnswer(tenant);
    const el = await mount(tenant);
    // 25 hours apart: today in Kiritimati (UTC+14) is not yet begun in Pago Pago (UTC-11)
    const kiritimatiToday = localDay(new Date().toISOString(), 'Pacific/Kiritimati');
    await showPeriod(el, kiritimatiToday, kiritimatiToday, 'Pacific/Kiritimati');
    expect(tile(el, 'Conversations')).to.equal('1');
    const table = charts(el)[0]!.shadowRoot!.querySelector('tbody th')!;
    expect(table.textContent).to.equal(kiritimatiToday);

    await showPeriod(el, kiritimatiToday, kiritimatiToday, 'Pacific/Pago_Pago');
    expect(tile(el, 'Conversations')).to.equal('0');
    expect(charts(el)[0]!.shadowRoot!.querySelector('.empty')!.textContent).to.equal('No data yet');
    await expect(el).to.be.accessible();
  });

  it('refuses a period that ends before it starts, at the field, with the focus there', async () => {
    const tenant = await newTenant();
    const el = await mount(tenant);
    await fill(el, 'from', '2026-03-10');
    await fill(el, 'to', '2026-03-01');
    button(el, 'Show')!.click();
    const to = await until(() => el.shadowRoot!.querySelector<HTMLInputElement>('input[name="to"][aria-invalid="true"]'), 'the error at the last day');
    expect(el.shadowRoot!.getElementById(to.getAttribute('aria-describedby')!)!.textContent).to.equal('The last day must not be before the first.');
    await until(() => deepActiveElement() === to, 'the focus on the last day');
    await expect(el).to.be.accessible();
  });
});
