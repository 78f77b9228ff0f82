// The satisfaction survey (CSAT) in the widget against the real service in real Chromium: an
// operator takes, answers and closes the conversation from their side; the widget then asks once
// for a rating (five stars as a radio group, chosen with the arrow keys), sends it with a comment
// as the conversation's user, fires `ai-chat-csat` and thanks the visitor; the service holds it,
// credited to that operator. A host that cancels `ai-chat-csat` keeps it from the service. With the
// bot's `after_bot`, a conversation the bot answered alone is rated when the visitor closes the panel.
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { AiChatCsatEvent, AiChatHandoffEvent, AiChatWidget } from '../../src/element.js';
import { signOut, until } from '../dashboard/helpers.js';
import { online, operatorAndBot } from './handoff-support.js';
import { animationsFinished, baseUrl, clearWidgetStorage, createBot, mount } from './helpers.js';

const part = (el: AiChatWidget, name: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const banner = (el: AiChatWidget) => part(el, 'handoff-status')?.textContent?.trim() ?? '';

/** A visitor who asked for a person that the operator took and answered: the widget, its conversation, its events. */
async function withOperator(user: string) {
  const setup = await operatorAndBot();
  const offline = await online(setup.api, setup.botId);
  const { el, ready } = await mount({ mode: 'inline', 'api-key': setup.secret, 'bot-id': setup.botId, 'base-url': baseUrl, 'user-id': user, storage: 'none' });
  await ready;
  const handoffs: AiChatHandoffEvent[] = [];
  const ratings: AiChatCsatEvent[] = [];
  el.addEventListener('ai-chat-handoff', (e) => handoffs.push(e));
  el.addEventListener('ai-chat-csat', (e) => ratings.push(e));
  await el.send('hello');
  (await until(() => part(el, 'handoff-button'), '"Talk to a person"')).click();
  await until(() => banner(el) === 'Waiting for a person…', 'the waiting banner');
  const conversationId = handoffs[0]!.detail.conversation_id;
  await setup.api.take(conversationId);
  await until(() => banner(el) === `${setup.operator.name} joined`, 'the "joined" banner');
  return { ...setup, el, conversationId, ratings, offline };
}

describe('the satisfaction survey in the widget', () => {
  beforeEach(clearWidgetStorage);
  afterEach(clearWidgetStorage);
  after(signOut);

  it('asks once the operator closed the conversation: stars by keyboard, a comment, ai-chat-csat, stored for that operator, axe', async function () {
    this.timeout(40_000);
    const { api, el, conversationId, ratings, operator, offline } = await withOperator('visitor-csat');
    try {
      expect(part(el, 'csat'), 'no survey while the operator is there').to.equal(null);
      await api.reply(conversationId, 'Your parcel is on its way.');
      await api.closeConversation(conversationId, 'closed');
      const form = await until(() => el.shadowRoot!.querySelector<HTMLFormElement>('form[part~="csat"]'), 'the survey after the close');
      expect(banner(el)).to.equal('The conversation has ended. Send a message to start a new one.');
      expect(form.querySelector('legend')!.textContent!.trim()).to.equal('How would you rate this conversation?');
      const stars = [...form.querySelectorAll<HTMLInputElement>('input[type="radio"][name="rating"]')];
      expect(stars.map((star) => star.getAttribute('aria-label'))).to.deep.equal(['Very bad', 'Bad', 'Okay', 'Good', 'Very good']);
      await expect(el).to.be.accessible();

      // a radio group: focus the first star, the arrow keys move the choice
      stars[0]!.focus();
      await sendKeys({ press: 'Space' });
      for (let i = 0; i < 3; i++) await sendKeys({ press: 'ArrowRight' });
      expect(stars.findIndex((star) => star.checked)).to.equal(3, 'the fourth star is chosen');
      form.querySelector<HTMLTextAreaElement>('textarea')!.focus();
      await sendKeys({ type: 'Quick and kind' });
      form.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();

      const thanks = await until(() => el.shadowRoot!.querySelector('p[part~="csat"]'), 'the thanks');
      expect(thanks.textContent!.trim()).to.equal('Thank you for rating this conversation.');
      expect(thanks.getAttribute('role')).to.equal('status');
      expect(ratings.map((e) => e.detail)).to.deep.equal([{ conversationId, rating: 4, comment: 'Quick and kind' }]);
      expect(ratings[0]!.bubbles && ratings[0]!.composed && ratings[0]!.cancelable).to.equal(true);
      const { data } = await api.client.csat.state(conversationId);
      expect(data.csat).to.include({ rating: 4, comment: 'Quick and kind', user_id: 'visitor-csat', operator_id: operator.id });
      await expect(el).to.be.accessible();
    } finally {
      offline();
    }
  });

  it('a host that cancels ai-chat-csat collects the rating itself: nothing reaches the service', async function () {
    this.timeout(40_000);
    const { api, el, conversationId, ratings, offline } = await withOperator('visitor-csat-host');
    try {
      el.addEventListener('ai-chat-csat', (e) => e.preventDefault());
      await api.closeConversation(conversationId, 'bot'); // given back to the bot: the operator's part ended too
      const form = await until(() => el.shadowRoot!.querySelector<HTMLFormElement>('form[part~="csat"]'), 'the survey after the hand-back');
      form.querySelector<HTMLInputElement>('input[value="2"]')!.click();
      form.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
      await until(() => el.shadowRoot!.querySelector('p[part~="csat"]'), 'the thanks');
      expect(ratings.map((e) => e.detail)).to.deep.equal([{ conversationId, rating: 2, comment: null }]);
      expect((await api.client.csat.state(conversationId)).data.csat).to.equal(null);
    } finally {
      offline();
    }
  });
  it('after_bot: the visitor closes the panel after the bot alone answered; reopened, it asks; stored for no operator', async function () {
    this.timeout(40_000);
    const { api, secret } = await operatorAndBot();
    const botId = await createBot(secret, { name: 'Alone' }); // no handoff: only the bot ever answers
    await api.client.csat.updateSettings(botId, { after_bot: true });
    const { el, ready } = await mount({ 'api-key': secret, 'bot-id': botId, 'base-url': baseUrl, 'user-id': 'visitor-after-bot', storage: 'none' });
    await ready;
    const ratings: AiChatCsatEvent[] = [];
    el.addEventListener('ai-chat-csat', (e) => ratings.push(e));
    await el.open();
    await el.send('hello');
    const conversationId = el.conversationId!;
    expect(part(el, 'csat'), 'no survey while the visitor is chatting').to.equal(null);

    el.close();
    await el.open();
    const form = await until(() => el.shadowRoot!.querySelector<HTMLFormElement>('form[part~="csat"]'), 'the survey after the close');
    expect(form.querySelector('legend')!.textContent!.trim()).to.equal('How would you rate this conversation?');
    await animationsFinished(el);
    await expect(el).to.be.accessible();
    form.querySelector<HTMLInputElement>('input[value="5"]')!.click();
    form.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
    await until(() => el.shadowRoot!.querySelector('p[part~="csat"]'), 'the thanks');
    expect(ratings.map((e) => e.detail)).to.deep.equal([{ conversationId, rating: 5, comment: null }]);
    expect((await api.client.csat.state(conversationId)).data.csat).to.include({ rating: 5, user_id: 'visitor-after-bot', operator_id: null });
  });
});
