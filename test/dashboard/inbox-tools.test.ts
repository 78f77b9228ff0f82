// The inbox's team tools against the real service in real Chromium: the `/` picker of canned
// replies (a listbox the reply box drives with aria-activedescendant: filtered as typed, arrows,
// Enter inserts, Escape closes), managing canned replies on the page, and a private note that shows
// in the transcript as the team's only while the visitor's history never has it. axe finds nothing.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { AiChatClient } from '../../src/client/index.js';
import { DashboardApi } from '../../src/dashboard/api.js';
import '../../src/dashboard/pages/inbox-page.js';
import type { AicdInboxPage } from '../../src/dashboard/pages/inbox-page.js';
import { askForPerson, button, deep, deepAll, deepText, fill, signOut, until } from './helpers.js';

describe('aicd-inbox-page: team tools', () => {
  after(signOut);

  it('inserts a canned reply with / and the keyboard, adds a private note the visitor never sees', async () => {
    const api = new DashboardApi();
    await api.signUp({ email: `tools.${Date.now()}@example.test`, password: 'correct horse battery', account_name: 'Tools' });
    const { secret } = await api.createKey({ label: 'visitor side' });
    const visitor = new AiChatClient({ baseUrl: `${location.origin}/v1`, apiKey: secret });
    const { data: bot } = await api.client.bots.create({ name: 'Shop' });
    await api.client.handoff.updateSettings(bot.id, { enabled: true });
    await api.client.cannedReplies.create({ shortcut: 'refund-policy', text: 'Refunds take 5 days.' });
    await api.client.cannedReplies.create({ shortcut: 'hello', text: 'Hi! How can I help?' });
    await api.client.cannedReplies.create({ shortcut: 'prefund', text: 'Pre-orders are refunded at once.' });
    const user = 'tools-visitor';
    const { data: first } = await visitor.bots.sendMessage(bot.id, { message: 'I want my money back', user_id: user });

    const el = await fixture<AicdInboxPage>(html`<aicd-inbox-page .api=${api}></aicd-inbox-page>`);
    await until(() => deepText(el).includes('Nobody is waiting'), 'the empty inbox');
    await askForPerson(visitor, first.conversation_id, user);
    (await until(() => button(el, `Take the conversation with ${user}`), 'the waiting conversation')).click();
    const reply = await until(() => deep<HTMLTextAreaElement>(el, 'textarea#reply'), 'the reply box');
    const listbox = deep<HTMLElement>(el, '[role="listbox"]')!;
    const options = () => deepAll(el, '[role="option"]').map((o) => o.querySelector('.shortcut')!.textContent);
    const active = () => el.shadowRoot!.getElementById(reply.getAttribute('aria-activedescendant') ?? '')?.querySelector('.shortcut')?.textContent;
    expect(listbox.hidden).to.equal(true);
    expect(reply.getAttribute('aria-controls')).to.equal(listbox.id);

    // `/ref`: the shortcuts with "ref", those starting with it first
    reply.focus();
    await sendKeys({ type: 'Sure. /ref' });
    await until(() => !listbox.hidden && options().length === 2, 'the filtered list');
    expect(options()).to.deep.equal(['/refund-policy', '/prefund']);
    expect(active()).to.equal('/refund-policy');
    await expect(el).to.be.accessible();
    await sendKeys({ press: 'ArrowDown' });
    await until(() => active() === '/prefund', 'ArrowDown moves');
    await sendKeys({ press: 'ArrowUp' });
    await until(() => active() === '/refund-policy', 'ArrowUp moves back');
    await sendKeys({ press: 'Enter' }); // inserts, does not send
    await until(() => reply.value === 'Sure. Refunds take 5 days.', 'the inserted text');
    expect(listbox.hidden).to.equal(true);
    expect(reply.hasAttribute('aria-activedescendant')).to.equal(false);
    expect(deepAll(el, '.message.operator')).to.have.length(0);

    // Escape closes without inserting
    await sendKeys({ type: ' /he' });
    await until(() => !listbox.hidden && options().length === 1, 'the list again');
    await sendKeys({ press: 'Escape' });
    await until(() => listbox.hidden, 'closed by Escape');
    expect(reply.value).to.equal('Sure. Refunds take 5 days. /he');

    // a note: in the transcript, marked as the team's; never in the visitor's history
    await fill(el, 'note', 'Customer asked twice already');
    button(el, 'Add note')!.click();
    const note = await until(() => deepAll(el, '.message.note').find((li) => li.textContent?.includes('Customer asked twice already')), 'the note in the transcript');
    expect(note.textContent).to.include('Only your team sees this');
    const { data: history } = await visitor.chat.history({ conversation_id: first.conversation_id });
    expect(history.items.map((m) => m.content)).not.to.include('Customer asked twice already');
    expect(history.items.every((m) => m.role !== 'note')).to.equal(true);
    await expect(el).to.be.accessible();
  });

  it('manages canned replies on the page; the picker uses them at once', async () => {
    const api = new DashboardApi();
    await api.signUp({ email: `canned.${Date.now()}@example.test`, password: 'correct horse battery', account_name: 'Canned' });
    const el = await fixture<AicdInboxPage>(html`<aicd-inbox-page .api=${api}></aicd-inbox-page>`);
    const panel = await until(() => deep(el, 'aicd-canned-replies'), 'the canned replies section');
    await until(() => deepText(panel).includes('No canned replies yet'), 'the empty list');
    await fill(panel, 'shortcut', 'thanks');
    await fill(panel, 'text', 'Thank you for waiting!');
    button(panel, 'Add canned reply')!.click();
    await until(() => deepAll(panel, 'td').some((td) => td.textContent === '/thanks'), 'the new reply listed');
    const { data } = await api.client.cannedReplies.list();
    expect(data.items.map((r) => r.shortcut)).to.deep.equal(['thanks']);
    await expect(el).to.be.accessible();
  });
});
