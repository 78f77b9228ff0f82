// `<ai-chat-widget>` in a real Vue 3 app (a render function, no SFC compiler), built with Vite
// (test/frameworks/vue-app), against the real service: a conversation, the typed events in reactive
// state, re-renders that keep the element and its transcript, and a remount that restores the
// conversation from storage.
import { expect } from '@open-wc/testing';
import { baseUrl, clearWidgetStorage, createBot, newApiKey, waitFor } from '../widget/helpers.js';
import { expectConversationContinues, expectRerenderedInPlace, loadApp, sendAsUser, transcript, type AppFrame } from './app-frame.js';

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

    expectRerenderedInPlace(app, el, before, conversationId);
    await expectConversationContinues(app, el, conversationId, 'Vue');
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
