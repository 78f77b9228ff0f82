// The XSS corpus (xss-payloads.ts) typed into the composer and sent: shown verbatim, nothing runs.
import { expect } from '@open-wc/testing';
import { MESSAGE_LIMIT } from '../../src/widget/composer/input-limit.js';
import { $, $$, baseUrl, mount, newApiKey, typeText } from '../widget/helpers.js';
import { CASES } from './xss-payloads.js';
import { ROOMY_LIMITS, expectSafeWidget, guardEachTest, settled } from './xss-support.js';

describe('XSS corpus: typed text', function () {
  guardEachTest();

  it('text the user types shows verbatim and runs nothing', async function () {
    this.timeout(120_000);
    const apiKey = await newApiKey(ROOMY_LIMITS);
    const { el, ready } = await mount({ mode: 'inline', storage: 'none', 'base-url': baseUrl, 'api-key': apiKey });
    await ready;
    for (const c of CASES) {
      const textarea = $<HTMLTextAreaElement>(el, 'textarea');
      await typeText(el, c.text);
      textarea.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true }));
      const typed = c.text.replace(/\r\n?/g, '\n'); // a textarea turns CR into LF
      if ([...c.text].length > MESSAGE_LIMIT) {
        // Over the input limit Enter sends nothing: the draft stays whole (not cut), marked invalid.
        await el.updateComplete;
        expect(textarea.value, c.name).to.equal(typed);
        expect(textarea.getAttribute('aria-invalid'), c.name).to.equal('true');
        expectSafeWidget(el, c.name);
        // The host's send() has no input limit: the service refuses it (validation_failed) yet it is shown.
        textarea.value = '';
        textarea.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
        await el.send(c.text);
      }
      await settled(el, c.name);
      const users = $$(el, '[part~="message-user"] [part~="bubble"]');
      expect(users.at(-1)!.textContent, c.name).to.contain(typed.trim());
      expectSafeWidget(el, c.name);
    }
    expect(el.messages.filter((m) => m.role === 'user')).to.have.length(CASES.length);
  });
});
