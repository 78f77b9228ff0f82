// The XSS corpus (xss-payloads.ts) as a bot's trained replies and suggestions: rendered safely.
import { expect } from '@open-wc/testing';
import { $$, baseUrl, mount, newApiKey } from '../widget/helpers.js';
import { CASES } from './xss-payloads.js';
import { ROOMY_LIMITS, expectSafeWidget, fit, guardEachTest, post } from './xss-support.js';

describe('XSS corpus: bot replies', function () {
  guardEachTest();

  it('bot replies and their suggestions render safely', async function () {
    this.timeout(150_000);
    const apiKey = await newApiKey(ROOMY_LIMITS);
    const bot = await post(apiKey, '/bots', {
      name: 'XSS replies',
      training: {
        intents: CASES.map((c, i) => ({
          name: `p${i}`,
          examples: [c.tag],
          responses: [fit(c.text, 4000)],
          suggestions: [fit(c.text, 100)],
        })),
        fallback: { threshold: 0.2, responses: ['fallback reply'] },
      },
    });
    const { el, ready } = await mount({ mode: 'inline', storage: 'none', 'base-url': baseUrl, 'api-key': apiKey, 'bot-id': bot.id });
    await ready;
    for (const c of CASES) {
      const reply = await el.send(c.tag);
      expect(reply, c.name).to.not.equal(null);
      await el.updateComplete;
      const bubble = $$(el, '[part~="message-assistant"] [part~="bubble"]').at(-1)!;
      expect(bubble.textContent, `${c.name}: the bot answered with the intent`).to.contain(c.tag);
      const suggestions = $$(el, '[part~="suggestion"]').map((b) => b.textContent ?? '');
      expect(suggestions.join('\n'), c.name).to.contain(c.tag);
      expectSafeWidget(el, c.name);
    }
  });
});
