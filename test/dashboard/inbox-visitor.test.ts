// The visitor in the operator inbox, against the real service in real Chromium: the visitor's page
// has the widget, whose site calls `identify({id, name, email, …})`; the operator's inbox page shows
// the visitor of the conversation waiting for a person: name and email marked unverified, the page as
// a safe link, the language, their local time, the site's traits, and the visitor's earlier
// conversation as a link that opens it. Hostile traits render as text; axe finds nothing.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/ai-chat-widget.js';
import type { AiChatWidget } from '../../src/element.js';
import '../../src/dashboard/pages/inbox-page.js';
import type { AicdInboxPage } from '../../src/dashboard/pages/inbox-page.js';
import '../../src/dashboard/pages/inbox-visitor.js';
import type { AicdInboxVisitor } from '../../src/dashboard/pages/inbox-visitor.js';
import { askForPerson, button, deep, deepAll, deepText, HOSTILE, operatorWithHandoffBot, signOut, until } from './helpers.js';

describe('aicd-inbox-visitor', () => {
  after(signOut);

  it("shows who the widget's visitor is, unverified, and opens their earlier conversation", async () => {
    const { api, visitor, botId } = await operatorWithHandoffBot('Visitor');
    const user = `identified-${Date.now()}`;
    // an earlier conversation of the same visitor (the chat endpoint, some days ago as far as the inbox cares)
    const { data: earlier } = await visitor.chat.send({ messages: [{ role: 'user', content: 'an older question' }], user_id: user });
    const { secret } = await api.createKey({ label: 'widget page' });

    // the visitor's page: the widget, told who the visitor is
    const widget = document.createElement('ai-chat-widget') as AiChatWidget;
    Object.assign(widget, { mode: 'inline', apiKey: secret, botId, baseUrl: `${location.origin}/v1` });
    (await fixture<HTMLDivElement>(html`<div></div>`)).append(widget);
    widget.identify({ id: user, name: 'Anna Muster', email: 'anna@example.com', plan: HOSTILE });
    await widget.send('hello');
    const conversationId = widget.conversationId!;
    expect(conversationId).to.not.equal(earlier.conversation_id);

    // the operator's page
    const el = await fixture<AicdInboxPage>(html`<aicd-inbox-page .api=${api}></aicd-inbox-page>`);
    await until(() => deepText(el).includes('Nobody is waiting'), 'the empty inbox');
    await askForPerson(visitor, conversationId, user);
    (await until(() => button(el, `Open the conversation with ${user}`), 'the waiting conversation')).click();

    const panel = await until(() => deep<AicdInboxVisitor>(el, 'aicd-inbox-visitor'), 'the visitor panel');
    await until(() => deepText(panel).includes('Anna Muster'), 'the visitor name');
    const rows = () => Object.fromEntries(deepAll(panel, 'dt').map((dt) => [dt.textContent!.trim(), (dt.nextElementSibling as HTMLElement).textContent!.replace(/\s+/g, ' ').trim()]));
    const shown = rows();
    expect(shown.Name).to.equal('Anna Muster (unverified)');
    expect(shown.Email).to.equal('anna@example.com (unverified)');
    expect(shown.Language).to.equal(navigator.language);
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(shown['Local time']).to.match(new RegExp(`\\d.*\\(${zone.replace(/[+/]/g, '\\$&')}\\)$`));
    expect(shown.plan).to.equal(HOSTILE); // the site's trait, as text
    expect(globalThis.__pwned).to.equal(0);

    const pageLink = deepAll<HTMLAnchorElement>(panel, 'dd a').find((a) => a.textContent === location.origin + location.pathname)!;
    expect(pageLink, 'the page link').to.not.equal(undefined);
    expect(pageLink.rel).to.equal('noopener noreferrer');
    expect(pageLink.target).to.equal('_blank');

    // the earlier conversation: listed, and its link opens it on the Conversations page
    const earlierLink = deepAll<HTMLAnchorElement>(panel, '.earlier a');
    expect(earlierLink.map((a) => a.getAttribute('href'))).to.deep.equal([`#/conversations/${earlier.conversation_id}`]);
    await expect(el).to.be.accessible();
  });

  it('shows a javascript: page as text, never as a link', async () => {
    const api = { inboxVisitor: async () => ({ conversation_id: 'conv_x', user_id: null, visitor: { page_url: 'javascript:alert(1)', updated_at: new Date().toISOString() }, earlier: [] }) };
    const el = await fixture<AicdInboxVisitor>(html`<aicd-inbox-visitor .api=${api} .conversationId=${'conv_x'}></aicd-inbox-visitor>`);
    await until(() => deepText(el).includes('javascript:alert(1)'), 'the page as text');
    expect(deep(el, 'a')?.outerHTML).to.equal(undefined);
    expect(deepText(el)).to.include('None: the visitor has no user id.');
  });
});
