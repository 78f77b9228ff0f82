// The element without a service: rendering, parts, slots, modes, keyboard, open/close events, the
// cancelable message-sent event, strings and theming. Requests that must not happen are counted
// through the `count/` fault.
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { emulateMedia, sendKeys, setViewport } from '@web/test-runner-commands';
import { AiChatWidget } from '../../src/element.js';
import {
  $,
  $$,
  animationsFinished,
  clearWidgetStorage,
  countOf,
  escapeClosesToLauncher,
  faultBaseUrl,
  mount,
  typeText,
  uniqueKey,
  widgetStorageKeys,
} from './helpers.js';

describe('<ai-chat-widget> element', () => {
  beforeEach(clearWidgetStorage);
  afterEach(async () => {
    await setViewport({ width: 800, height: 600 });
    await emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
  });

  describe('registration', () => {
    it('is defined once and loading the entry again does not throw', async () => {
      expect(customElements.get('ai-chat-widget')).to.equal(AiChatWidget);
      // a second copy of the entry module (a different URL) runs the guarded define again
      await import(/* @vite-ignore */ `../../src/ai-chat-widget.ts?second-load=${Date.now()}`);
      expect(customElements.get('ai-chat-widget')).to.equal(AiChatWidget);
    });
  });

  describe('rendering', () => {
    it('renders a closed launcher by default, with the title and localised labels', async () => {
      const { el } = await mount();
      expect(el.mode).to.equal('launcher');
      expect(el.opened).to.equal(false);
      const launcher = $(el, '[part~="launcher"]');
      expect(launcher.getAttribute('aria-expanded')).to.equal('false');
      expect(launcher.getAttribute('aria-label')).to.equal('Open chat');
      expect($(el, '[part~="panel"]').hidden).to.equal(true);
      expect($(el, '[part~="title"]').textContent!.trim()).to.equal('Chat');
    });

    it('reflects the open attribute to the opened property and back', async () => {
      const { el } = await mount({ open: true, title: 'Support' });
      expect(el.opened).to.equal(true);
      expect($(el, '[part~="panel"]').hidden).to.equal(false);
      expect($(el, '[part~="title"]').textContent!.trim()).to.equal('Support');
      el.opened = false;
      await el.updateComplete;
      expect(el.hasAttribute('open')).to.equal(false);
      expect($(el, '[part~="panel"]').hidden).to.equal(true);
    });

    it('shows the welcome message as the first assistant bubble without storing or sending it', async () => {
      const key = uniqueKey('welcome');
      const { el, ready } = await mount({
        mode: 'inline',
        'welcome-message': 'Hi! Ask me **anything**.',
        'base-url': faultBaseUrl(`count/${key}`),
      });
      await ready;
      const first = $(el, '[part~="message"]');
      expect(first.getAttribute('part')).to.contain('message-assistant');
      expect(first.querySelector('strong')!.textContent).to.equal('anything');
      expect(el.messages).to.have.length(0);
      expect(widgetStorageKeys()).to.deep.equal([]);
      expect(await countOf(key)).to.equal(0);
    });

    it('exposes every documented part', async () => {
      const { el } = await mount({ open: true });
      for (const part of ['launcher', 'panel', 'header', 'title', 'close-button', 'transcript', 'status',
        'composer', 'input', 'send-button']) {
        expect(el.shadowRoot!.querySelector(`[part~="${part}"]`), part).to.not.equal(null);
      }
    });

    it('renders inline and fullpage modes without a launcher or close button', async () => {
      for (const mode of ['inline', 'fullpage']) {
        const { el } = await mount({ mode });
        expect($(el, '[part~="panel"]').hidden, mode).to.equal(false);
        expect($(el, '[part~="launcher"]').hidden, mode).to.equal(true);
        expect(el.shadowRoot!.querySelector('[part~="close-button"]'), mode).to.equal(null);
        expect($(el, '[part~="panel"]').getAttribute('role'), mode).to.equal('region');
      }
    });

    it('uses a 16px input font so iOS does not zoom', async () => {
      const { el } = await mount({ mode: 'inline' });
      expect(getComputedStyle($(el, 'textarea')).fontSize).to.equal('16px');
    });

    it('opens full screen on a narrow viewport', async () => {
      await setViewport({ width: 400, height: 700 });
      const { el } = await mount({ open: true });
      const rect = $(el, '[part~="panel"]').getBoundingClientRect();
      expect(rect.width).to.equal(400);
      expect(rect.height).to.equal(700);
    });
  });

  describe('slots', () => {
    it('renders slotted header and launcher icon content, with fallbacks otherwise', async () => {
      const el = await fixture<AiChatWidget>(html`<ai-chat-widget open>
        <span slot="header" id="brand">Acme help</span>
        <svg slot="launcher-icon" id="icon"></svg>
      </ai-chat-widget>`);
      const headerSlot = $<HTMLSlotElement>(el, 'slot[name="header"]');
      const iconSlot = $<HTMLSlotElement>(el, 'slot[name="launcher-icon"]');
      expect(headerSlot.assignedElements()[0].id).to.equal('brand');
      expect(iconSlot.assignedElements()[0].id).to.equal('icon');
      const bare = await fixture<AiChatWidget>(html`<ai-chat-widget mode="inline"></ai-chat-widget>`);
      // always rendered, even where the launcher is hidden
      expect(bare.shadowRoot!.querySelector('slot[name="launcher-icon"]')).to.not.equal(null);
      expect(bare.shadowRoot!.querySelector('slot[name="header"] [part]')).to.equal(null);
    });
  });

  describe('theming', () => {
    it('reads public custom properties into the internals', async () => {
      const el = await fixture<AiChatWidget>(html`<ai-chat-widget open
        style="--ai-chat-accent: rgb(200, 0, 100); --ai-chat-accent-contrast: rgb(1, 2, 3)"></ai-chat-widget>`);
      const launcher = $(el, '[part~="launcher"]');
      expect(getComputedStyle(launcher).backgroundColor).to.equal('rgb(200, 0, 100)');
      expect(getComputedStyle($(el, '[part~="send-button"]')).color).to.equal('rgb(1, 2, 3)');
    });

    it('switches to dark with theme="dark", and with theme="auto" when the system is dark', async () => {
      const { el } = await mount({ open: true });
      const background = () => getComputedStyle($(el, '[part~="panel"]')).backgroundColor;
      const light = background();
      el.theme = 'dark';
      await el.updateComplete;
      expect(el.getAttribute('theme')).to.equal('dark');
      const dark = background();
      expect(dark).to.not.equal(light);
      el.theme = 'auto';
      await emulateMedia({ colorScheme: 'dark' });
      await el.updateComplete;
      expect(background()).to.equal(dark);
      await emulateMedia({ colorScheme: 'light' });
      expect(background()).to.equal(light);
    });

    it('turns animations off under prefers-reduced-motion', async () => {
      await emulateMedia({ reducedMotion: 'reduce' });
      const { el } = await mount({ open: true });
      expect(getComputedStyle($(el, '[part~="panel"]')).animationName).to.equal('none');
    });

    it('mirrors the layout under dir="rtl"', async () => {
      const container = await fixture<HTMLDivElement>(html`<div dir="rtl"></div>`);
      const { el } = await mount({}, {}, container);
      const rect = $(el, '[part~="launcher"]').getBoundingClientRect();
      expect(rect.left).to.be.lessThan(window.innerWidth / 2);
    });
  });

  describe('strings', () => {
    it('follows lang, falls back to English per key, and applies the strings property last', async () => {
      const { el } = await mount({ lang: 'de' });
      expect($(el, '[part~="launcher"]').getAttribute('aria-label')).to.equal('Chat öffnen');
      el.strings = { openChat: 'Hilfe öffnen' };
      await el.updateComplete;
      expect($(el, '[part~="launcher"]').getAttribute('aria-label')).to.equal('Hilfe öffnen');
      el.setAttribute('lang', 'ja');
      el.strings = {};
      await el.updateComplete;
      expect($(el, '[part~="launcher"]').getAttribute('aria-label')).to.equal('チャットを開く');
    });
  });

  describe('open and close', () => {
    it('fires ai-chat-open and focuses the input when the launcher is clicked', async () => {
      const { el } = await mount();
      const opened = oneEvent(el, 'ai-chat-open');
      $(el, '[part~="launcher"]').click();
      const event = await opened;
      expect(event.bubbles && event.composed).to.equal(true);
      await el.updateComplete;
      await new Promise((r) => setTimeout(r));
      expect(el.opened).to.equal(true);
      expect(el.shadowRoot!.activeElement).to.equal($(el, 'textarea'));
      expect($(el, '[part~="launcher"]').getAttribute('aria-expanded')).to.equal('true');
    });

    it('closes on Escape, fires ai-chat-close and returns focus to the launcher', async () => {
      const { el } = await mount();
      await el.open();
      expect(el.shadowRoot!.activeElement).to.equal($(el, 'textarea'));
      await escapeClosesToLauncher(el);
    });

    it('closes with the close button', async () => {
      const { el } = await mount();
      await el.open();
      const closed = oneEvent(el, 'ai-chat-close');
      $(el, '[part~="close-button"]').click();
      await closed;
      expect(el.opened).to.equal(false);
    });

    it('toggle() flips the panel; property sets fire no events', async () => {
      const { el } = await mount();
      let events = 0;
      el.addEventListener('ai-chat-open', () => events++);
      el.addEventListener('ai-chat-close', () => events++);
      el.opened = true;
      await el.updateComplete;
      el.opened = false;
      await el.updateComplete;
      expect(events).to.equal(0);
      el.toggle();
      expect(el.opened).to.equal(true);
      el.toggle();
      expect(el.opened).to.equal(false);
      expect(events).to.equal(2);
    });

    it('does not close an inline widget on Escape', async () => {
      const { el } = await mount({ mode: 'inline' });
      $(el, 'textarea').focus();
      let closed = false;
      el.addEventListener('ai-chat-close', () => (closed = true));
      await sendKeys({ press: 'Escape' });
      expect(closed).to.equal(false);
    });
  });

  describe('composer', () => {
    it('disables the send button until there is text', async () => {
      const { el } = await mount({ mode: 'inline' });
      const send = $<HTMLButtonElement>(el, '[part~="send-button"]');
      expect(send.disabled).to.equal(true);
      await typeText(el, '   ');
      expect(send.disabled).to.equal(true);
      await typeText(el, 'hello');
      expect(send.disabled).to.equal(false);
    });

    it('sends on Enter and keeps Shift+Enter as a newline', async () => {
      const key = uniqueKey('keys');
      const { el, ready } = await mount({ mode: 'inline', 'base-url': faultBaseUrl(`count/${key}/status/500`) });
      await ready;
      const sent: string[] = [];
      el.addEventListener('ai-chat-message-sent', (e) => {
        sent.push(e.detail.text);
        e.preventDefault(); // keep this test offline
      });
      $(el, 'textarea').focus();
      await sendKeys({ type: 'first line' });
      await sendKeys({ down: 'Shift' });
      await sendKeys({ press: 'Enter' });
      await sendKeys({ up: 'Shift' });
      await sendKeys({ type: 'second line' });
      expect(sent).to.deep.equal([]);
      expect($<HTMLTextAreaElement>(el, 'textarea').value).to.equal('first line\nsecond line');
      await sendKeys({ press: 'Enter' });
      expect(sent).to.deep.equal(['first line\nsecond line']);
    });

    it('cancelling ai-chat-message-sent sends, shows and stores nothing, and keeps the draft', async () => {
      const key = uniqueKey('cancel');
      const { el, ready } = await mount({ mode: 'inline', 'base-url': faultBaseUrl(`count/${key}`) });
      await ready;
      el.addEventListener('ai-chat-message-sent', (e) => e.preventDefault());
      const sent = oneEvent(el, 'ai-chat-message-sent');
      await typeText(el, 'do not send me');
      $(el, '[part~="send-button"]').click();
      const event = await sent;
      expect(event.cancelable).to.equal(true);
      expect(event.detail.text).to.equal('do not send me');
      expect(await el.send('nor me')).to.equal(null);
      await el.updateComplete;
      expect(el.messages).to.have.length(0);
      expect($$(el, '[part~="message"]')).to.have.length(0);
      expect($<HTMLTextAreaElement>(el, 'textarea').value).to.equal('do not send me');
      expect(widgetStorageKeys()).to.deep.equal([]);
      expect(await countOf(key)).to.equal(0);
    });
  });

  describe('accessibility', () => {
    it('is accessible when closed', async () => {
      const { el } = await mount();
      await expect(el).to.be.accessible();
    });

    it('is accessible when open, with a labelled log transcript', async () => {
      const { el } = await mount({ open: true, 'welcome-message': 'Hello' });
      const log = $(el, '[part~="transcript"]');
      expect(log.getAttribute('role')).to.equal('log');
      expect(log.getAttribute('aria-live')).to.equal('polite');
      expect($(el, 'textarea').getAttribute('aria-label')).to.equal('Message');
      await expect(el).to.be.accessible();
    });

    it('is accessible inline and in dark theme', async () => {
      const { el } = await mount({ mode: 'inline', theme: 'dark', 'welcome-message': 'Hello' });
      await expect(el).to.be.accessible();
    });

    it('marks the transcript busy and shows the typing indicator while a reply is pending', async () => {
      const { el, ready } = await mount({ mode: 'inline', 'base-url': faultBaseUrl('hang') });
      await ready;
      void el.send('are you there?');
      await el.updateComplete;
      expect($(el, '[part~="transcript"]').getAttribute('aria-busy')).to.equal('true');
      expect(el.shadowRoot!.querySelector('[part~="typing"]')).to.not.equal(null);
      expect($<HTMLButtonElement>(el, '[part~="send-button"]').disabled).to.equal(true);
      await expect(el).to.be.accessible();
      el.remove(); // aborts the hanging request
    });

    it('is accessible with a failed message, whose text stays with a Retry button', async () => {
      const { el, ready } = await mount({ mode: 'inline', 'base-url': faultBaseUrl('status/500'), 'api-key': 'k' });
      await ready;
      const failed = oneEvent(el, 'ai-chat-error');
      const reply = el.send('keep me');
      const { detail } = await failed;
      expect(detail).to.include({ code: 'internal_error', status: 500, retryable: false });
      expect(detail.requestId).to.match(/^req_fault_/);
      expect(await reply).to.equal(null);
      await el.updateComplete;
      expect(el.messages[0]).to.include({ content: 'keep me', status: 'failed' });
      expect($(el, '[part~="message-user"] [part~="bubble"]').textContent).to.contain('keep me');
      expect($(el, '[part~="retry-button"]').textContent!.trim()).to.equal('Retry');
      await animationsFinished(el);
      await expect(el).to.be.accessible();
    });
  });
});
