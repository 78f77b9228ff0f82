// The operator inbox (human handoff) against the real service in real Chromium: a visitor
// (the typed client with an API key of the operator's account) asks for a person; the operator's
// inbox page shows the conversation waiting, takes it by keyboard, and the two exchange messages,
// each arriving on the other side within 1 s (the handoff's delivery bound; the transport is the real SSE
// streams of both sides). Hostile visitor text renders as text; axe finds nothing.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { HandoffEvent } from '../../src/client/index.js';
import { DashboardApi } from '../../src/dashboard/api.js';
import '../../src/dashboard/pages/conversations-page.js';
import '../../src/dashboard/pages/inbox-page.js';
import type { AicdInboxPage } from '../../src/dashboard/pages/inbox-page.js';
import { askForPerson, button, deep, deepAll, deepText, HOSTILE, operatorWithHandoffBot, signOut, tabTo, until } from './helpers.js';

/** The handoff's bound for a message to reach the other side. */
const DELIVERY_MS = 1000;

describe('aicd-inbox-page', () => {
  after(signOut);

  it('a visitor and an operator exchange messages live, each within 1 s; keyboard, hostile text, axe', async () => {
    const { api, visitor, botId } = await operatorWithHandoffBot('Inbox');
    const user = 'visitor-in-chromium';
    const { data: first } = await visitor.bots.sendMessage(botId, { message: 'hello', user_id: user });
    const conversationId = first.conversation_id;

    const el = await fixture<AicdInboxPage>(html`<aicd-inbox-page .api=${api}></aicd-inbox-page>`);
    // the open page makes this operator online: asking for a person now succeeds
    await until(() => deepText(el).includes('Nobody is waiting'), 'the empty inbox');
    const asked = await askForPerson(visitor, conversationId, user);
    expect(asked.status).to.equal('waiting');

    const take = await until(() => button(el, `Take the conversation with ${user}`), 'the waiting conversation with its Take button');
    expect(deepText(el)).to.match(/Waiting (just now|\d+ min)/);

    const received: HandoffEvent[] = [];
    const stop = new AbortController();
    let onReady!: () => void;
    const ready = new Promise<void>((resolve) => (onReady = resolve));
    void (async () => {
      for await (const event of visitor.handoff.events(conversationId, { user_id: user, signal: stop.signal, onReady })) received.push(event);
    })();
    await ready; // the visitor's stream is open: nothing from here on is missed

    // keyboard: Tab to Take, Enter
    expect(await tabTo(take)).to.equal(true);
    await sendKeys({ press: 'Enter' });
    const reply = await until(() => deep<HTMLTextAreaElement>(el, 'textarea#reply'), 'the reply box of a taken conversation');
    await until(() => received.some((e) => e.type === 'status' && e.data.status === 'with_person'), 'the visitor hears the take');

    // operator → visitor within 1 s: typed and sent with Enter
    reply.focus();
    await sendKeys({ type: 'Hi, this is a person' });
    const sentAt = performance.now();
    await sendKeys({ press: 'Enter' });
    await until(() => received.some((e) => e.type === 'message' && e.data.content === 'Hi, this is a person'), 'the reply at the visitor', DELIVERY_MS);
    expect(performance.now() - sentAt).to.be.below(DELIVERY_MS);
    const operatorMessage = received.find((e) => e.type === 'message')!;
    expect(operatorMessage.type === 'message' && operatorMessage.data.role).to.equal('operator');

    // the visitor types: the operator sees it
    await visitor.handoff.typing(conversationId, { user_id: user });
    await until(() => deepText(el).includes('The visitor is typing…'), 'the visitor typing notice', DELIVERY_MS);

    // visitor → operator within 1 s, hostile text shown as text
    const askedAt = performance.now();
    const held = await visitor.bots.sendMessage(botId, { message: HOSTILE, user_id: user });
    expect(held.data.handoff?.held).to.equal(true);
    await until(() => deepAll(el, '.message.user .text').some((p) => p.textContent === HOSTILE), 'the visitor message in the transcript', DELIVERY_MS);
    expect(performance.now() - askedAt).to.be.below(DELIVERY_MS + 500); // the visitor's own POST is part of this span
    expect(globalThis.__pwned).to.equal(0);
    expect(deep(el, '.message.user img')?.outerHTML).to.equal(undefined);

    await expect(el).to.be.accessible();

    button(el, 'End conversation')!.click();
    await until(() => received.some((e) => e.type === 'status' && e.data.status === 'closed'), 'the visitor hears the end');
    await until(() => deepText(el).includes('Nobody is waiting'), 'the inbox empty again');
    stop.abort();

    // the Conversations page labels the operator's message as a person's, by name
    const page = await fixture(html`<aicd-conversations-page .client=${api.client}></aicd-conversations-page>`);
    (await until(() => button(page, /^Open the conversation/), 'the conversation list')).click();
    await until(() => deepAll(page, '.message.operator .who').some((p) => /\(person\)/.test(p.textContent ?? '')), 'the operator message, labelled');
  });

  it('keeps the newest message in view: on open, when a message arrives, after sending', async () => {
    const { api, visitor, botId } = await operatorWithHandoffBot('Scroll');
    const user = 'long-talker';
    const { data: first } = await visitor.bots.sendMessage(botId, { message: 'hello 0', user_id: user });
    for (let i = 1; i < 15; i++) await visitor.bots.sendMessage(botId, { message: `hello ${i}`, user_id: user });

    const el = await fixture<AicdInboxPage>(html`<aicd-inbox-page .api=${api}></aicd-inbox-page>`);
    await until(() => deepText(el).includes('Nobody is waiting'), 'the empty inbox');
    await askForPerson(visitor, first.conversation_id, user);
    (await until(() => button(el, `Take the conversation with ${user}`), 'the waiting conversation')).click();
    const list = await until(() => deep(el, '.messages'), 'the transcript');
    const atNewest = () => list.scrollHeight > list.clientHeight && list.scrollHeight - list.scrollTop - list.clientHeight < 2;
    await until(() => deepAll(el, '.message').length >= 30 && atNewest(), 'the opened transcript scrolled to its newest message');

    await visitor.bots.sendMessage(botId, { message: 'one more thing', user_id: user });
    await until(() => deepAll(el, '.message.user .text').some((p) => p.textContent === 'one more thing') && atNewest(), 'a new message in view');

    list.scrollTop = 0; // the operator reads back, then replies
    const reply = await until(() => deep<HTMLTextAreaElement>(el, 'textarea#reply'), 'the reply box');
    reply.focus();
    await sendKeys({ type: 'Sure, go on' });
    await sendKeys({ press: 'Enter' });
    await until(() => deepAll(el, '.message.operator .text').some((p) => p.textContent === 'Sure, go on') && atNewest(), 'the sent reply in view');
  });

  it('lists messages left while nobody was online', async () => {
    const api = new DashboardApi();
    await api.signUp({ email: `offline.${Date.now()}@example.test`, password: 'correct horse battery', account_name: 'Offline' });
    const { data: bot } = await api.client.bots.create({ name: 'Shop' });
    await api.client.handoff.updateSettings(bot.id, { enabled: true });
    const { data: first } = await api.client.bots.sendMessage(bot.id, { message: 'hello', user_id: 'late-visitor' });
    await api.client.handoff.leaveOfflineMessage(first.conversation_id, { email: 'late@example.test', message: HOSTILE, user_id: 'late-visitor' });
    const el = await fixture<AicdInboxPage>(html`<aicd-inbox-page .api=${api}></aicd-inbox-page>`);
    await until(() => deepText(el).includes('late@example.test'), 'the offline message');
    expect(deepAll(el, '.offline td').some((td) => td.textContent === HOSTILE)).to.equal(true);
    expect(globalThis.__pwned).to.equal(0);
    await expect(el).to.be.accessible();
  });
});
