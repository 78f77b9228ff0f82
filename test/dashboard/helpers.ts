// Shared helpers of the dashboard page tests: a client for a fresh tenant on the real service, the
// shadow-DOM queries the pages need, and waiting for what the page shows (no fixed sleeps).
import { sendKeys } from '@web/test-runner-commands';
import { AiChatClient, ApiError, type HandoffState } from '../../src/client/index.js';
import { DashboardApi } from '../../src/dashboard/api.js';
import { newAccount } from '../client/fixtures.js';

export interface Tenant {
  client: AiChatClient;
  /** For the preview widget: where it sends requests and the bearer token it sends. */
  baseUrl: string;
  token: string;
}

/** A fresh tenant; the pages get a typed client exactly as the dashboard gives them one. */
export async function newTenant(): Promise<Tenant> {
  const { apiKey } = await newAccount();
  const baseUrl = `${location.origin}/v1`;
  return { client: new AiChatClient({ baseUrl, apiKey }), baseUrl, token: apiKey };
}

/** A hostile string: markup and script that must show as text and never run. */
export const HOSTILE = `<img src=x onerror="__pwned++"><script>__pwned++</script><b>bold</b> "quotes" & =cmd|' /C calc'!A0`;

declare global {
  // eslint-disable-next-line no-var
  var __pwned: number;
}
globalThis.__pwned = 0;

/** Waits until `check` returns a truthy value (or throws when the test's own timeout is near). */
export async function until<T>(check: () => T | undefined | null | false, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Every element matching `selector` in the shadow roots below `root`, depth-first. */
export function deepAll<E extends Element = HTMLElement>(root: Element | ShadowRoot | Document, selector: string): E[] {
  const found: E[] = [];
  const visit = (node: Element | ShadowRoot | Document) => {
    found.push(...(node.querySelectorAll(selector) as unknown as E[]));
    for (const el of node.querySelectorAll('*')) if (el.shadowRoot) visit(el.shadowRoot);
  };
  visit(root);
  // Not `instanceof Element`: an element of a frame belongs to another realm.
  if ('shadowRoot' in root && root.shadowRoot) visit(root.shadowRoot);
  return [...new Set(found)];
}

export function deep<E extends Element = HTMLElement>(root: Element | ShadowRoot | Document, selector: string): E | undefined {
  return deepAll<E>(root, selector)[0];
}

/** The button whose visible text or accessible label is `name`, anywhere below `root`. */
export function button(root: Element, name: string | RegExp): HTMLButtonElement | undefined {
  const matches = (text: string | null) => text !== null && (typeof name === 'string' ? text.trim() === name : name.test(text.trim()));
  return deepAll<HTMLButtonElement>(root, 'button').find((b) => matches(b.getAttribute('aria-label')) || matches(b.textContent));
}

/** Types into a control the way a user does (value + input event), then lets Lit render. */
export async function fill(root: Element, name: string, value: string): Promise<void> {
  const control = deep<HTMLInputElement>(root, `[name="${name}"]`);
  if (!control) throw new Error(`no control named ${name}`);
  control.value = value;
  control.dispatchEvent(new Event(control.tagName === 'SELECT' ? 'change' : 'input', { bubbles: true, composed: true }));
  await new Promise((resolve) => requestAnimationFrame(resolve));
}

/** The element that has the focus, through shadow roots. */
export function deepActiveElement(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** Presses Tab until `target` has the focus; true if it got there within `maxTabs`. */
export async function tabTo(target: Element, maxTabs = 80): Promise<boolean> {
  (document.activeElement as HTMLElement | null)?.blur();
  for (let i = 0; i < maxTabs; i++) {
    await sendKeys({ press: 'Tab' });
    if (deepActiveElement() === target) return true;
  }
  return false;
}

/** Text of the page with every shadow root flattened in, for "shows this text" checks. */
export function deepText(root: Element): string {
  return deepAll(root, '*')
    .filter((el) => el.childNodes.length)
    .map((el) => [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join(''))
    .join(' ');
}

/** Confirms the open `aicd-confirm-dialog` below `root`. */
export async function confirmDialog(root: Element): Promise<void> {
  const dialog = await until(() => deepAll<HTMLDialogElement>(root, 'dialog').find((d) => d.open), 'the confirmation dialog');
  dialog.querySelector<HTMLButtonElement>('button[value="confirm"]')!.click();
}

/**
 * Ends the browser's dashboard session, if any, so the next test (or test file: they share the
 * cookie jar) starts signed out. Sign-out is a write, so it needs the session's CSRF token first.
 */
export async function signOut(): Promise<void> {
  const api = new DashboardApi();
  if (await api.me()) await api.signOut();
}

let operators = 0;

/**
 * A fresh operator, signed in (the browser's cookie), with a bot that hands off, and a visitor: the
 * typed client with an API key of that account.
 */
export async function operatorWithHandoffBot(name: string): Promise<{ api: DashboardApi; visitor: AiChatClient; botId: string }> {
  const api = new DashboardApi();
  await api.signUp({ email: `${name.toLowerCase()}.${Date.now()}.${++operators}@example.test`, password: 'correct horse battery', account_name: name });
  const { secret } = await api.createKey({ label: 'visitor side' });
  const visitor = new AiChatClient({ baseUrl: `${location.origin}/v1`, apiKey: secret });
  const { data: bot } = await api.client.bots.create({ name: 'Shop' });
  await api.client.handoff.updateSettings(bot.id, { enabled: true });
  return { api, visitor, botId: bot.id };
}

/**
 * The visitor asks for a person, again until an operator counts as online: an inbox page opened
 * just before starts its event stream a moment later (until then the answer is `handoff_unavailable`).
 */
export async function askForPerson(visitor: AiChatClient, conversationId: string, userId: string): Promise<HandoffState> {
  for (;;) {
    try {
      return (await visitor.handoff.request(conversationId, { user_id: userId })).data;
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'handoff_unavailable')) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
