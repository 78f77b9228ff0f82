// The widget as a mobile app shows it in a WebView (docs/mobile.md): a 390×844 viewport (an
// iPhone 14's, in CSS px), an Android WebView's user agent, taps as a touch screen sends them, the
// page as docs/mobile.md has it (`html, body { height: 100%; margin: 0 }`), `mode="fullpage"` (the
// app's own chat screen) filling it, and the launcher.
//
// Safe areas: headless Chromium has no notch, and @web/test-runner has no command to set
// `env(safe-area-inset-*)`, so each test checks the two halves apart: the styles read the insets
// with env() into the private `--_safe-*` tokens (their source), and with those tokens given a
// phone's values on the host (as env() would give them), the panel and the launcher move clear.
// The on-screen keyboard is the viewport shrinking to 390×508, as in phone.test.ts: a WebView that
// resizes for the keyboard (Android's adjustResize, react-native-webview's default) does just that.
import { expect } from '@open-wc/testing';
import { setUserAgent, setViewport } from '@web/test-runner-commands';
import { AiChatWidget } from '../../src/element.js';
import { $, $$, animationsFinished, clearWidgetStorage, createBot, mount, newApiKey, waitFor } from './helpers.js';

const PHONE = { width: 390, height: 844 };
/** What an iPhone 14's notch and home bar take, in CSS px (portrait). */
const INSETS = { top: 47, bottom: 34 };
const WITH_INSETS = `--_safe-top: ${INSETS.top}px; --_safe-bottom: ${INSETS.bottom}px`;
const ANDROID_WEBVIEW = 'Mozilla/5.0 (Linux; Android 14; Pixel 8; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/130.0.0.0 Mobile Safari/537.36';

/** A tap, as a touch screen sends it: touch pointer events, then the click. */
function tap(target: HTMLElement): void {
  const at = target.getBoundingClientRect();
  const init = { bubbles: true, composed: true, pointerType: 'touch', isPrimary: true, clientX: at.x + at.width / 2, clientY: at.y + at.height / 2 };
  target.dispatchEvent(new PointerEvent('pointerdown', init));
  target.dispatchEvent(new PointerEvent('pointerup', init));
  target.click();
}

const box = (el: Element) => el.getBoundingClientRect();
const visibleBottom = () => visualViewport!.offsetTop + visualViewport!.height;
const nextFrame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));

describe('the widget in a mobile WebView', () => {
  let apiKey: string;
  let botId: string;
  before(async () => {
    apiKey = await newApiKey();
    botId = await createBot(apiKey);
    await setUserAgent(ANDROID_WEBVIEW);
  });
  beforeEach(async () => {
    clearWidgetStorage();
    await setViewport(PHONE);
  });
  afterEach(async () => {
    for (const element of [document.documentElement, document.body]) element.removeAttribute('style');
    await setViewport({ width: 800, height: 600 });
  });

  /** The page docs/mobile.md gives a WebView: the widget, the whole of it. */
  async function appPage(attrs: Record<string, string>): Promise<AiChatWidget> {
    for (const element of [document.documentElement, document.body]) element.setAttribute('style', 'height: 100%; margin: 0');
    const { el, ready } = await mount({ 'api-key': apiKey, 'bot-id': botId, storage: 'none', ...attrs });
    // the fixture's containers stand between the body and the widget: the page's height passes through
    for (let parent = el.parentElement; parent && parent !== document.body; parent = parent.parentElement) parent.style.height = '100%';
    await ready;
    return el;
  }

  it('reads the safe-area insets with env() into its tokens', () => {
    const styles = AiChatWidget.elementStyles.map((s) => (s instanceof CSSStyleSheet ? '' : s.cssText)).join('\n');
    for (const side of ['top', 'right', 'bottom', 'left']) {
      const read = new RegExp(`--_safe-${side}:\\s*env\\(safe-area-inset-${side},\\s*0px\\)`).test(styles);
      expect(read, `--_safe-${side} is read from env(safe-area-inset-${side})`).to.equal(true);
    }
  });

  it('fullpage: fills the WebView, and keeps its header and input clear of the notch and the home bar', async () => {
    const el = await appPage({ mode: 'fullpage' });
    expect(box(el).width).to.equal(PHONE.width);
    expect(box(el).height).to.equal(PHONE.height);
    const header = $(el, '[part~="header"]');
    const input = $(el, 'textarea');
    expect(box(header).top, 'no notch: at the top').to.equal(0);

    el.setAttribute('style', WITH_INSETS);
    await nextFrame();
    expect(box(header).top).to.equal(INSETS.top);
    expect(box($(el, '[part~="composer"]')).bottom).to.equal(PHONE.height - INSETS.bottom);
    expect(box(input).bottom).to.be.at.most(PHONE.height - INSETS.bottom);
    expect(box(el).height, 'still the whole screen').to.equal(PHONE.height);
  });

  it('fullpage: the on-screen keyboard keeps the input and the newest message in view', async () => {
    const el = await appPage({ mode: 'fullpage' });
    for (const text of ['hello', 'opening hours', 'pricing', 'hi there', 'when are you open', 'how much does it cost', 'hello again']) {
      expect(await el.send(text), text).to.not.equal(null);
    }
    const input = $<HTMLTextAreaElement>(el, 'textarea');
    tap(input);
    input.focus();
    const newest = () => $$(el, '[part~="message"]').at(-1)!;
    await waitFor(() => box(newest()).bottom <= box(input).top, 4000, 'the newest message in view');

    await setViewport({ width: PHONE.width, height: 508 });
    await waitFor(() => visualViewport!.height === 508, 4000, 'the keyboard');
    await nextFrame();
    expect(box(input).bottom, 'the input above the keyboard').to.be.at.most(visibleBottom());
    const below = box(newest()).bottom - box(input).top;
    expect(below, `the newest message is ${below} px under the input`).to.be.at.most(0);
    expect(box(newest()).top, 'and not scrolled off the top').to.be.at.least(0);
    expect(el.shadowRoot!.activeElement).to.equal(input);
  });

  it('launcher: clears the home bar, opens at a tap, and its full-screen panel clears the notch', async () => {
    const el = await appPage({});
    const launcher = $(el, '[part~="launcher"]');
    const offset = PHONE.height - box(launcher).bottom;
    el.setAttribute('style', WITH_INSETS);
    await nextFrame();
    expect(PHONE.height - box(launcher).bottom, 'lifted by the home bar').to.equal(offset + INSETS.bottom);

    tap(launcher);
    const panel = $(el, '[part~="panel"]');
    await waitFor(() => panel.getAttribute('aria-modal') === 'true', 4000, 'the full-screen panel');
    await animationsFinished(el);
    expect(box(panel).top).to.equal(0);
    expect(box(panel).height).to.equal(PHONE.height);
    expect(box($(el, '[part~="header"]')).top).to.equal(INSETS.top);
    expect(box($(el, 'textarea')).bottom).to.be.at.most(PHONE.height - INSETS.bottom);
    await el.close();
  });
});
