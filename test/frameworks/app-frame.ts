// Shared by the framework tests: loads a built test app (test/frameworks/dist/<app>/) in an iframe
// of the test page (same origin, so the test reaches into its DOM), and drives its widgets the way
// a user does.
import { expect } from '@open-wc/testing';
import type { AiChatWidget } from '../../src/element.js';
import { waitFor } from '../widget/helpers.js';

export interface AppFrame {
  frame: HTMLIFrameElement;
  doc: Document;
  /** The app's `<ai-chat-widget id=…>`, once it rendered its shadow DOM. */
  widget(id: string): Promise<AiChatWidget>;
  /** Clicks the app's own `<button id=…>` and waits for its framework to re-render. */
  click(id: string): Promise<void>;
  /** The text of each `<li>` in the app's `<ol id=…>` (what the app recorded in its state). */
  list(id: string): string[];
  remove(): void;
}

export async function loadApp(app: 'react-app' | 'vue-app', params: Record<string, string>): Promise<AppFrame> {
  const frame = document.createElement('iframe');
  frame.style.cssText = 'width: 800px; height: 1400px; border: 0';
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  frame.src = `/test/frameworks/dist/${app}/index.html?${new URLSearchParams(params)}`;
  document.body.append(frame);
  await loaded;
  const doc = frame.contentDocument!;
  const settle = () => new Promise((resolve) => frame.contentWindow!.requestAnimationFrame(() => setTimeout(resolve)));
  return {
    frame,
    doc,
    async widget(id) {
      const el = await waitFor(
        () => doc.querySelector<AiChatWidget>(`ai-chat-widget#${id}`)?.shadowRoot?.querySelector('textarea') &&
          doc.querySelector<AiChatWidget>(`ai-chat-widget#${id}`),
        20000,
        `<ai-chat-widget id="${id}"> in ${app}`,
      );
      await el.updateComplete;
      return el;
    },
    async click(id) {
      doc.querySelector<HTMLButtonElement>(`button#${id}`)!.click();
      await settle();
    },
    list(id) {
      return [...doc.querySelectorAll(`ol#${id} > li`)].map((li) => li.textContent ?? '');
    },
    remove() {
      frame.remove();
    },
  };
}

/** Types `text` into the widget's textarea and clicks Send, as a user would (in the app's realm). */
export async function sendAsUser(el: AiChatWidget, text: string): Promise<void> {
  const view = el.ownerDocument.defaultView as Window & typeof globalThis;
  const input = el.shadowRoot!.querySelector('textarea')!;
  input.value = text;
  input.dispatchEvent(new view.InputEvent('input', { bubbles: true, composed: true }));
  await el.updateComplete;
  el.shadowRoot!.querySelector<HTMLButtonElement>('[part~="send-button"]')!.click();
}

/** The rendered transcript: `role: text` per message row, from the shadow DOM. */
export function transcript(el: AiChatWidget): string[] {
  return [...el.shadowRoot!.querySelectorAll('[part~="message"]')].map((row) => {
    const role = row.getAttribute('part')!.includes('message-user') ? 'user' : 'assistant';
    const bubble = row.querySelector('[part~="bubble"]')!.cloneNode(true) as HTMLElement;
    bubble.querySelector('.sr-only')?.remove();
    return `${role}: ${bubble.textContent!.trim()}`;
  });
}

/**
 * After the app re-rendered three times and changed the title: the framework kept the same element,
 * applied the new props, and left the conversation (and the events so far) untouched.
 */
export function expectRerenderedInPlace(app: AppFrame, el: AiChatWidget, before: string[], conversationId: string | null): void {
  // identity as a boolean: chai would walk a foreign-realm element (and React's fiber) to print it
  expect(app.doc.querySelector('ai-chat-widget#wrapped') === el, 'the same element, not a new one').to.be.true;
  expect(el.isConnected).to.be.true;
  expect(el.shadowRoot!.querySelector('[part~="title"]')!.textContent!.trim()).to.equal('Support 3');
  expect(el.starters).to.deep.equal(['Starter 3']);
  expect(el.shadowRoot!.querySelector('[part~="send-button"]')!.getAttribute('aria-label')).to.equal('Send (3)');
  expect(transcript(el)).to.deep.equal(before);
  expect(el.messages.map((m) => [m.role, m.status])).to.deep.equal([['user', 'sent'], ['assistant', 'sent']]);
  expect(el.conversationId).to.equal(conversationId);
  // re-rendering neither re-fired events nor restored anything
  expect(app.list('events')).to.have.length(3);
}

/** The conversation goes on after the re-renders; the (replaced) handlers fire exactly once each. */
export async function expectConversationContinues(
  app: AppFrame,
  el: AiChatWidget,
  conversationId: string | null,
  where: string,
): Promise<void> {
  await sendAsUser(el, 'opening hours');
  await waitFor(() => app.list('replies').length === 2, 10000, `the second reply in ${where} state`);
  expect(app.list('replies')[1]).to.equal('We are open 9 to 5, Monday to Friday.');
  expect(app.list('events').slice(3)).to.deep.equal(['ai-chat-message-sent:opening hours', 'ai-chat-message-received']);
  expect(el.conversationId).to.equal(conversationId);
  expect(transcript(el)).to.have.length(4);
}
