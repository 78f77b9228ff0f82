// Human handoff in the widget against the real service in real Chromium: the visitor's
// widget and the operator's dashboard inbox page, each with its own live events stream, exchange
// messages that arrive on the other side within 1 s; the banner, `ai-chat-handoff`, operator
// typing and the visitor's typing; a stream cut again and again loses nothing and repeats nothing;
// a reload catches up from history and follows again (also behind a token proxy, with and without
// `bot-id`); nobody online or outside the opening hours
// gives the email form; the bot hands off by itself; a host with its own helpdesk cancels the ask.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { AiChatHandoffEvent, AiChatWidget } from '../../src/element.js';
import '../../src/dashboard/pages/inbox-page.js';
import type { AicdInboxPage } from '../../src/dashboard/pages/inbox-page.js';
import { button, deepAll, deepText, HOSTILE, signOut, until } from '../dashboard/helpers.js';
import { $, $$, baseUrl, clearWidgetStorage, createBot, faultBaseUrl, mount, typeText } from './helpers.js';
import { online, operatorAndBot, untilAvailable } from './handoff-support.js';

/** The bound for a message to reach the other side. */
const DELIVERY_MS = 1000;

const part = (el: AiChatWidget, name: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const banner = (el: AiChatWidget) => part(el, 'handoff-status')?.textContent?.trim() ?? '';
/**
 * Ends the bubbles' fade-in at once, so axe reads the final colours. (Waiting for them, as
 * `animationsFinished` does, hung here: with the inbox page beside the widget, a finished fade's
 * `finished` promise was seen never to settle.)
 */
const settle = (el: AiChatWidget) => el.shadowRoot!.getAnimations().forEach((a) => a.finish());
const operatorTexts = (el: AiChatWidget) => $$(el, '[part~="message-operator"] [part~="bubble"]').map((b) => b.textContent!.replace(/^.*?: /, '').trim());

async function widgetFor(secret: string, botId: string, attrs: Record<string, string> = {}) {
  const { el, ready } = await mount({ mode: 'inline', 'api-key': secret, 'bot-id': botId, 'base-url': baseUrl, ...attrs });
  await ready;
  const events: AiChatHandoffEvent[] = [];
  el.addEventListener('ai-chat-handoff', (e) => events.push(e));
  return { el, events };
}

describe('human handoff in the widget', () => {
  beforeEach(clearWidgetStorage);
  afterEach(clearWidgetStorage);
  after(signOut);

  it('a visitor and an operator (the inbox page) talk live, each message within 1 s; banner, events, typing, axe', async function () {
    this.timeout(40_000);
    const { api, secret, botId, operator } = await operatorAndBot();
    const inbox = await fixture<AicdInboxPage>(html`<aicd-inbox-page .api=${api}></aicd-inbox-page>`);
    await until(() => deepText(inbox).includes('Nobody is waiting'), 'the empty inbox');
    await untilAvailable(api, botId); // the page's events stream has marked the operator online

    const { el, events } = await widgetFor(secret, botId, { 'user-id': 'visitor-live', storage: 'none' });
    expect(part(el, 'handoff-button'), 'no conversation yet: nothing to hand over').to.equal(null);
    await el.send('hello');
    const talk = await until(() => part(el, 'handoff-button'), '"Talk to a person" once there is a conversation');
    expect(talk.textContent!.trim()).to.equal('Talk to a person');

    talk.click();
    await until(() => banner(el) === 'Waiting for a person…', 'the waiting banner');
    expect(events.map((e) => e.detail.status)).to.deep.equal(['waiting']);
    expect(events[0].cancelable, 'the ask is cancelable').to.equal(true);
    expect(el.shadowRoot!.activeElement, 'focus moves to the input when the button goes').to.equal($(el, 'textarea'));

    (await until(() => button(inbox, 'Take the conversation with visitor-live'), 'the waiting conversation in the inbox')).click();
    await until(() => banner(el) === `${operator.name} joined`, 'the "joined" banner', DELIVERY_MS);
    expect(events.at(-1)!.detail.status).to.equal('with_person');
    expect(events.at(-1)!.detail.operator?.name).to.equal(operator.name);

    // operator → visitor: typing, then the message, within 1 s, with the operator's name
    const reply = await until(() => deepAll<HTMLTextAreaElement>(inbox, 'textarea#reply')[0], 'the reply box');
    reply.focus();
    await sendKeys({ type: 'Hi, I am a person' });
    await until(() => el.shadowRoot!.querySelector('.handoff-typing')?.textContent === `${operator.name} is typing…`, 'the operator typing', DELIVERY_MS);
    const sentAt = performance.now();
    await sendKeys({ press: 'Enter' });
    await until(() => operatorTexts(el).includes('Hi, I am a person'), 'the operator message in the widget', DELIVERY_MS);
    expect(performance.now() - sentAt).to.be.below(DELIVERY_MS);
    const row = $$(el, '[part~="message-operator"]')[0];
    expect(row.querySelector('[part~="author"]')!.textContent!.trim()).to.equal(operator.name);
    expect(row.querySelector('.sr-only')!.textContent).to.equal(`${operator.name}: `);
    expect(el.messages.at(-1)).to.include({ role: 'operator', content: 'Hi, I am a person' });
    expect(el.messages.at(-1)!.author?.name).to.equal(operator.name);

    // the visitor types: the operator sees it; then visitor → operator within 1 s, hostile text as text
    await typeText(el, 'a');
    await until(() => deepText(inbox).includes('The visitor is typing…'), 'the visitor typing in the inbox', DELIVERY_MS);
    const askedAt = performance.now();
    const held = await el.send(HOSTILE);
    expect(held, 'a person answers: no bot reply').to.equal(null);
    await until(() => deepAll(inbox, '.message.user .text').some((p) => p.textContent === HOSTILE), 'the visitor message in the inbox', DELIVERY_MS);
    expect(performance.now() - askedAt).to.be.below(DELIVERY_MS + 500); // the visitor's own POST is part of this span
    expect(el.messages.at(-1)).to.include({ role: 'user', content: HOSTILE, status: 'sent' });
    expect(el.messages.filter((m) => m.role === 'assistant')).to.have.length(1, 'only the bot reply before the handoff');
    expect(globalThis.__pwned).to.equal(0);

    settle(el);
    await expect(el).to.be.accessible();

    button(inbox, 'End conversation')!.click();
    await until(() => banner(el).startsWith('The conversation has ended.'), 'the ended banner', DELIVERY_MS);
    expect(events.map((e) => e.detail.status)).to.deep.equal(['waiting', 'with_person', 'closed']);
    expect(part(el, 'handoff-button'), 'no asking in a closed conversation').to.equal(null);
  });

  it('a stream cut again and again: every operator message arrives once, in order', async () => {
    const { api, secret, botId } = await operatorAndBot();
    const offline = await online(api, botId);
    try {
      // every connection still open after 700 ms is cut: the events stream, over and over
      const { el } = await widgetFor(secret, botId, { 'user-id': 'visitor-cut', storage: 'none', 'base-url': faultBaseUrl('drop-after/700') });
      await el.send('hello');
      (await until(() => part(el, 'handoff-button'), 'Talk to a person')).click();
      await until(() => banner(el) === 'Waiting for a person…', 'the waiting banner');
      const conversationId = el.conversationId!;
      await api.take(conversationId);
      const sent: string[] = [];
      for (let i = 1; i <= 6; i++) {
        sent.push(`message ${i}`);
        await api.reply(conversationId, `message ${i}`);
        await new Promise((r) => setTimeout(r, 350));
      }
      await until(() => operatorTexts(el).length >= 6, 'all six operator messages', 15_000);
      await new Promise((r) => setTimeout(r, 1500)); // more reconnects: nothing comes twice
      expect(operatorTexts(el)).to.deep.equal(sent);
      expect(banner(el)).to.match(/ joined$/);
    } finally {
      offline();
    }
  });

  it('a reload catches up from history, shows who answers and follows again', async () => {
    const { api, secret, botId, operator } = await operatorAndBot();
    const offline = await online(api, botId);
    try {
      const first = await widgetFor(secret, botId, { 'user-id': 'visitor-reload', id: 'reload' });
      await first.el.send('hello');
      (await until(() => part(first.el, 'handoff-button'), 'Talk to a person')).click();
      await until(() => banner(first.el) === 'Waiting for a person…', 'the waiting banner');
      const conversationId = first.el.conversationId!;
      first.el.remove(); // the page goes away
      await api.take(conversationId);
      await api.reply(conversationId, 'written while you were away');

      const again = await widgetFor(secret, botId, { 'user-id': 'visitor-reload', id: 'reload' });
      await until(() => operatorTexts(again.el).includes('written while you were away'), 'the operator message from history');
      await until(() => banner(again.el) === `${operator.name} joined`, 'the restored banner');
      expect(again.events.map((e) => e.detail.status)).to.deep.equal(['with_person']);
      await api.reply(conversationId, 'and this one live');
      await until(() => operatorTexts(again.el).includes('and this one live'), 'a live message after the reload', DELIVERY_MS);
      expect(operatorTexts(again.el)).to.deep.equal(['written while you were away', 'and this one live']);
    } finally {
      offline();
    }
  });

  // A site's widget behind its token proxy, whose tokens are bound to the bot: with `bot-id` (the bot
  // endpoint) and without (the chat endpoint; the token names the bot), as the demo page has it.
  for (const withBotId of [false, true]) {
    it(`a reload mid-handoff through a token proxy ${withBotId ? 'with' : 'without'} bot-id: banner, live events, a held message and the end`, async function () {
      this.timeout(30_000);
      const { api, secret, botId, operator } = await operatorAndBot();
      const offline = await online(api, botId);
      try {
        const created = await fetch('/__test__/proxies', { method: 'POST', body: JSON.stringify({ api_key: secret, bot_id: botId }) });
        const { token_url } = (await created.json()) as { token_url: string };
        const attrs = { mode: 'inline', 'token-url': token_url, id: 'proxied', ...(withBotId && { 'bot-id': botId }) };
        const first = (await mount(attrs)).el;
        expect((await first.send('hello'))?.role).to.equal('assistant');
        (await until(() => part(first, 'handoff-button'), 'Talk to a person')).click();
        await until(() => banner(first) === 'Waiting for a person…', 'the waiting banner');
        const conversationId = first.conversationId!;
        await api.take(conversationId);
        await until(() => banner(first) === `${operator.name} joined`, 'the joined banner');
        first.remove(); // the visitor reloads: a new widget over the same storage

        const { el, ready } = await mount(attrs);
        await ready;
        await until(() => banner(el) === `${operator.name} joined`, 'the banner back after the reload');
        await api.reply(conversationId, 'still here after your reload');
        await until(() => operatorTexts(el).includes('still here after your reload'), 'a live operator message', DELIVERY_MS);
        expect(await el.send('thanks'), 'held for the person: no bot reply').to.equal(null);
        expect(el.messages.at(-1)).to.include({ role: 'user', content: 'thanks', status: 'sent' });
        expect(part(el, 'error'), 'no "Not sent"').to.equal(null);
        await api.closeConversation(conversationId, 'closed');
        await until(() => banner(el).startsWith('The conversation has ended.'), 'the ended banner', DELIVERY_MS);
        // the next message starts a new conversation with the bot, no 409 and no Retry
        expect((await el.send('hello again'))?.role).to.equal('assistant');
        expect(el.conversationId).to.not.equal(conversationId);
        expect(el.messages.filter((m) => m.status === 'failed')).to.deep.equal([]);
      } finally {
        offline();
      }
    });
  }

  it('nobody online: the widget says so and takes an email, which the inbox lists', async () => {
    const { api, secret, botId } = await operatorAndBot();
    const { el } = await widgetFor(secret, botId, { 'user-id': 'visitor-offline', storage: 'none' });
    await el.send('hello');
    const leave = await until(() => part(el, 'leave-message-button'), '"Leave a message"');
    expect(part(el, 'handoff-button')).to.equal(null);
    expect(part(el, 'handoff')!.textContent).to.include('Nobody can answer right now.');
    leave.click();
    const email = await until(() => part(el, 'offline-email') as HTMLInputElement | null, 'the email form');
    await el.updateComplete;
    expect(el.shadowRoot!.activeElement, 'the form takes the focus').to.equal(email);
    email.value = 'visitor@example.test';
    (part(el, 'offline-message') as HTMLTextAreaElement).value = HOSTILE;
    part(el, 'offline-send')!.click();
    await until(() => banner(el) === 'Thank you. We will reply to visitor@example.test.', 'the thank-you');
    expect(part(el, 'offline-form')).to.equal(null);
    const [left] = await api.offlineMessages();
    expect(left).to.include({ email: 'visitor@example.test', message: HOSTILE, conversation_id: el.conversationId });
    settle(el);
    await expect(el).to.be.accessible();
  });

  it('outside the opening hours: the widget says that, too', async () => {
    // a range that is never now: an hour that has just passed, on today's weekday, in UTC
    const now = new Date();
    const day = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'][now.getUTCDay()] as 'mon';
    const hour = (now.getUTCHours() + 22) % 24;
    const range = { day, from: `${String(hour).padStart(2, '0')}:00`, to: `${String(hour).padStart(2, '0')}:01` };
    const { api, secret, botId } = await operatorAndBot({ hours: { time_zone: 'UTC', weekly: [range] } });
    const offline = await online(api); // online, but the hours say no
    try {
      const { el } = await widgetFor(secret, botId, { 'user-id': 'visitor-hours', storage: 'none' });
      await el.send('hello');
      await until(() => part(el, 'leave-message-button'), '"Leave a message"');
      expect(part(el, 'handoff')!.textContent).to.include('we are outside our opening hours');
    } finally {
      offline();
    }
  });

  it('the bot hands off by itself after a fallback: its reply stays, the banner follows', async () => {
    const { api, secret, botId } = await operatorAndBot({ after_fallbacks: 1 });
    const offline = await online(api, botId);
    try {
      const { el, events } = await widgetFor(secret, botId, { 'user-id': 'visitor-auto', storage: 'none' });
      const reply = await el.send('qwxz zzkv ploof');
      expect(reply?.role, 'the fallback reply is shown').to.equal('assistant');
      await until(() => banner(el) === 'Waiting for a person…', 'the waiting banner');
      expect(events.map((e) => [e.detail.status, e.cancelable])).to.deep.equal([['waiting', false]]);
      expect((await api.inbox()).map((c) => c.id)).to.include(el.conversationId);
    } finally {
      offline();
    }
  });

  it('a host with its own helpdesk cancels the ask: nobody is asked, nothing changes', async () => {
    const { api, secret, botId } = await operatorAndBot();
    const offline = await online(api, botId);
    try {
      const { el, events } = await widgetFor(secret, botId, { 'user-id': 'visitor-own-desk', storage: 'none' });
      el.addEventListener('ai-chat-handoff', (e) => e.preventDefault());
      await el.send('hello');
      (await until(() => part(el, 'handoff-button'), 'Talk to a person')).click();
      await el.updateComplete;
      expect(events.map((e) => e.detail.status)).to.deep.equal(['waiting']);
      expect(events[0].defaultPrevented).to.equal(true);
      expect(banner(el)).to.equal('');
      expect(part(el, 'handoff-button'), 'still offered').to.not.equal(null);
      expect(await api.inbox()).to.deep.equal([]);
    } finally {
      offline();
    }
  });

  it('a bot without handoff never loads the add-on and shows nothing of it', async () => {
    const { secret } = await operatorAndBot();
    const plain = await createBot(secret);
    const { el } = await widgetFor(secret, plain, { storage: 'none' });
    await el.send('hello');
    await new Promise((r) => setTimeout(r, 300));
    expect(part(el, 'handoff')).to.equal(null);
  });
});
