// Shared helpers of the widget tests: fresh tenants and bots on the real service (service.ts),
// mounting a widget with its `ai-chat-ready` listener attached before it connects, and shadow-DOM
// queries. Importing this module registers <ai-chat-widget>.
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/ai-chat-widget.js';
import type { AiChatWidget } from '../../src/element.js';
import type { AiChatReadyEvent } from '../../src/element.js';

// One implementation of the fault-route helpers for client and widget tests.
export { countOf, faultBaseUrl, uniqueKey } from '../client/fixtures.js';

export { baseUrl, createBot, historyOf, newApiKey } from './service.js';

export interface Mounted {
  el: AiChatWidget;
  /** Resolves with the widget's `ai-chat-ready` (listener attached before it connected). */
  ready: Promise<AiChatReadyEvent>;
}

/**
 * Creates `<ai-chat-widget>` with `attrs` (true: boolean attribute) and `props`, inside a fixture
 * container (removed after the test), with the ready listener attached before it connects.
 */
export async function mount(
  attrs: Record<string, string | boolean> = {},
  props: Partial<AiChatWidget> = {},
  container?: HTMLElement,
): Promise<Mounted> {
  const host = container ?? (await fixture<HTMLDivElement>(html`<div></div>`));
  const el = document.createElement('ai-chat-widget');
  for (const [name, value] of Object.entries(attrs)) {
    if (value === true) el.setAttribute(name, '');
    else if (value !== false) el.setAttribute(name, value);
  }
  Object.assign(el, props);
  const ready = new Promise<AiChatReadyEvent>((resolve) =>
    el.addEventListener('ai-chat-ready', resolve, { once: true }),
  );
  host.append(el);
  await el.updateComplete;
  return { el, ready };
}

/** The first element matching `selector` in the widget's shadow root. */
export function $<T extends Element = HTMLElement>(el: AiChatWidget, selector: string): T {
  const found = el.shadowRoot!.querySelector<T>(selector);
  if (!found) throw new Error(`no ${selector} in the widget`);
  return found;
}

export function $$<T extends Element = HTMLElement>(el: AiChatWidget, selector: string): T[] {
  return [...el.shadowRoot!.querySelectorAll<T>(selector)];
}

/** Types `text` into the widget's textarea as a user would (an `input` event). */
export async function typeText(el: AiChatWidget, text: string): Promise<void> {
  const input = $<HTMLTextAreaElement>(el, 'textarea');
  input.value = text;
  input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  await el.updateComplete;
}

/** Waits until `check` returns a truthy value (polling), or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => T, timeoutMs = 8000, what = 'condition'): Promise<NonNullable<T>> {
  const start = Date.now();
  for (;;) {
    const value = check();
    if (value) return value as NonNullable<T>;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Removes every key the widget wrote (tests start from a clean slate). */
export function clearWidgetStorage(): void {
  for (const store of [localStorage, sessionStorage]) {
    for (const key of Object.keys(store)) if (key.startsWith('ai-chat-widget:')) store.removeItem(key);
  }
}

/** The widget's own storage keys, in both stores. */
export function widgetStorageKeys(): string[] {
  return [...Object.keys(localStorage), ...Object.keys(sessionStorage)].filter((k) =>
    k.startsWith('ai-chat-widget:'),
  );
}

/** Presses Escape in the open launcher panel: it closes, fires ai-chat-close, and focus returns to the launcher. */
export async function escapeClosesToLauncher(el: AiChatWidget): Promise<void> {
  const closed = oneEvent(el, 'ai-chat-close');
  await sendKeys({ press: 'Escape' });
  await closed;
  await el.updateComplete;
  expect(el.opened).to.equal(false);
  expect(el.shadowRoot!.activeElement).to.equal($(el, '[part~="launcher"]'));
}

/** Resolves once the widget's running CSS animations (a bubble's fade-in) are over: axe reads colours mid-fade otherwise. */
export async function animationsFinished(el: AiChatWidget): Promise<void> {
  await Promise.all(el.shadowRoot!.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity).map((a) => a.finished));
}
