// The `ai-chat-widget/react` wrapper (and the bare tag in React 19 JSX) in a real React app, built
// with Vite (test/frameworks/react-app), against the real service: a conversation, the typed events
// in React state, re-renders that keep the element and its transcript, and a remount that restores
// the conversation from storage.
import { expect } from '@open-wc/testing';
import { baseUrl, clearWidgetStorage, createBot, newApiKey, waitFor } from '../widget/helpers.js';
import { expectConversationContinues, expectRerenderedInPlace, loadApp, sendAsUser, transcript, type AppFrame } from './app-frame.js';

describe('React app (ai-chat-widget/react)', function () {
  this.timeout(60000); // the first test may wait for the apps' Vite build
  let app: AppFrame;

  beforeEach(async () => {
    clearWidgetStorage();
    const apiKey = await newApiKey();
    const botId = await createBot(apiKey);
    app = await loadApp('react-app', { apiKey, baseUrl, botId });
  });
  afterEach(() => {
    app.remove();
    clearWidgetStorage();
  });

  it('chats through the wrapper, delivers typed events to React state, and keeps the element across re-renders', async () => {
    const el = await app.widget('wrapped');
    // props arrived as properties: inline mode, title, and the object/array props
    expect(el.mode).to.equal('inline');
    expect(el.shadowRoot!.querySelector('[part~="title"]')!.textContent!.trim()).to.equal('Support');
    expect(el.starters).to.deep.equal(['Starter 0']);
    await waitFor(() => app.list('events').includes('ai-chat-ready'), 8000, 'onAiChatReady in React state');

    await sendAsUser(el, 'hello');
    await waitFor(() => app.list('replies').length === 1, 10000, 'onAiChatMessageReceived in React state');
    expect(app.list('replies')).to.deep.equal(['Hello! How can I **help** you today?']);
    expect(app.list('events')).to.deep.equal(['ai-chat-ready', 'ai-chat-message-sent:hello', 'ai-chat-message-received']);
    await el.updateComplete;
    const before = transcript(el);
    expect(before).to.deep.equal(['user: hello', 'assistant: Hello! How can I help you today?']);
    const conversationId = el.conversationId;
    expect(conversationId).to.match(/^conv_/);

    // parent state changes: a counter (new inline handlers, new array and object props each time),
    // a sibling inserted before the keyed widget, and a changed prop
    for (let i = 0; i < 3; i++) await app.click('rerender');
    expect(app.doc.querySelector('#renders')!.textContent).to.equal('3');
    expect(app.doc.querySelector('#banner')).to.exist;
    await app.click('retitle');
    await el.updateComplete;

    expectRerenderedInPlace(app, el, before, conversationId);
    await expectConversationContinues(app, el, conversationId, 'React');
  });

  it('restores the conversation from storage when React remounts the widget', async () => {
    const first = await app.widget('wrapped');
    await sendAsUser(first, 'pricing');
    await waitFor(() => app.list('replies').length === 1, 10000, 'the reply');
    await first.updateComplete;
    const conversation = transcript(first);
    const conversationId = first.conversationId;

    await app.click('remount'); // a new key: React unmounts the element and creates another
    const second = await app.widget('wrapped');
    expect(second !== first, 'a new element').to.be.true;
    expect(first.isConnected).to.be.false;
    await waitFor(() => app.list('events').filter((e) => e === 'ai-chat-ready').length === 2, 8000, 'a second ready');
    await second.updateComplete;
    expect(second.conversationId).to.equal(conversationId);
    expect(transcript(second)).to.deep.equal(conversation);
  });

  it('works as a bare <ai-chat-widget> in React 19 JSX, with on<event-name> listeners', async () => {
    const el = await app.widget('direct');
    expect(el.mode).to.equal('inline');
    expect(el.getAttribute('base-url')).to.equal(baseUrl);
    await sendAsUser(el, 'hi there');
    await waitFor(() => app.list('direct-replies').length === 1, 10000, 'the direct widget reply in React state');
    expect(app.list('direct-replies')).to.deep.equal(['Hello! How can I **help** you today?']);
    await app.click('rerender');
    await el.updateComplete;
    expect(app.doc.querySelector('ai-chat-widget#direct') === el, 'the same element').to.be.true;
    expect(el.shadowRoot!.querySelector('[part~="title"]')!.textContent!.trim()).to.equal('Direct 1');
    expect(transcript(el)).to.deep.equal(['user: hi there', 'assistant: Hello! How can I help you today?']);
    // it is a separate conversation from the wrapped widget's
    expect(transcript(await app.widget('wrapped'))).to.deep.equal([]);
  });
});
