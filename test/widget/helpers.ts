// Shared helpers of the widget tests: fresh tenants and bots on the real service, mounting a widget
// with its `ai-chat-ready` listener attached before it connects, and shadow-DOM queries.
import { fixture, html } from '@open-wc/testing';
import '../../src/ai-chat-widget.js';
import type { AiChatWidget } from '../../src/element.js';
import type { AiChatReadyEvent } from '../../src/element.js';
import type { CreateBotRequest, Message } from '../../src/client/types.js';
import { newAccount } from '../client/fixtures.js';

// One implementation of the fault-route helpers for client and widget tests.
export { countOf, faultBaseUrl, uniqueKey } from '../client/fixtures.js';

export const baseUrl = `${location.origin}/v1`;

/** A fresh tenant on the real service; its API key. */
export async function newApiKey(rateLimit?: { points: number; duration_seconds: number }): Promise<string> {
  return (await newAccount(rateLimit)).apiKey;
}

/** A bot whose intents answer their own examples; returns its id. */
export async function createBot(apiKey: string, bot: Partial<CreateBotRequest> = {}): Promise<string> {
  const body: CreateBotRequest = {
    name: 'Widget test bot',
    training: {
      intents: [
        {
          name: 'greeting',
          examples: ['hello', 'hi there', 'good morning', 'hey'],
          responses: ['Hello! How can I **help** you today?'],
          suggestions: ['Opening hours', 'Pricing'],
        },
        {
          name: 'hours',
          examples: ['opening hours', 'when are you open', 'what time do you open'],
          responses: ['We are open 9 to 5, Monday to Friday.'],
        },
        {
          name: 'pricing',
          examples: ['pricing', 'how much does it cost', 'what is the price'],
          responses: ['Plans start at 10 euros a month.'],
        },
      ],
    },
    ...bot,
  };
  const response = await fetch(`${baseUrl}/bots`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`creating a bot failed with ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

/** The stored messages of a conversation (or of a user with a bot), read with the API key. */
export async function historyOf(apiKey: string, query: Record<string, string>): Promise<Message[]> {
  const response = await fetch(`${baseUrl}/chat/history?${new URLSearchParams({ ...query, limit: '200' })}`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  if (!response.ok) throw new Error(`reading history failed with ${response.status}`);
  return ((await response.json()) as { data: { items: Message[] } }).data.items;
}

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
