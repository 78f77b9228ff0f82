// `<ai-chat-widget>` in a real Vue 3 app (a render function, no SFC compiler), built with Vite
// (test/frameworks/vue-app), against the real service: a conversation, the typed events in reactive
// state, re-renders that keep the element and its transcript, and a remount that restores the
// conversation from storage.
import { expect } from '@open-wc/testing';
import { baseUrl, clearWidgetStorage, createBot, newApiKey, waitFor } from '../widget/helpers.js';
import { loadApp, sendAsUser, transcript, type AppFrame } from './app-frame.js';

describe('Vue app (<ai-chat-widget> in a render function)', function () {
  this.timeout(60000); // the first test may wait for the apps' Vite build
  let app: AppFrame;

  beforeEach(async () => {
    clearWidgetStorage();
    const apiKey = await newApiKey();
    const botId = await createBot(apiKey);
    app = await loadApp('vue-app', { apiKey, baseUrl, botId });
  });
  afterEach(() => {
    app.remove();
    clearWidgetStorage();
  });

  it('chats, delivers typed events to Vue state, and keeps the element across re-renders', async () => {
    const el = await app.widget('wrapped');
    // kebab-case attributes and camelCase properties both arrived
    expect(el.mode).to.equal('inline');
    expect(el.apiKey).to.match(/\S/);
    expect(el.baseUrl).to.equal(baseUrl);
    expect(el.starters).to.deep.equal(['Starter 0']);
    await waitFor(() => app.list('events').includes('ai-chat-ready'), 8000, '@ai-chat-ready in Vue state');

    await sendAsUser(el, 'hello');
    await waitFor(() => app.list('replies').length === 1, 10000, '@ai-chat-message-received in Vue state');
    expect(app.list('replies')).to.deep.equal(['Hello! How can I **help** you today?']);
    expect(app.list('events')).to.deep.equal(['ai-chat-ready', 'ai-chat-message-sent:hello', 'ai-chat-message-received']);
    await el.updateComplete;
    const before = transcript(el);
    expect(before).to.deep.equal(['user: hello', 'assistant: Hello! How can I help you today?']);
    const conversationId = el.conversationId;

    for (let i = 0; i < 3; i++) await app.click('rerender');
    expect(app.doc.querySelector('#renders')!.textContent).to.equal('3');
    expect(app.doc.querySelector('#banner')).to.exist;
    await app.click('retitle');
    await el.updateComplete;

    // identity as a boolean: chai would walk a foreign-realm element to print it
    expect(app.doc.querySelector('ai-chat-widget#wrapped') === el, 'the same element, not a new one').to.be.true;
    expect(el.shadowRoot!.querySelector('[part~="title"]')!.textContent!.trim()).to.equal('Support 3');
    expect(el.starters).to.deep.equal(['Starter 3']);
    expect(el.shadowRoot!.querySelector('[part~="send-button"]')!.getAttribute('aria-label')).to.equal('Send (3)');
    expect(transcript(el)).to.deep.equal(before);
    expect(el.messages.map((m) => [m.role, m.status])).to.deep.equal([['user', 'sent'], ['assistant', 'sent']]);
    expect(el.conversationId).to.equal(conversationId);
    expect(app.list('events')).to.have.length(3);

    // the patched listeners fire exactly once each
    await sendAsUser(el, 'opening hours');
    await waitFor(() => app.list('replies').length === 2, 10000, 'the second reply in Vue state');
    expect(app.list('replies')[1]).to.equal('We are open 9 to 5, Monday to Friday.');
    expect(app.list('events').slice(3)).to.deep.equal(['ai-chat-message-sent:opening hours', 'ai-chat-message-received']);
    expect(el.conversationId).to.equal(conversationId);
    expect(transcript(el)).to.have.length(4);
  });

  it('restores the conversation from storage when Vue remounts the widget', async () => {
    const first = await app.widget('wrapped');
    await sendAsUser(first, 'pricing');
    await waitFor(() => app.list('replies').length === 1, 10000, 'the reply');
    await first.updateComplete;
    const conversation = transcript(first);

    await app.click('remount'); // a new key: Vue unmounts the element and creates another
    const second = await app.widget('wrapped');
    expect(second !== first, 'a new element').to.be.true;
    await waitFor(() => app.list('events').filter((e) => e === 'ai-chat-ready').length === 2, 8000, 'a second ready');
    await second.updateComplete;
    expect(second.conversationId).to.equal(first.conversationId);
    expect(transcript(second)).to.deep.equal(conversation);
  });
});
