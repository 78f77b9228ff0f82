// The message limit: a paste longer than the service accepts is kept whole, not
// cut at the textarea's maxlength; a counter shows the count and the limit before the limit is
// reached; over the limit the text cannot be sent and the status line says why. The limit is the
// real service's: 4,000 characters (code points) go through, 4,001 are refused.
import { expect, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { AiChatWidget } from '../../src/element.js';
import { $, clearWidgetStorage, createBot, mount, newApiKey, typeText } from './helpers.js';

/** Pastes `text` into the focused textarea the way the browser does (insertText honours maxlength). */
async function paste(el: AiChatWidget, text: string): Promise<void> {
  const input = $<HTMLTextAreaElement>(el, 'textarea');
  input.focus();
  input.select();
  document.execCommand('insertText', false, text);
  await el.updateComplete;
}

const counter = (el: AiChatWidget) => el.shadowRoot!.querySelector<HTMLElement>('[part~="counter"]');
const status = (el: AiChatWidget) => $(el, '[part~="status"]').textContent!.replace(/\s+/g, ' ').trim();

describe('message length limit', () => {
  let apiKey: string;
  let botId: string;
  before(async () => {
    apiKey = await newApiKey();
    botId = await createBot(apiKey);
  });
  beforeEach(clearWidgetStorage);

  it('keeps a paste over the limit whole, shows count and limit, and refuses to send it', async () => {
    const { el, ready } = await mount({ mode: 'inline', 'api-key': apiKey, 'bot-id': botId, storage: 'none' });
    await ready;
    const input = $<HTMLTextAreaElement>(el, 'textarea');
    const send = $<HTMLButtonElement>(el, '[part~="send-button"]');

    await paste(el, 'x'.repeat(4500));
    expect(input.value.length, 'the paste was cut').to.equal(4500);
    expect(counter(el)!.textContent!.trim()).to.equal('4,500 / 4,000 characters');
    expect(counter(el)!.classList.contains('over')).to.equal(true);
    expect(status(el)).to.equal('Too long to send. Shorten the message to 4,000 characters.');
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    expect(input.getAttribute('aria-describedby')).to.equal('counter');
    expect(send.disabled).to.equal(true);
    let sent = 0;
    el.addEventListener('ai-chat-message-sent', () => sent++);
    await sendKeys({ press: 'Enter' });
    expect(sent).to.equal(0);
    expect(input.value.length).to.equal(4500);
    await expect(el).to.be.accessible();

    // under the limit but near it: the counter is there before the limit is reached
    await typeText(el, 'y'.repeat(3500));
    expect(counter(el)!.textContent!.trim()).to.equal('3,500 / 4,000 characters');
    expect(counter(el)!.classList.contains('over')).to.equal(false);
    expect(input.hasAttribute('aria-invalid')).to.equal(false);
    expect(status(el)).to.equal('');
    expect(send.disabled).to.equal(false);

    // far from it: no counter
    await typeText(el, 'hello');
    expect(counter(el)).to.equal(null);
    expect(input.hasAttribute('aria-describedby')).to.equal(false);
  });

  it('counts as the service does: 4,000 characters (emoji count once) are sent, 4,001 are refused', async () => {
    const { el, ready } = await mount({ mode: 'inline', 'api-key': apiKey, 'bot-id': botId, storage: 'none' });
    await ready;
    // 4,000 code points, 8,000 UTF-16 units: within the limit for the widget and the service
    await paste(el, '😀'.repeat(4000));
    expect(counter(el)!.textContent!.trim()).to.equal('4,000 / 4,000 characters');
    expect($<HTMLButtonElement>(el, '[part~="send-button"]').disabled).to.equal(false);
    const received = oneEvent(el, 'ai-chat-message-received');
    await sendKeys({ press: 'Enter' });
    await received;
    expect(el.messages[0]).to.include({ role: 'user', status: 'sent' });
    expect(el.messages[0].content).to.have.length(8000);

    // one more is over the service's limit too (the API path has no counter to stop it)
    const failed = oneEvent(el, 'ai-chat-error');
    expect(await el.send('z'.repeat(4001))).to.equal(null);
    expect((await failed).detail).to.include({ code: 'validation_failed', status: 400 });
  });

  it('formats the counter for the widget language', async () => {
    const { el } = await mount({ mode: 'inline', lang: 'de', 'api-key': apiKey, 'bot-id': botId, storage: 'none' });
    await paste(el, 'x'.repeat(4321));
    expect(counter(el)!.textContent!.trim()).to.equal('4.321 / 4.000 Zeichen');
    expect(status(el)).to.equal('Zu lang zum Senden. Kürzen Sie die Nachricht auf 4.000 Zeichen.');
  });
});
