// Conversations against the real service: both backends, streaming, history, persistence,
// instance isolation, identity switches and reset.
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import type { AiChatWidget, TranscriptMessage } from '../../src/element.js';
import {
  $,
  $$,
  baseUrl,
  clearWidgetStorage,
  createBot,
  faultBaseUrl,
  historyOf,
  mount,
  newApiKey,
  typeText,
  waitFor,
  widgetStorageKeys,
} from './helpers.js';

/** Sends `text` through the composer (type + click) and resolves with the received event. */
async function sendThroughComposer(el: AiChatWidget, text: string) {
  const received = oneEvent(el, 'ai-chat-message-received');
  await typeText(el, text);
  $(el, '[part~="send-button"]').click();
  return received;
}

describe('<ai-chat-widget> conversations', () => {
  beforeEach(clearWidgetStorage);

  describe('bot backend', () => {
    it('sends a message, renders the reply with its suggestions and fires the events', async () => {
      const apiKey = await newApiKey();
      const botId = await createBot(apiKey);
      const { el, ready } = await mount({ mode: 'inline', 'base-url': baseUrl, 'api-key': apiKey, 'bot-id': botId });
      const readyEvent = await ready;
      expect(readyEvent.detail).to.include({ conversationId: null, messageCount: 0 });
      expect(readyEvent.detail.userId).to.match(/^anon_/);

      const sent = oneEvent(el, 'ai-chat-message-sent');
      const received = sendThroughComposer(el, 'hello');
      const sentEvent = await sent;
      expect(sentEvent.detail).to.include({ text: 'hello', conversationId: null });
      await el.updateComplete;
      expect($<HTMLTextAreaElement>(el, 'textarea').value).to.equal('');
      const { detail } = await received;
      expect(detail.conversationId).to.match(/^conv_/);
      expect(detail.message).to.include({ role: 'assistant', status: 'sent' });
      expect(detail.message.content).to.equal('Hello! How can I **help** you today?');
      await el.updateComplete;

      expect(el.messages.map((m) => [m.role, m.status])).to.deep.equal([
        ['user', 'sent'],
        ['assistant', 'sent'],
      ]);
      expect(el.messages[0].id).to.equal(sentEvent.detail.id);
      expect(el.conversationId).to.equal(detail.conversationId);
      const bubbles = $$(el, '[part~="bubble"]');
      expect(bubbles[1].querySelector('strong')!.textContent).to.equal('help');
      const suggestions = $$(el, '[part~="suggestion"]').map((b) => b.textContent!.trim());
      expect(suggestions).to.deep.equal(['Opening hours', 'Pricing']);

      // a suggestion click sends it as the user's message
      const next = oneEvent(el, 'ai-chat-message-received');
      $$(el, '[part~="suggestion"]')[0].click();
      expect((await next).detail.message.content).to.equal('We are open 9 to 5, Monday to Friday.');

      const stored = await historyOf(apiKey, { conversation_id: detail.conversationId });
      expect(stored.map((m) => m.content)).to.deep.equal([
        'hello',
        'Hello! How can I **help** you today?',
        'Opening hours',
        'We are open 9 to 5, Monday to Friday.',
      ]);
    });

    it('offers the bot\'s conversation starters before the first message', async () => {
      const apiKey = await newApiKey();
      const botId = await createBot(apiKey, { quick_replies: ['What are your hours?'] });
      const { el, ready } = await mount({ mode: 'inline', 'base-url': baseUrl, 'api-key': apiKey, 'bot-id': botId });
      await ready;
      await waitFor(() => el.shadowRoot!.querySelector('[part~="suggestion"]'), 5000, 'starters');
      expect($(el, '[part~="suggestion"]').textContent!.trim()).to.equal('What are your hours?');
    });
  });

  describe('chat backend', () => {
    it('sends the conversation to /chat and continues it with the conversation id', async () => {
      const apiKey = await newApiKey();
      const { el, ready } = await mount({ mode: 'inline', 'base-url': baseUrl, 'api-key': apiKey });
      await ready;
      const first = await el.send('hello');
      expect(first).to.not.equal(null);
      expect(first!.content.length).to.be.greaterThan(0);
      const conversationId = el.conversationId!;
      expect(conversationId).to.match(/^conv_/);
      await el.send('what can you do?');
      expect(el.conversationId).to.equal(conversationId);
      const stored = await historyOf(apiKey, { conversation_id: conversationId });
      expect(stored.filter((m) => m.role === 'user').map((m) => m.content)).to.deep.equal([
        'hello',
        'what can you do?',
      ]);
      expect(stored).to.have.length(4);
    });

    it('delivers a message sent before the element was connected', async () => {
      const apiKey = await newApiKey();
      const container = await fixture<HTMLDivElement>(html`<div></div>`);
      const el = document.createElement('ai-chat-widget');
      el.setAttribute('base-url', baseUrl);
      el.setAttribute('api-key', apiKey);
      const reply = el.send('hello');
      container.append(el);
      expect(await reply).to.not.equal(null);
      expect(el.messages.map((m) => m.role)).to.deep.equal(['user', 'assistant']);
    });

    it('lists the sources under a knowledge answer', async () => {
      const apiKey = await newApiKey();
      const response = await fetch(`${baseUrl}/knowledge`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({
          title: 'Refund policy',
          content: 'Refunds are paid within 14 days of the return. Refunds go back to the original card.',
        }),
      });
      expect(response.status).to.equal(201);
      const { el, ready } = await mount({ mode: 'inline', 'base-url': baseUrl, 'api-key': apiKey });
      await ready;
      const reply = await el.send('How long do refunds take?');
      expect(reply!.citations?.map((c) => c.title)).to.deep.equal(['Refund policy']);
      await el.updateComplete;
      expect($(el, '[part~="citations"]').textContent).to.contain('Refund policy');
    });

    it('streams the reply and ends with the stored message', async () => {
      const apiKey = await newApiKey();
      const { el, ready } = await mount({ mode: 'inline', 'base-url': baseUrl, 'api-key': apiKey, stream: true });
      await ready;
      const reply = await el.send('hello');
      expect(reply).to.not.equal(null);
      const stored = await historyOf(apiKey, { conversation_id: el.conversationId! });
      expect(stored[1].content).to.equal(reply!.content);
      expect(el.messages.map((m) => m.status)).to.deep.equal(['sent', 'sent']);
    });

    it('drops a half-streamed reply when the stream breaks, keeping the user message for retry', async () => {
      const apiKey = await newApiKey();
      const { el, ready } = await mount({
        mode: 'inline',
        'base-url': faultBaseUrl('sse-truncated'),
        'api-key': apiKey,
        stream: true,
      });
      await ready;
      const error = oneEvent(el, 'ai-chat-error');
      expect(await el.send('hello')).to.equal(null);
      expect((await error).detail.code).to.equal('unknown_error');
      await el.updateComplete;
      expect(el.messages.map((m) => [m.role, m.status])).to.deep.equal([['user', 'failed']]);
      expect($$(el, '[part~="message-assistant"]')).to.have.length(0);
    });
  });

  describe('persistence and history', () => {
    it('writes nothing before the first interaction', async () => {
      const apiKey = await newApiKey();
      const { el, ready } = await mount({ 'base-url': baseUrl, 'api-key': apiKey });
      await ready;
      await el.open();
      el.close();
      expect(widgetStorageKeys()).to.deep.equal([]);
      await el.send('hello');
      expect(widgetStorageKeys()).to.have.length(2); // the anonymous id and the conversation
    });

    it('restores the conversation in a re-created element, taking the server as the truth', async () => {
      const apiKey = await newApiKey();
      const botId = await createBot(apiKey);
      const attrs = { id: 'support', mode: 'inline', 'base-url': baseUrl, 'api-key': apiKey, 'bot-id': botId };
      const first = await mount(attrs);
      await first.ready;
      await first.el.send('hello');
      const conversationId = first.el.conversationId;
      const userId = (await first.ready).detail.userId;
      first.el.remove();

      // tamper with the local copy: the server's history must win
      const key = widgetStorageKeys().find((k) => k.includes(':conv:'))!;
      const local = JSON.parse(localStorage.getItem(key)!);
      local.messages[1].content = 'TAMPERED';
      localStorage.setItem(key, JSON.stringify(local));

      const second = await mount(attrs);
      const { detail } = await second.ready;
      expect(detail).to.include({ conversationId, userId, messageCount: 2 });
      await second.el.updateComplete;
      expect(second.el.messages.map((m) => m.content)).to.deep.equal([
        'hello',
        'Hello! How can I **help** you today?',
      ]);
      expect($$(second.el, '[part~="message"]')).to.have.length(2);
      expect(second.el.shadowRoot!.textContent).to.not.contain('TAMPERED');
    });

    it('keeps storage="session" in sessionStorage and storage="none" nowhere', async () => {
      const apiKey = await newApiKey();
      const session = await mount({ storage: 'session', 'base-url': baseUrl, 'api-key': apiKey });
      await session.ready;
      await session.el.send('hello');
      expect(Object.keys(sessionStorage).filter((k) => k.startsWith('ai-chat-widget:'))).to.have.length(2);
      expect(Object.keys(localStorage).filter((k) => k.startsWith('ai-chat-widget:'))).to.have.length(0);
      clearWidgetStorage();
      const none = await mount({ storage: 'none', 'base-url': baseUrl, 'api-key': apiKey });
      await none.ready;
      await none.el.send('hello');
      expect(widgetStorageKeys()).to.deep.equal([]);
    });

    it('keeps two widgets on one page apart, also across reloads', async () => {
      const apiKey = await newApiKey();
      const botId = await createBot(apiKey);
      const attrs = { mode: 'inline', 'base-url': baseUrl, 'api-key': apiKey, 'bot-id': botId };
      const page = await fixture<HTMLDivElement>(html`<div></div>`);
      const a = await mount(attrs, {}, page);
      const b = await mount(attrs, {}, page);
      const [readyA, readyB] = await Promise.all([a.ready, b.ready]);
      expect(readyA.detail.userId).to.not.equal(readyB.detail.userId);
      await a.el.send('hello');
      expect(b.el.messages).to.have.length(0);

      // "reload": both elements re-created in the same order
      a.el.remove();
      b.el.remove();
      const a2 = await mount(attrs, {}, page);
      const b2 = await mount(attrs, {}, page);
      expect((await a2.ready).detail.messageCount).to.equal(2);
      expect((await b2.ready).detail.messageCount).to.equal(0);
      expect(b2.el.messages).to.have.length(0);
    });
  });

  describe('a transcript set by the host', () => {
    const restored = (n: number): TranscriptMessage[] =>
      Array.from({ length: n }, (_, i) => ({
        id: `h${i}`,
        role: i % 2 ? 'assistant' : 'user',
        content: `message ${i}`,
        time: '',
        status: 'sent',
      }));
    const noisy = ['ai-chat-message-sent', 'ai-chat-message-received', 'ai-chat-error'];

    it('replaces the transcript without events or requests, and is stored', async () => {
      const apiKey = await newApiKey();
      const attrs = { id: 'restored', mode: 'inline', 'base-url': baseUrl, 'api-key': apiKey };
      const { el, ready } = await mount(attrs);
      await ready;
      const fired: string[] = [];
      for (const type of noisy) el.addEventListener(type, () => fired.push(type));
      el.messages = [...restored(3), { id: 'h3', role: 'user', content: 'cut off', time: '', status: 'sending' }];
      await el.updateComplete;
      expect(el.messages.map((m) => m.content)).to.deep.equal(['message 0', 'message 1', 'message 2', 'cut off']);
      // a message on its way is offered for retry, never sent by the assignment itself
      expect(el.messages[3]).to.include({ status: 'failed' });
      expect($$(el, '[part~="message"]')).to.have.length(4);
      expect($$(el, '[part~="retry-button"]')).to.have.length(1);
      expect(fired).to.deep.equal([]);
      expect(el.conversationId).to.equal(null);
      el.remove();

      const again = await mount(attrs);
      await again.ready;
      expect(again.el.messages.map((m) => m.content)).to.deep.equal(['message 0', 'message 1', 'message 2', 'cut off']);
    });

    it('set before connecting, takes the place of the stored conversation', async () => {
      const apiKey = await newApiKey();
      const attrs = { id: 'preset', mode: 'inline', 'base-url': baseUrl, 'api-key': apiKey };
      const first = await mount(attrs);
      await first.ready;
      await first.el.send('stored before');
      first.el.remove();

      const container = await fixture<HTMLDivElement>(html`<div></div>`);
      const el = document.createElement('ai-chat-widget');
      for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
      el.messages = restored(4);
      const ready = oneEvent(el, 'ai-chat-ready');
      container.append(el);
      const { detail } = await ready;
      expect(detail.messageCount).to.equal(4);
      expect(el.messages.map((m) => m.content)).to.deep.equal(['message 0', 'message 1', 'message 2', 'message 3']);
      expect(el.shadowRoot!.textContent).to.not.contain('stored before');
    });

    it('shows a long restored transcript scrolled to its newest message, and follows appends', async () => {
      const { el } = await mount({ mode: 'inline', storage: 'none', 'base-url': baseUrl, 'api-key': 'unused' });
      el.messages = restored(1000);
      await el.updateComplete;
      const log = $(el, '[part~="transcript"]');
      const gap = () => log.scrollHeight - log.scrollTop - log.clientHeight;
      await waitFor(() => log.scrollHeight > log.clientHeight && gap() < 2, 5_000, 'scrolled to the end');
      expect($$(el, '[part~="message"]')).to.have.length(1000);
      el.messages = [...el.messages, { id: 'extra', role: 'assistant', content: 'newest\n\n'.repeat(20), time: '', status: 'sent' }];
      // The widget follows appends asynchronously (a ResizeObserver scroll), and the state before the
      // append already satisfies "at the end": wait until the appended row itself is in view.
      await el.updateComplete;
      const newestBottom = () => $$(el, '[part~="message"]').at(-1)!.getBoundingClientRect().bottom;
      expect($$(el, '[part~="message"]')).to.have.length(1001);
      await waitFor(
        () => gap() < 2 && log.scrollTop > 0 && newestBottom() <= log.getBoundingClientRect().bottom + 1,
        5_000,
        'the appended message scrolled into view',
      );
      expect(newestBottom()).to.be.at.most(log.getBoundingClientRect().bottom + 1);
      // a restored (or host-set) transcript does not animate in
      expect($$(el, '.live')).to.have.length(0);
    });
  });

  describe('identity and reset', () => {
    it('identify() clears the transcript and never shows another user\'s conversation', async () => {
      const apiKey = await newApiKey();
      const botId = await createBot(apiKey);
      const { el, ready } = await mount({ mode: 'inline', 'base-url': baseUrl, 'api-key': apiKey, 'bot-id': botId });
      await ready;
      el.identify('alice');
      expect(el.messages).to.have.length(0);
      await el.send('hello');
      expect(el.messages).to.have.length(2);

      const bobReady = oneEvent(el, 'ai-chat-ready');
      el.identify('bob');
      expect(el.messages).to.have.length(0);
      expect((await bobReady).detail).to.include({ userId: 'bob', messageCount: 0 });
      await el.updateComplete;
      expect($$(el, '[part~="message"]')).to.have.length(0);
      await el.send('pricing');

      const aliceReady = oneEvent(el, 'ai-chat-ready');
      el.identify('alice');
      expect((await aliceReady).detail).to.include({ userId: 'alice', messageCount: 2 });
      expect(el.messages.map((m) => m.content)).to.deep.equal(['hello', 'Hello! How can I **help** you today?']);
    });

    it('reset() starts a new conversation and clears its stored copy', async () => {
      const apiKey = await newApiKey();
      const { el, ready } = await mount({ mode: 'inline', 'base-url': baseUrl, 'api-key': apiKey });
      await ready;
      await el.send('hello');
      const before = el.conversationId;
      el.reset();
      await el.updateComplete;
      expect(el.messages).to.have.length(0);
      expect(el.conversationId).to.equal(null);
      expect(widgetStorageKeys()).to.deep.equal([]);
      await el.send('hello again');
      expect(el.conversationId).to.not.equal(before);
    });
  });
});
