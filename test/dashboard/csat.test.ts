// Satisfaction (CSAT) in the dashboard against the real service in real Chromium: after an operator
// took, answered and closed a conversation and the visitor rated it, the overview shows the
// satisfaction tiles, the operator's row and the comment linking to its conversation; the
// conversation page shows the rating, and its exports carry it; the bot editor sets when the widget
// asks. Comments render as text; axe.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/dashboard/pages/conversations-page.js';
import type { AicdConversationsPage } from '../../src/dashboard/pages/conversations-page.js';
import type { ExportFile } from '../../src/dashboard/pages/conversation-export.js';
import '../../src/dashboard/pages/overview-page.js';
import type { AicdOverviewPage } from '../../src/dashboard/pages/overview-page.js';
import '../../src/dashboard/pages/bot-editor.js';
import '../../src/dashboard/pages/bot-csat.js';
import type { AicdBotCsat } from '../../src/dashboard/pages/bot-csat.js';
import type { AicdBotEditor } from '../../src/dashboard/pages/bot-editor.js';
import { askForPerson, button, deep, deepAll, HOSTILE, newTenant, operatorWithHandoffBot, signOut, until } from './helpers.js';

const COMMENT = `Quick and kind. ${HOSTILE}`;

/** A visitor's conversation that the operator took, answered and closed, rated 5 with a comment. */
async function ratedConversation() {
  const { api, visitor, botId } = await operatorWithHandoffBot('Support');
  const inbox = new AbortController(); // an open inbox stream: the operator is online
  void (async () => {
    for await (const _ of api.inboxEvents({ signal: inbox.signal })) void _;
  })().catch(() => {});
  try {
    const { data: turn } = await visitor.bots.sendMessage(botId, { message: 'hello', user_id: 'visitor-1' });
    const conversationId = turn.conversation_id;
    await askForPerson(visitor, conversationId, 'visitor-1');
    await api.take(conversationId);
    await api.reply(conversationId, 'Your parcel is on its way.');
    await api.closeConversation(conversationId, 'closed');
    await visitor.csat.give(conversationId, { rating: 5, comment: COMMENT, user_id: 'visitor-1' });
    return { api, conversationId, operator: await api.operatorProfile() };
  } finally {
    inbox.abort();
  }
}

const tile = (el: Element, name: string) => deepAll(el, '.tiles div').find((d) => d.querySelector('dt')!.textContent === name)?.querySelector('dd')!.textContent;

describe('CSAT in the dashboard', () => {
  after(signOut);

  it('the overview shows satisfaction, the operator, and the comment linking to its conversation', async () => {
    const { api, conversationId, operator } = await ratedConversation();
    const el = await fixture<AicdOverviewPage>(html`<aicd-overview-page .client=${api.client}></aicd-overview-page>`);
    await until(() => tile(el, 'CSAT'), 'the support tiles');
    expect([tile(el, 'CSAT'), tile(el, 'Mean rating'), tile(el, 'Ratings'), tile(el, 'Handoffs')]).to.deep.equal(['100 %', '5.0', '1', '1']);
    expect(tile(el, 'First response')).to.match(/^\d+ s$/);
    expect(tile(el, 'Resolution')).to.match(/^\d+ s$/);

    const operators = deep(el, 'section[aria-labelledby="support-operators-title"] table')!;
    expect(deepAll(operators, 'tbody td').slice(0, 5).map((td) => td.textContent!.trim())).to.deep.equal([operator.name, '1', '1', '100 %', '5.0']);
    expect(deep(el, 'section[aria-labelledby="support-bots-title"] tbody td')!.textContent).to.equal('Shop');

    const comments = deep(el, 'table.csat-comments')!;
    const cells = deepAll(comments, 'tbody td').map((td) => td.textContent!.trim());
    expect(cells[0]).to.equal(COMMENT, 'the comment, as text');
    expect(cells[1]).to.equal('★★★★★ 5/5 · Very good');
    expect(deep<HTMLAnchorElement>(comments, 'a')!.getAttribute('href')).to.equal(`#/conversations/${conversationId}`);
    expect(globalThis.__pwned).to.equal(0);
    await expect(el).to.be.accessible();
  });

  it('the conversation page shows the rating, and its JSON and CSV exports carry it', async () => {
    const { api, conversationId } = await ratedConversation();
    const el = await fixture<AicdConversationsPage>(
      html`<aicd-conversations-page .client=${api.client} .conversationId=${conversationId}></aicd-conversations-page>`,
    );
    const shown = await until(() => deep(el, '.transcript .csat'), 'the rating');
    expect(shown.textContent!.replace(/\s+/g, ' ').trim()).to.equal(`Satisfaction: ★★★★★ 5/5 · Very good: ${COMMENT}`);
    await until(() => deepAll(el, '.messages li').length >= 2, 'the transcript');

    const exported: ExportFile[] = [];
    el.addEventListener('aicd-export', (e) => exported.push((e as CustomEvent<ExportFile>).detail));
    button(el, 'Export JSON')!.click();
    button(el, 'Export CSV')!.click();
    const json = JSON.parse(exported[0]!.text) as { csat: { rating: number; comment: string } };
    expect([json.csat.rating, json.csat.comment]).to.deep.equal([5, COMMENT]);
    const lines = exported[1]!.text.trimEnd().split('\r\n');
    expect(lines[0]).to.match(/"csat_rating","csat_comment"$/);
    for (const line of lines.slice(1)) expect(line.endsWith(`"5","${COMMENT.replaceAll('"', '""')}"`)).to.equal(true, line);
    expect(globalThis.__pwned).to.equal(0);
  });

  it('the bot editor sets when the widget asks: after a handoff (on), after the bot alone (off)', async () => {
    const tenant = await newTenant();
    const { data: bot } = await tenant.client.bots.create({ name: 'Shop' });
    const editor = await fixture<AicdBotEditor>(
      html`<aicd-bot-editor .client=${tenant.client} .botId=${bot.id} .previewBaseUrl=${tenant.baseUrl} .csrfToken=${tenant.token}></aicd-bot-editor>`,
    );
    const section = await until(() => deep<AicdBotCsat>(editor, 'aicd-bot-csat'), 'the survey section');
    const box = (name: string) => section.shadowRoot!.querySelector<HTMLInputElement>(`input[name="${name}"]`);
    await until(() => box('after_bot'), 'the survey form');
    expect([box('after_handoff')!.checked, box('after_bot')!.checked]).to.deep.equal([true, false]);
    await expect(section).to.be.accessible();
    box('after_bot')!.click();
    box('after_handoff')!.click();
    button(section, 'Save survey settings')!.click();
    await until(() => section.shadowRoot!.querySelector('[role="status"]')?.textContent === 'Survey settings saved.', 'the save');
    expect((await tenant.client.csat.settings(bot.id)).data).to.deep.equal({ bot_id: bot.id, after_handoff: false, after_bot: true });
  });
});
