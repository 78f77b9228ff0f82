// The action row under each answer: Copy, thumbs up / down with aria-pressed,
// the reason form after a thumbs down, the cancelable `ai-chat-feedback` event, `no-feedback`, and
// the feedback reaching the real service: with a key (read back through the feedback report) and
// through the real demo token proxy (read back as the visitor's own feedback). Keyboard and axe.
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { FeedbackReport } from '../../src/client/index.js';
import type { AiChatFeedbackEvent, AiChatWidget } from '../../src/element.js';
import { $, $$, animationsFinished, baseUrl, clearWidgetStorage, createBot, mount, newApiKey, waitFor } from './helpers.js';

async function feedbackReport(apiKey: string): Promise<FeedbackReport> {
  const res = await fetch(`${baseUrl}/analytics/feedback?granularity=hour`, { headers: { authorization: `Bearer ${apiKey}` } });
  return ((await res.json()) as { data: FeedbackReport }).data;
}

/** Polls `check` until it is true (it asks the service), or fails after 8 s. */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > 8000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until the report says what `check` wants (the widget sends in the background). */
async function reportUntil(apiKey: string, check: (r: FeedbackReport) => boolean, what: string): Promise<FeedbackReport> {
  let last: FeedbackReport | undefined;
  await until(async () => check((last = await feedbackReport(apiKey))), what).catch((error: Error) => {
    throw new Error(`${error.message}: ${JSON.stringify(last)}`);
  });
  return last!;
}

/** A widget with a key and a bot that has answered once; the answer's row and the events it fired. */
async function answered(attrs: Record<string, string | boolean> = {}) {
  const apiKey = await newApiKey();
  const botId = await createBot(apiKey);
  const { el, ready } = await mount({ mode: 'inline', storage: 'none', 'api-key': apiKey, 'bot-id': botId, ...attrs });
  await ready;
  const events: AiChatFeedbackEvent[] = [];
  el.addEventListener('ai-chat-feedback', (e) => events.push(e));
  const reply = (await el.send('hello'))!;
  await el.updateComplete;
  return { el, apiKey, botId, events, reply };
}

const lastRow = (el: AiChatWidget) => $$(el, '[part~="actions"]').at(-1)!;
const thumb = (el: AiChatWidget, which: 'up' | 'down') => lastRow(el).querySelector<HTMLButtonElement>(`[part~="feedback-${which}"]`)!;

describe('the action row under an answer', () => {
  beforeEach(clearWidgetStorage);
  afterEach(clearWidgetStorage);

  it('thumbs down, a reason and a comment: the event fires and the service has it; thumbs up changes it, again takes it back', async () => {
    const { el, apiKey, events, reply } = await answered();
    expect($$(el, '[part~="actions"]')).to.have.length(1, 'a row under the answer only');
    expect(thumb(el, 'down').getAttribute('aria-pressed')).to.equal('false');

    thumb(el, 'down').click();
    await el.updateComplete;
    expect(thumb(el, 'down').getAttribute('aria-pressed')).to.equal('true');
    expect(events.map((e) => e.detail)).to.deep.equal([{ messageId: reply.serverId, rating: 'down', reason: null, comment: null }]);
    expect(events[0]!.cancelable).to.equal(true);
    await reportUntil(apiKey, (r) => r.totals.down === 1, 'the thumbs down stored');

    // the reason form is an add-on, loaded at the page's first thumbs down
    const form = await waitFor(() => el.shadowRoot!.querySelector<HTMLFormElement>('[part~="feedback-form"]'), 8000, 'the reason form');
    // its styles came with it (not in the widget's own stylesheet): the box is drawn
    expect(getComputedStyle(form).borderTopStyle).to.equal('solid');
    await animationsFinished(el); // axe on a fading-in message measures a contrast it never has at rest
    await expect(el).to.be.accessible();
    form.querySelector<HTMLInputElement>('input[value="incomplete"]')!.click();
    form.querySelector<HTMLTextAreaElement>('textarea')!.value = 'It stopped halfway.';
    form.querySelector<HTMLButtonElement>('[part~="feedback-send"]')!.click();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part~="feedback-form"]')).to.equal(null);
    expect(events.at(-1)!.detail).to.deep.equal({ messageId: reply.serverId, rating: 'down', reason: 'incomplete', comment: 'It stopped halfway.' });
    await waitFor(() => el.shadowRoot!.activeElement === thumb(el, 'down'), 2000, 'focus back on the thumbs down');
    const report = await reportUntil(apiKey, (r) => r.reasons.length === 1, 'the reason stored');
    expect(report.reasons).to.deep.equal([{ reason: 'incomplete', count: 1 }]);
    expect(report.most_downvoted[0]).to.include({ message_id: reply.serverId, answer: reply.content.slice(0, 500), down: 1 });
    expect(el.messages.at(-1)!.feedback).to.deep.equal({ rating: 'down', reason: 'incomplete', comment: 'It stopped halfway.' });

    thumb(el, 'up').click();
    await el.updateComplete;
    expect([thumb(el, 'up').getAttribute('aria-pressed'), thumb(el, 'down').getAttribute('aria-pressed')]).to.deep.equal(['true', 'false']);
    await reportUntil(apiKey, (r) => r.totals.up === 1 && r.totals.down === 0, 'changed to a thumbs up');
    thumb(el, 'up').click();
    await el.updateComplete;
    expect(thumb(el, 'up').getAttribute('aria-pressed')).to.equal('false');
    expect(events.at(-1)!.detail.rating).to.equal(null);
    await reportUntil(apiKey, (r) => r.totals.up === 0 && r.totals.down === 0, 'taken back');
    await animationsFinished(el); // axe on a fading-in message measures a contrast it never has at rest
    await expect(el).to.be.accessible();
  });

  it('works from the keyboard: Tab to the thumbs, Space presses, Cancel closes the form', async () => {
    const { el, apiKey } = await answered();
    thumb(el, 'up').focus();
    await sendKeys({ press: 'Tab' });
    expect(el.shadowRoot!.activeElement).to.equal(thumb(el, 'down'));
    await sendKeys({ press: 'Space' });
    await el.updateComplete;
    expect(thumb(el, 'down').getAttribute('aria-pressed')).to.equal('true');
    await waitFor(() => el.shadowRoot!.querySelector('[part~="feedback-form"]'), 8000, 'the reason form (an add-on)');
    await sendKeys({ press: 'Tab' }); // into the form: the first reason
    expect(el.shadowRoot!.activeElement?.getAttribute('name')).to.equal('reason');
    $<HTMLButtonElement>(el, '[part~="feedback-cancel"]').focus();
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part~="feedback-form"]')).to.equal(null);
    await waitFor(() => el.shadowRoot!.activeElement === thumb(el, 'down'), 2000, 'focus back on the thumbs down');
    const report = await reportUntil(apiKey, (r) => r.totals.down === 1, 'the thumbs down stored');
    expect(report.reasons).to.deep.equal([], 'skipped: no reason');
  });

  it('keeps the thumbs across a reload, when the history comes back from the service', async () => {
    const apiKey = await newApiKey();
    const botId = await createBot(apiKey);
    const attrs = { mode: 'inline', storage: 'local', 'api-key': apiKey, 'bot-id': botId, id: 'reloaded' };
    const first = await mount(attrs);
    await first.ready;
    await first.el.send('hello');
    await first.el.updateComplete;
    thumb(first.el, 'up').click();
    await reportUntil(apiKey, (r) => r.totals.up === 1, 'the thumbs up stored');
    first.el.remove();

    const second = await mount(attrs);
    await second.ready; // restored from storage, then the history replaced the delivered messages
    await second.el.updateComplete;
    expect(second.el.messages.at(-1)!.feedback).to.deep.equal({ rating: 'up' });
    expect(thumb(second.el, 'up').getAttribute('aria-pressed')).to.equal('true');
  });

  it('a host that cancels ai-chat-feedback handles it itself: nothing is sent', async () => {
    const { el, apiKey, reply } = await answered();
    el.addEventListener('ai-chat-feedback', (e) => e.preventDefault(), { once: true });
    thumb(el, 'down').click();
    await el.updateComplete;
    expect(thumb(el, 'down').getAttribute('aria-pressed')).to.equal('true', 'the thumb still shows as pressed');
    const second = (await el.send('hello again'))!;
    await el.updateComplete;
    thumb(el, 'up').click();
    const report = await reportUntil(apiKey, (r) => r.totals.up === 1, 'the second answer rated');
    expect(report.totals.down).to.equal(0, `the cancelled thumbs down on ${reply.serverId} never reached the service`);
    expect(second.serverId).to.not.equal(reply.serverId);
  });

  it('Copy copies the answer and says "Copied"; no-feedback leaves only Copy', async () => {
    const { el } = await answered({ 'no-feedback': true });
    expect($$(el, '[part~="feedback-button"]')).to.have.length(0);
    const copy = lastRow(el).querySelector<HTMLButtonElement>('[part~="copy-answer"]')!;
    expect(copy.getAttribute('aria-label')).to.equal('Copy');
    copy.click();
    await waitFor(() => copy.nextElementSibling!.textContent === 'Copied', 4000, 'the polite "Copied"');
    expect(copy.nextElementSibling!.getAttribute('role')).to.equal('status');
    el.noFeedback = false;
    await el.updateComplete;
    expect($$(el, '[part~="feedback-button"]')).to.have.length(2);
    await animationsFinished(el); // axe on a fading-in message measures a contrast it never has at rest
    await expect(el).to.be.accessible();
  });

  it('works through the demo token proxy: the visitor rates as their own user', async () => {
    const { el, ready } = await mount({ mode: 'inline', storage: 'none', 'token-url': '/proxy/token' });
    const { userId } = (await ready).detail;
    const reply = (await el.send('hello'))!;
    await el.updateComplete;
    const sent = new Promise<AiChatFeedbackEvent>((resolve) => el.addEventListener('ai-chat-feedback', resolve, { once: true }));
    const errors: unknown[] = [];
    el.addEventListener('ai-chat-error', (e) => errors.push(e.detail));
    thumb(el, 'down').click();
    expect((await sent).detail.messageId).to.equal(reply.serverId);

    // the visitor's own token (the same anonymous id) takes it back: it was stored for them
    const minted = await fetch('/proxy/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user_id: userId }) });
    const { token } = ((await minted.json()) as { data: { token: string } }).data;
    const takeBack = () =>
      fetch(`/proxy/v1/messages/${reply.serverId}/feedback`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    await until(async () => (await takeBack()).status === 200, 'the feedback stored for the visitor');
    expect((await takeBack()).status).to.equal(404);
    expect(errors).to.deep.equal([]);
  });
});
