// The XSS corpus (xss-payloads.ts) as knowledge entries: answers, citations and title suggestions, safely.
import { expect } from '@open-wc/testing';
import { $$, baseUrl, mount, newApiKey } from '../widget/helpers.js';
import { CASES } from './xss-payloads.js';
import { ROOMY_LIMITS, expectSafeWidget, fit, guardEachTest, post } from './xss-support.js';

describe('XSS corpus: knowledge', function () {
  guardEachTest();

  it('knowledge content and titles come back as answers, citations and suggestions, safely', async function () {
    this.timeout(150_000);
    const apiKey = await newApiKey(ROOMY_LIMITS);
    for (const c of CASES) {
      await post(apiKey, '/knowledge', { title: fit(c.text, 200), content: fit(c.text, 100_000), tags: ['xss'] });
    }
    const { el, ready } = await mount({ mode: 'inline', storage: 'none', 'base-url': baseUrl, 'api-key': apiKey });
    await ready;
    let cited = 0;
    for (const c of CASES) {
      const reply = await el.send(c.tag);
      expect(reply, `${c.name}: ${JSON.stringify(el.messages.at(-1)?.error)}`).to.not.equal(null);
      await el.updateComplete;
      const row = $$(el, '[part~="message-assistant"]').at(-1)!;
      const suggestions = $$(el, '[part~="suggestion"]').map((b) => b.textContent ?? '').join('\n');
      expect(`${row.textContent}\n${suggestions}`, `${c.name}: the entry came back`).to.contain(c.tag);
      if (row.querySelector('[part~="citations"]')) cited++;
      expectSafeWidget(el, c.name);
    }
    // most answers are extracts with their sources listed (the rest: fallbacks suggesting titles)
    expect(cited).to.be.greaterThan(CASES.length / 2);
  });
});
