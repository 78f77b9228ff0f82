// A bot's appearance, saved in the dashboard (the bot's `appearance`), reaches the one-snippet
// install: a page with only `bot-id` and `base-url` (the service mints its tokens for the listed
// origin) shows the saved colour, name, welcome, corner and icon. An attribute the page set itself
// wins over the saved value; what it left unset still comes from the bot.
import { expect } from '@open-wc/testing';
import '../../src/ai-chat-widget.js';
import type { AiChatWidget } from '../../src/ai-chat-widget.js';
import { $, clearWidgetStorage, createBot, mount, newApiKey } from './helpers.js';

/**
 * The service as a site sees it: on another origin than the page (the test page's host under its
 * other loopback name), so every call carries the page's Origin, which the widget tokens are bound to.
 */
const baseUrl = `${location.protocol}//${location.hostname === 'localhost' ? '127.0.0.1' : 'localhost'}:${location.port}/v1`;

const SAVED = {
  color: '#0f766e',
  position: 'bottom-left',
  launcher_icon: 'help',
  bot_name: 'Ava',
  welcome_message: 'Hi, I am Ava. Ask me about our opening hours.',
} as const;

/** Resolves once `check` holds, looking again at each change of the widget's shadow DOM (no polling). */
function until(el: AiChatWidget, check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (check()) return resolve();
    const observer = new MutationObserver(() => {
      if (!check()) return;
      observer.disconnect();
      resolve();
    });
    observer.observe(el.shadowRoot!, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

const accentOf = (el: AiChatWidget) => getComputedStyle($(el, '[part~="launcher"]')).backgroundColor;

describe('appearance from the service', () => {
  let botId: string;

  before(async () => {
    const channels = [{ type: 'website' as const, allowed_origins: [location.origin] }];
    // quick replies: the bot's profile has arrived once they show
    botId = await createBot(await newApiKey(), { appearance: SAVED, channels, quick_replies: ['Opening hours'] });
  });
  afterEach(clearWidgetStorage);

  it('the snippet with only bot-id and base-url shows the saved colour, name, welcome, corner and icon', async () => {
    const { el } = await mount({ 'bot-id': botId, 'base-url': baseUrl });
    const plain = accentOf(el);
    await until(el, () => $(el, '[part~="title"]').textContent!.includes('Ava'));

    expect(plain).to.not.equal('rgb(15, 118, 110)');
    expect(accentOf(el)).to.equal('rgb(15, 118, 110)');
    expect(el.getAttribute('position')).to.equal('bottom-left');
    const launcher = $(el, '[part~="launcher"]').getBoundingClientRect();
    expect(launcher.right).to.be.below(innerWidth / 2, 'the launcher sits in the bottom-left corner');
    expect($(el, '[part~="launcher"] circle'), 'the built-in help icon').to.exist;
    await el.open();
    expect($(el, '[part~="message-assistant"] [part~="bubble"]').textContent).to.contain(SAVED.welcome_message);
    expect(getComputedStyle($(el, '[part~="send-button"]')).backgroundColor).to.equal('rgb(15, 118, 110)');
  });

  it('an attribute the page set wins over the saved value, and what it left unset comes from the bot', async () => {
    const { el } = await mount({
      'bot-id': botId,
      'base-url': baseUrl,
      color: '#b91c1c',
      'bot-name': 'Max',
      'welcome-message': 'Welcome to the shop.',
    });
    await el.open();
    await until(el, () => el.shadowRoot!.querySelector('[part~="suggestion"]') !== null);

    expect($(el, '[part~="title"]').textContent).to.contain('Max').and.not.contain('Ava');
    expect($(el, '[part~="message-assistant"] [part~="bubble"]').textContent).to.contain('Welcome to the shop.');
    expect(getComputedStyle($(el, '[part~="send-button"]')).backgroundColor).to.equal('rgb(185, 28, 28)');
    expect(el.color).to.equal('#b91c1c');
    // not set on the page: the saved corner
    expect(el.position).to.equal('bottom-left');
  });

  it("the page's own --ai-chat-accent wins over the saved colour", async () => {
    const { el } = await mount({ 'bot-id': botId, 'base-url': baseUrl, style: '--ai-chat-accent: rgb(29, 78, 216)' });
    await until(el, () => $(el, '[part~="title"]').textContent!.includes('Ava'));
    expect(accentOf(el)).to.equal('rgb(29, 78, 216)');
  });
});
