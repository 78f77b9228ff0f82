// Visitors' feedback in the dashboard against the real service in real Chromium: the overview lists
// the newest comments (rating, reason, the answer) linking to their conversation; the conversation
// shows each rating, reason and comment under the answer it rates, and its CSV export carries them.
import { expect, fixture, html } from '@open-wc/testing';
import type { ExportFile } from '../../src/dashboard/pages/conversation-export.js';
import '../../src/dashboard/pages/conversations-page.js';
import type { AicdConversationsPage } from '../../src/dashboard/pages/conversations-page.js';
import '../../src/dashboard/pages/overview-page.js';
import type { AicdOverviewPage } from '../../src/dashboard/pages/overview-page.js';
import { button, deep, deepAll, HOSTILE, newTenant, until, type Tenant } from './helpers.js';

/** A bot answer in a visitor's conversation, rated thumbs down with `comment`. */
async function ratedAnswer(tenant: Tenant, comment: string) {
  const { data: bot } = await tenant.client.bots.create({
    name: 'Shop',
    training: { intents: [{ name: 'hours', examples: ['opening hours', 'when are you open'], responses: ['We are open 9 to 5.'] }] },
  });
  const { data: turn } = await tenant.client.bots.sendMessage(bot.id, { message: 'opening hours', user_id: 'visitor-1' });
  await tenant.client.feedback.give(turn.message.id, { rating: 'down', reason: 'incorrect', comment, user_id: 'visitor-1' });
  return { conversationId: turn.conversation_id, answerId: turn.message.id };
}

describe("visitors' feedback in the dashboard", () => {
  it('the overview lists the newest comments with their rating, reason and answer, linking to the conversation', async () => {
    const tenant = await newTenant();
    const { conversationId } = await ratedAnswer(tenant, `We close at 4 on Fridays. ${HOSTILE}`);
    const el = await fixture<AicdOverviewPage>(html`<aicd-overview-page .client=${tenant.client}></aicd-overview-page>`);
    const table = await until(() => deep(el, 'table.comments'), 'the comments table');
    const cells = deepAll(table, 'tbody td').map((td) => td.textContent!.trim());
    expect(cells[0]).to.equal(`We close at 4 on Fridays. ${HOSTILE}`, 'the comment, as text');
    expect(cells[1]).to.equal('👎 Thumbs down · Incorrect');
    expect(cells[2]).to.equal('We are open 9 to 5.');
    expect(deep<HTMLAnchorElement>(table, 'a')!.getAttribute('href')).to.equal(`#/conversations/${conversationId}`);
    expect(globalThis.__pwned).to.equal(0);
  });

  it('the conversation shows the feedback under the rated answer, and its CSV export carries it', async () => {
    const tenant = await newTenant();
    const { conversationId, answerId } = await ratedAnswer(tenant, 'We close at 4 on Fridays.');
    const el = await fixture<AicdConversationsPage>(
      html`<aicd-conversations-page .client=${tenant.client} .conversationId=${conversationId}></aicd-conversations-page>`,
    );
    const answer = await until(() => deepAll(el, '.messages li.assistant').find((li) => li.querySelector('.feedback')), 'the rated answer');
    expect(answer.querySelector('.text')!.textContent).to.equal('We are open 9 to 5.');
    expect(answer.querySelector('.feedback')!.textContent).to.equal('👎 Thumbs down · Incorrect: We close at 4 on Fridays.');
    expect(deepAll(el, '.messages li.user .feedback')).to.have.length(0);

    const exported: ExportFile[] = [];
    el.addEventListener('aicd-export', (e) => exported.push((e as CustomEvent<ExportFile>).detail));
    button(el, 'Export CSV')!.click();
    const lines = exported[0]!.text.trimEnd().split('\r\n');
    expect(lines[0]).to.match(/"feedback_rating","feedback_reason","feedback_comment","csat_rating","csat_comment"$/);
    const row = lines.find((line) => line.includes(`"${answerId}"`));
    expect(row).to.match(/"down","incorrect","We close at 4 on Fridays\.","",""$/);
  });
});
