// The widget's chrome (Stop, New conversation, the launcher's invite), in real Chromium against the real service: Stop (the
// service stops and stores the part it sent, marked stopped), "New conversation" with an inline
// confirmation, the bot's name and avatar (attributes and the bot's own settings), time labels per
// group of messages, the launcher's unread badge and its teaser. Keyboard and axe for each.
import { expect, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { Message } from '../../src/client/types.js';
import type { TranscriptMessage } from '../../src/element.js';
import { $, $$, animationsFinished, clearWidgetStorage, createBot, mount, newApiKey, typeText, waitFor } from './helpers.js';

/** A service whose LLM (fake-openai) writes "one two three four", a word every 600 ms (service-plugin.mjs). */
const slowBase = `${location.origin}/__test__/llm/v1`;

async function slowLlmKey(): Promise<string> {
  const response = await fetch('/__test__/llm/accounts', { method: 'POST' });
  return ((await response.json()) as { api_key: string }).api_key;
}

/** The conversation's stored messages once both of the turn are there (stored as the stream closes). */
async function storedTurn(apiKey: string, conversationId: string): Promise<Message[]> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const response = await fetch(`${slowBase}/chat/history?conversation_id=${conversationId}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    const items = response.ok ? ((await response.json()) as { data: { items: Message[] } }).data.items : [];
    if (items.length === 2) return items;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the stopped turn was never stored');
}

/** The streamed reply so far, once it holds `text`. */
const streamed = (el: { messages: readonly TranscriptMessage[] }, text: string) =>
  waitFor(() => el.messages.find((m) => m.role === 'assistant' && m.content.includes(text)), 8000, `"${text}" streamed`);

describe('chrome of the widget', () => {
  beforeEach(clearWidgetStorage);

  describe('Stop', () => {
    it('stops a streaming reply: the part that came stays, marked stopped; the service stores it so', async function () {
      this.timeout(60_000); // the first use starts the service with the slow LLM (in-memory database, migrations)
      const apiKey = await slowLlmKey();
      const { el, ready } = await mount({ mode: 'inline', stream: true, 'api-key': apiKey, 'base-url': slowBase });
      await ready;
      expect(el.shadowRoot!.querySelector('[part~="stop-button"]')).to.equal(null);
      void el.send('Count to four');
      await el.updateComplete;
      const stop = $<HTMLButtonElement>(el, '[part~="stop-button"]');
      expect(stop.getAttribute('aria-label')).to.equal('Stop');
      // Send stays beside it (disabled while the reply is on its way)
      expect($<HTMLButtonElement>(el, '[part~="send-button"]').disabled).to.equal(true);
      await streamed(el, 'one');
      const stopped = oneEvent(el, 'ai-chat-stop');
      stop.click();
      const { detail } = await stopped;
      await el.updateComplete;

      expect(detail.message.stopped).to.equal(true);
      expect(detail.message.content).to.match(/^one /);
      expect(detail.message.content).to.not.include('four');
      expect(el.messages.map((m) => [m.role, m.status])).to.deep.equal([['user', 'sent'], ['assistant', 'sent']]);
      expect(el.messages[1].content).to.equal(detail.message.content);
      expect(el.shadowRoot!.querySelector('[part~="stop-button"]')).to.equal(null);
      expect($(el, '[part~="message-assistant"] [part~="stopped"]').textContent!.trim()).to.equal('Stopped');

      // the service stopped generating and stored what it had sent, marked stopped
      expect(detail.conversationId).to.match(/^conv_/);
      const [user, reply] = await storedTurn(apiKey, detail.conversationId!);
      expect(user.content).to.equal('Count to four');
      expect(reply.stopped).to.equal(true);
      expect(reply.content.startsWith(detail.message.content)).to.equal(true);
      expect('one two three four'.startsWith(reply.content)).to.equal(true);
      expect(reply.content).to.not.equal('one two three four');

      await animationsFinished(el);
      await expect(el).to.be.accessible();
    });

    it('Escape stops the reply (and leaves the open panel open); focus stays in the input', async function () {
      this.timeout(30_000);
      const apiKey = await slowLlmKey();
      const { el, ready } = await mount({ open: true, stream: true, 'api-key': apiKey, 'base-url': slowBase });
      await ready;
      await typeText(el, 'Count again');
      $<HTMLTextAreaElement>(el, 'textarea').focus();
      await sendKeys({ press: 'Enter' });
      await streamed(el, 'one');
      const stopped = oneEvent(el, 'ai-chat-stop');
      await sendKeys({ press: 'Escape' });
      await stopped;
      await el.updateComplete;
      expect(el.opened).to.equal(true);
      expect(el.shadowRoot!.activeElement).to.equal($(el, 'textarea'));
      expect(el.messages.at(-1)!.stopped).to.equal(true);
      // a stopped reply is kept across a reload, still marked
      const stored = JSON.parse(localStorage.getItem(Object.keys(localStorage).find((k) => k.includes(':conv:'))!)!);
      expect(stored.messages.at(-1).stopped).to.equal(true);
    });
  });

  describe('New conversation', () => {
    it('asks inline, Escape or Cancel keeps the conversation, Start new resets and fires ai-chat-reset', async () => {
      const apiKey = await newApiKey();
      const { el, ready } = await mount({ mode: 'inline', 'api-key': apiKey });
      await ready;
      expect(el.shadowRoot!.querySelector('[part~="new-conversation-button"]'), 'nothing to leave yet').to.equal(null);
      await el.send('hello');
      await el.updateComplete;
      const button = $<HTMLButtonElement>(el, '[part~="new-conversation-button"]');
      expect(button.getAttribute('aria-label')).to.equal('New conversation');

      button.click();
      await el.updateComplete;
      await el.updateComplete;
      const confirm = $(el, '[part~="confirm"]');
      expect(confirm.getAttribute('role')).to.equal('alertdialog');
      expect(confirm.textContent).to.include('Clear this conversation and start over?');
      expect(el.shadowRoot!.activeElement, 'the safe answer has focus').to.equal($(el, '[part~="cancel-button"]'));
      await animationsFinished(el); // axe reads colours: not in the middle of a bubble's fade-in
      await expect(el).to.be.accessible();
      await sendKeys({ press: 'Escape' });
      await el.updateComplete;
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('[part~="confirm"]')).to.equal(null);
      expect(el.messages.length).to.equal(2);
      expect(el.shadowRoot!.activeElement).to.equal($(el, '[part~="new-conversation-button"]'));

      // keyboard all the way: Enter on the button, Tab to "Start new" (before Cancel), Enter
      await sendKeys({ press: 'Enter' });
      await el.updateComplete;
      await el.updateComplete;
      $<HTMLButtonElement>(el, '[part~="confirm-button"]').focus();
      const reset = oneEvent(el, 'ai-chat-reset');
      await sendKeys({ press: 'Enter' });
      await reset;
      await el.updateComplete;
      await el.updateComplete;
      expect(el.messages).to.deep.equal([]);
      expect(el.conversationId).to.equal(null);
      expect(el.shadowRoot!.querySelector('[part~="confirm"]')).to.equal(null);
      expect(el.shadowRoot!.activeElement).to.equal($(el, 'textarea'));
    });
  });

  describe('identity', () => {
    const dot = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

    it("shows the bot's own name and avatar from the service, and names its replies with it", async () => {
      const apiKey = await newApiKey();
      const botId = await createBot(apiKey, { name: 'Ada', avatar_url: dot });
      const { el, ready } = await mount({ mode: 'inline', 'api-key': apiKey, 'bot-id': botId });
      await ready;
      await waitFor(() => el.shadowRoot!.querySelector('[part~="avatar"]'), 8000, 'the avatar');
      expect($(el, '[part~="title"]').textContent!.trim()).to.equal('Ada');
      expect($<HTMLImageElement>(el, '[part~="avatar"]').src).to.equal(dot);
      expect($(el, '[part~="avatar"]').getAttribute('alt')).to.equal('');
      await el.send('hello');
      await el.updateComplete;
      expect($(el, '[part~="message-assistant"] .sr-only').textContent).to.equal('Ada: ');
      await animationsFinished(el);
      await expect(el).to.be.accessible();
    });

    it('bot-name and bot-avatar win; an avatar URL of another scheme is ignored; title wins over both', async () => {
      const apiKey = await newApiKey();
      const botId = await createBot(apiKey, { name: 'Ada', avatar_url: dot });
      const { el, ready } = await mount({ mode: 'inline', 'api-key': apiKey, 'bot-id': botId, 'bot-name': 'Max', 'bot-avatar': 'https://cdn.example/max.png' });
      await ready;
      await el.updateComplete;
      expect($(el, '[part~="title"]').textContent!.trim()).to.equal('Max');
      expect($<HTMLImageElement>(el, '[part~="avatar"]').getAttribute('src')).to.equal('https://cdn.example/max.png');
      el.botAvatar = 'javascript:alert(1)';
      await el.updateComplete;
      // the unsafe one is ignored: the bot's own shows instead
      await waitFor(() => el.shadowRoot!.querySelector('[part~="avatar"]')?.getAttribute('src') === dot, 8000, "the bot's avatar");
      el.title = 'Support';
      await el.updateComplete;
      expect($(el, '[part~="title"]').textContent!.trim()).to.equal('Support');
    });
  });

  describe('time', () => {
    it('labels the first message of each group (5 minutes apart, or another day) with a localised <time>', async () => {
      const { el } = await mount({ mode: 'inline', lang: 'de' });
      const now = new Date();
      const old = new Date(now.getTime() - 3 * 86_400_000);
      const at = (base: Date, minutes: number) => new Date(base.getTime() + minutes * 60_000).toISOString();
      const message = (id: string, role: 'user' | 'assistant', time: string): TranscriptMessage => ({ id, role, content: id, time, status: 'sent' });
      el.messages = [
        message('a', 'user', at(old, 0)),
        message('b', 'assistant', at(old, 1)),
        message('c', 'user', at(old, 7)), // 6 minutes after b: a new group
        message('d', 'assistant', at(old, 8)),
        message('e', 'user', now.toISOString()), // another day
      ];
      await el.updateComplete;
      const times = $$<HTMLTimeElement>(el, 'time[part~="time"]');
      expect(times.map((t) => t.dateTime)).to.deep.equal([at(old, 0), at(old, 7), now.toISOString()]);
      const long = new Intl.DateTimeFormat('de', { dateStyle: 'medium', timeStyle: 'short' });
      expect(times[0].textContent).to.equal(long.format(new Date(at(old, 0))));
      expect(times[2].textContent, "today's: the time only").to.equal(new Intl.DateTimeFormat('de', { timeStyle: 'short' }).format(now));
      await expect(el).to.be.accessible();
    });
  });

  describe('launcher that invites', () => {
    it('counts replies that arrive while closed, says so politely, and clears on open', async () => {
      const apiKey = await newApiKey();
      const { el, ready } = await mount({ 'api-key': apiKey });
      await ready;
      expect(el.shadowRoot!.querySelector('[part~="badge"]')).to.equal(null);
      await el.send('hello');
      await el.updateComplete;
      expect($(el, '[part~="badge"]').textContent).to.equal('1');
      await el.send('opening hours');
      await el.updateComplete;
      expect($(el, '[part~="badge"]').textContent).to.equal('2');
      const live = $(el, '[aria-live="polite"].sr-only');
      expect(live.textContent!.trim()).to.equal('New replies: 2');
      expect($(el, '[part~="launcher"]').getAttribute('aria-label')).to.equal('Open chat (New replies: 2)');
      await expect(el).to.be.accessible();
      await el.open();
      expect(el.shadowRoot!.querySelector('[part~="badge"]')).to.equal(null);
      expect(live.textContent!.trim()).to.equal('');
      await el.send('pricing');
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('[part~="badge"]'), 'read as it arrives while open').to.equal(null);
    });

    it('shows the teaser after its delay, opens the chat from it, and never again once dismissed', async () => {
      // opened before its delay: the teaser never comes on this page
      const early = await mount({ id: 'early', open: true, teaser: 'Hello there', 'teaser-delay': '0' });
      await early.ready;
      await new Promise((r) => setTimeout(r, 50));
      early.el.close();
      await early.el.updateComplete;
      expect(early.el.shadowRoot!.querySelector('[part~="teaser"]')).to.equal(null);
      early.el.remove();

      const { el, ready } = await mount({ id: 'teased', teaser: 'Questions about shipping?', 'teaser-delay': '0' });
      await ready;
      const teaser = await waitFor(() => el.shadowRoot!.querySelector('[part~="teaser"]'), 8000, 'the teaser');
      expect($(el, '[part~="teaser-text"]').textContent).to.equal('Questions about shipping?');
      expect($(el, '[aria-live="polite"].sr-only').textContent!.trim()).to.equal('Questions about shipping?');
      await expect(el).to.be.accessible();
      // Tab reaches it; its text opens the chat (the teaser goes, not dismissed for good)
      $<HTMLButtonElement>(el, '[part~="teaser-text"]').click();
      await el.updateComplete;
      expect(el.opened).to.equal(true);
      expect(teaser.isConnected).to.equal(false);
      el.close();
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('[part~="teaser"]'), 'not again on this page once opened').to.equal(null);
      el.remove();

      const again = await mount({ id: 'teased', teaser: 'Questions about shipping?', 'teaser-delay': '0' });
      await again.ready;
      await waitFor(() => again.el.shadowRoot!.querySelector('[part~="teaser"]'), 8000, 'the teaser again');
      $<HTMLButtonElement>(again.el, '[part~="teaser-close"]').click();
      await again.el.updateComplete;
      expect(again.el.shadowRoot!.querySelector('[part~="teaser"]')).to.equal(null);
      expect(again.el.opened).to.equal(false);
      again.el.remove();

      // dismissed: a reload does not show it again
      const third = await mount({ id: 'teased', teaser: 'Questions about shipping?', 'teaser-delay': '0' });
      await third.ready;
      await new Promise((r) => setTimeout(r, 50)); // past the zero delay
      await third.el.updateComplete;
      expect(third.el.shadowRoot!.querySelector('[part~="teaser"]')).to.equal(null);
    });
  });
});
