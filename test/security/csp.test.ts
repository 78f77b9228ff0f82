// The widget under a strict Content-Security-Policy: demo/strict-csp.html, served by
// test/support/csp-pages.mjs with `default-src 'self'; script-src 'self'; style-src 'self';
// connect-src 'self'`, loaded in a same-origin iframe. Its first script records every violation
// before the widget loads; the test drives the launcher, sends a message, gets a streamed markdown
// reply through the token proxy, and expects no violation at all.
import { expect } from '@open-wc/testing';
import type { AiChatWidget } from '../../src/element.js';
import { clearWidgetStorage, waitFor } from '../widget/helpers.js';

interface Violation {
  directive: string;
  blocked: string;
  sample: string;
  source: string;
}
type CspWindow = Window & { __cspViolations?: Violation[] };

const STRICT_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'";

async function loadFrame(src: string): Promise<HTMLIFrameElement> {
  const frame = document.createElement('iframe');
  frame.style.width = '800px';
  frame.style.height = '700px';
  const loaded = new Promise((resolve, reject) => {
    frame.addEventListener('load', resolve, { once: true });
    frame.addEventListener('error', reject, { once: true });
  });
  frame.src = src;
  document.body.append(frame);
  await loaded;
  return frame;
}

describe('strict Content-Security-Policy', () => {
  let frame: HTMLIFrameElement | undefined;
  beforeEach(clearWidgetStorage); // the frame shares this origin's storage
  afterEach(() => frame?.remove());

  it('serves the demo page and the built widget with the strict policy', async () => {
    const bundle = await fetch('/dist/ai-chat-widget.iife.js');
    expect(bundle.status, 'dist/ai-chat-widget.iife.js is missing: run `npm run build` first').to.equal(200);
    const page = await fetch('/demo/strict-csp.html');
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-security-policy')).to.equal(STRICT_CSP);
    const markup = await page.text();
    // no inline script or style on the page itself: every <script> has a src, no style attribute or element
    expect(markup).to.not.match(/<script(?![^>]*\bsrc=)[^>]*>/i);
    expect(markup).to.not.match(/<style\b|\sstyle=/i);
  });

  it('the policy is enforced: an inline script in the frame is blocked and reported', async () => {
    frame = await loadFrame('/demo/strict-csp.html');
    const win = frame.contentWindow as CspWindow;
    const doc = frame.contentDocument!;
    const script = doc.createElement('script');
    script.textContent = 'window.__inlineRan = true';
    doc.body.append(script);
    await waitFor(() => win.__cspViolations?.length, 3000, 'the violation report');
    expect((win as unknown as { __inlineRan?: boolean }).__inlineRan).to.equal(undefined);
    expect(win.__cspViolations![0].directive).to.equal('script-src-elem');
  });

  it('opens, sends and renders a streamed markdown reply with zero violations', async function () {
    this.timeout(30_000);
    const bundle = await fetch('/dist/ai-chat-widget.iife.js', { method: 'HEAD' });
    expect(bundle.status, 'dist/ai-chat-widget.iife.js is missing: run `npm run build` first').to.equal(200);
    frame = await loadFrame('/demo/strict-csp.html');
    const win = frame.contentWindow as CspWindow & typeof globalThis;
    expect(win.__cspViolations, 'the recorder script ran').to.deep.equal([]);
    await waitFor(() => win.customElements.get('ai-chat-widget'), 5000, 'the widget to register');
    const el = frame.contentDocument!.querySelector('ai-chat-widget') as AiChatWidget;
    await el.updateComplete;
    const root = el.shadowRoot!;
    // styles arrive as adopted stylesheets (allowed by style-src 'self'), never as <style> elements
    expect(root.adoptedStyleSheets.length).to.be.greaterThan(0);
    expect(root.querySelector('style')).to.equal(null);

    root.querySelector<HTMLButtonElement>('[part~="launcher"]')!.click();
    await el.updateComplete;
    expect(el.opened).to.equal(true);
    expect(root.querySelector('[part~="panel"]')!.hasAttribute('hidden')).to.equal(false);

    const input = root.querySelector<HTMLTextAreaElement>('textarea')!;
    input.value = 'How do I install it?';
    input.dispatchEvent(new win.InputEvent('input', { bubbles: true, composed: true }));
    await el.updateComplete;
    const deltas: string[] = [];
    const seenPartial = new Promise<void>((resolve) => {
      const observer = new win.MutationObserver(() => {
        const partial = el.messages.find((m) => m.role === 'assistant' && m.status === 'sending');
        if (partial) {
          deltas.push(partial.content);
          resolve();
        }
      });
      observer.observe(root, { subtree: true, childList: true, characterData: true });
    });
    root.querySelector<HTMLButtonElement>('[part~="send-button"]')!.click();

    await waitFor(() => el.messages.find((m) => m.role === 'assistant' && m.status === 'sent'), 15_000, 'the reply');
    await el.updateComplete;
    await seenPartial; // the reply arrived as a stream, not in one piece
    expect(deltas.length).to.be.greaterThan(0);
    const bubble = [...root.querySelectorAll('[part~="message-assistant"] [part~="bubble"]')].at(-1)!;
    expect(bubble.textContent).to.contain('npm run build && npm pack');
    expect(bubble.querySelector('code'), 'markdown rendered').to.not.equal(null);
    expect(el.messages.map((m) => [m.role, m.status])).to.deep.equal([
      ['user', 'sent'],
      ['assistant', 'sent'],
    ]);
    await new Promise((r) => setTimeout(r, 200)); // a late report would arrive by now
    expect(win.__cspViolations).to.deep.equal([]);
    expect(frame.contentDocument!.getElementById('csp-violations')!.textContent).to.equal('0');
  });
});
