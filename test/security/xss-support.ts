/**
 * Shared checks of the XSS tests: a page-level tripwire that counts anything a payload manages to
 * run, and a structural check of what the widget rendered.
 */
import { expect } from '@open-wc/testing';
import type { AiChatWidget } from '../../src/element.js';
import { baseUrl, clearWidgetStorage, waitFor } from '../widget/helpers.js';

type Tripwired = Window & { __pwned: number };
const win = window as unknown as Tripwired;

/** Sets `window.__pwned = 0` and makes `alert`/`confirm`/`prompt`/`print` count into it. */
export function installTripwire(): () => void {
  const saved = { alert: window.alert, confirm: window.confirm, prompt: window.prompt, print: window.print };
  win.__pwned = 0;
  const trip = () => {
    win.__pwned++;
    return null as never;
  };
  Object.assign(window, { alert: trip, confirm: trip, prompt: trip, print: trip });
  return () => Object.assign(window, saved);
}

/** How often a payload ran so far. */
export function pwnedCount(): number {
  return win.__pwned;
}

/** Lets queued load/error/focus/toggle events fire, so a payload that got in has run by then. */
export function settleEvents(ms = 150): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Every element the widget's own template or the markdown renderer may produce. Anything else
 * (`script`, `img`, `iframe`, `object`, `embed`, `style`, `math`, `input`, …) came from a payload.
 */
const ALLOWED_TAGS = new Set([
  'div', 'section', 'header', 'h2', 'slot', 'button', 'svg', 'path', 'textarea', 'form', 'span',
  'p', 'br', 'strong', 'em', 'code', 'pre', 'ul', 'ol', 'li', 'a', 'time',
  // the rich markdown: quotes, rules, tables, task items (a disabled checkbox, checked below)
  'blockquote', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'label', 'input',
]);
const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/**
 * Fails when `root` holds an element outside the allowed set, any `on*` attribute, an `<a>` whose
 * href is not absolute http/https/mailto (or lacks `rel="noopener noreferrer"`), or an `<svg>`
 * that is not one of the widget's own path-only icons.
 */
export function expectSafeDom(root: ParentNode, context: string): void {
  for (const el of root.querySelectorAll('*')) {
    const tag = el.localName;
    expect(ALLOWED_TAGS.has(tag), `${context}: unexpected <${tag}>`).to.equal(true);
    const handlers = el.getAttributeNames().filter((name) => name.toLowerCase().startsWith('on'));
    expect(handlers, `${context}: event-handler attribute on <${tag}>`).to.deep.equal([]);
    if (tag === 'input') {
      const box = el as HTMLInputElement;
      expect(box.type === 'checkbox' && box.disabled && el.parentElement?.localName === 'label', `${context}: <input> that is no task item's checkbox`).to.equal(true);
    }
    if (tag === 'a' && el.classList.contains('cite')) {
      // a source marker, `[1]`: an in-page link to a source listed in the same root, nothing else
      const id = el.getAttribute('aria-describedby') ?? '';
      expect(el.getAttribute('href'), `${context}: source marker href`).to.equal(`#${id}`);
      expect(root.querySelector(`[part~="citations"] li#${CSS.escape(id)}`), `${context}: source marker target`).to.not.equal(null);
    } else if (tag === 'a') {
      const href = el.getAttribute('href') ?? '';
      let protocol = '';
      try {
        protocol = new URL(href).protocol;
      } catch {
        protocol = `(not absolute: ${href})`;
      }
      expect(SAFE_PROTOCOLS.has(protocol), `${context}: link to ${href}`).to.equal(true);
      expect(el.getAttribute('rel'), `${context}: rel of ${href}`).to.equal('noopener noreferrer');
    }
    if (tag === 'svg') {
      expect(el.classList.contains('icon') && el.getAttribute('aria-hidden') === 'true', `${context}: foreign <svg>`).to.equal(true);
      expect([...el.children].every((c) => c.localName === 'path'), `${context}: <svg> content`).to.equal(true);
    }
  }
  // the widget's icons live in the header, composer and launcher, and among the messages only as
  // the icons of an answer's own action row (Copy, thumbs): never inside a bubble or a suggestion
  const foreignSvg = [...root.querySelectorAll('[part~="transcript"] svg, [part~="suggestions"] svg')].filter(
    (svg) => !svg.parentElement?.matches('[part~="actions"] > button'),
  );
  expect(foreignSvg.length, `${context}: svg in messages`).to.equal(0);
}

/** `expectSafeDom` on the widget's shadow root, plus the tripwire. */
export function expectSafeWidget(el: AiChatWidget, context: string): void {
  expectSafeDom(el.shadowRoot!, context);
  expect(pwnedCount(), `${context}: a payload ran`).to.equal(0);
}

/**
 * Registers the hooks every XSS test runs under: fresh widget storage and a tripwire before, and
 * after, a moment for queued events and the check that nothing ran.
 */
export function guardEachTest(): void {
  let restoreTripwire: () => void;
  beforeEach(() => {
    clearWidgetStorage();
    restoreTripwire = installTripwire();
  });
  afterEach(async () => {
    await settleEvents();
    expect(pwnedCount(), 'a payload ran').to.equal(0);
    restoreTripwire();
  });
}

/** Rate limits no corpus run reaches. */
export const ROOMY_LIMITS = { points: 100_000, duration_seconds: 60 };

/** The case's text cut to a field's length limit (the tag stays: it is within the first 90 chars). */
export function fit(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max);
}

/** POSTs JSON to the test service with the key, and returns the created resource's `data`. */
export async function post(apiKey: string, path: string, body: unknown): Promise<{ id: string }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${path} failed with ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { data: { id: string } }).data;
}

/** Waits until no user message is on its way and no reply is awaited. */
export async function settled(el: AiChatWidget, what: string): Promise<void> {
  // generous: with ~200 messages in the transcript a 100k-character message takes seconds to lay out
  await waitFor(() => el.messages.length > 0 && el.messages.every((m) => m.status !== 'sending'), 30_000, what);
  await el.updateComplete;
}
