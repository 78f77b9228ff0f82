// Answering a message left while nobody was online, from the inbox page in real Chromium against the
// real service (its email goes to a local SMTP test server, see test/support/service-plugin.mjs):
// the operator opens the reply form by keyboard, sends, and the list shows the message answered by
// them; the visitor's address got the email. Without SMTP on the service (503), the form says so
// and offers a mailto: link instead. axe finds nothing in either state.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { ApiError, type OfflineMessage } from '../../src/client/index.js';
import { DashboardApi } from '../../src/dashboard/api.js';
import '../../src/dashboard/pages/inbox-offline.js';
import '../../src/dashboard/pages/inbox-page.js';
import type { AicdInboxPage } from '../../src/dashboard/pages/inbox-page.js';
import { button, deep, deepText, signOut, tabTo, until } from './helpers.js';

interface Mail {
  to: string[];
  body: string;
}

const mails = async (): Promise<Mail[]> => (await (await fetch('/__test__/mails')).json()).items;

describe('aicd-offline-messages', () => {
  after(signOut);

  it('the operator answers an offline message by email and the list shows it answered by them', async () => {
    const api = new DashboardApi();
    const email = `answering.${Date.now()}@example.test`;
    await api.signUp({ email, password: 'correct horse battery', account_name: 'Answering' });
    const { data: bot } = await api.client.bots.create({ name: 'Shop' });
    await api.client.handoff.updateSettings(bot.id, { enabled: true });
    const { data: first } = await api.client.bots.sendMessage(bot.id, { message: 'hello', user_id: 'late-visitor' });
    const visitor = `late.${Date.now()}@example.test`;
    await api.client.handoff.leaveOfflineMessage(first.conversation_id, { email: visitor, message: 'Do you ship to Iceland?', user_id: 'late-visitor' });

    const el = await fixture<AicdInboxPage>(html`<aicd-inbox-page .api=${api}></aicd-inbox-page>`);
    const open = await until(() => button(el, `Reply by email to ${visitor}`), 'the Reply by email button');
    expect(await tabTo(open)).to.equal(true);
    await sendKeys({ press: 'Enter' });
    const text = await until(() => deep<HTMLTextAreaElement>(el, 'form.reply-form textarea[name="text"]'), 'the reply form');
    expect(deep<HTMLInputElement>(el, 'form.reply-form input[name="subject"]')!.value).to.equal('Re: Do you ship to Iceland?');
    await expect(el).to.be.accessible();
    await until(() => (text.getRootNode() as ShadowRoot).activeElement === text, 'the focus in the message box');
    await sendKeys({ type: 'Yes, in 5 days.' });
    button(el, 'Send')!.click();

    const name = email.split('@')[0]!;
    await until(() => deepText(el).includes(`Answered by ${name} at`), 'the message answered by the operator');
    expect(button(el, `Reply by email to ${visitor}`)?.outerHTML).to.equal(undefined);
    const mail = (await mails()).find((m) => m.to.includes(visitor));
    expect(mail?.body).to.include('Yes, in 5 days.');
    expect(mail?.body).to.match(/^Subject: Re: Do you ship to Iceland\?/m);
    await expect(el).to.be.accessible();
  });

  it('without email on the service, says so and offers a mailto: link', async () => {
    const message: OfflineMessage = {
      id: 'ofm_nosmtp000001', conversation_id: 'conv_nosmtp00001', bot_id: null, user_id: 'v', email: 'v@example.test',
      message: 'Call me', created_at: new Date().toISOString(), answered_at: null, answered_by: null,
    };
    // the service's answer without AI_CHAT_SMTP_URL (this test server has SMTP)
    const refusing = {
      answerOfflineMessage: () => Promise.reject(new ApiError({ status: 503, code: 'email_not_configured', message: 'This service sends no email.' })),
    } as unknown as DashboardApi;
    const el = await fixture(html`<aicd-offline-messages .api=${refusing} .messages=${[message]}></aicd-offline-messages>`);
    button(el, 'Reply by email to v@example.test')!.click();
    const text = await until(() => deep<HTMLTextAreaElement>(el, 'textarea[name="text"]'), 'the reply form');
    text.value = 'Hello';
    button(el, 'Send')!.click();
    const link = await until(() => deep<HTMLAnchorElement>(el, 'a[href^="mailto:"]'), 'the mailto: link');
    expect(link.href).to.equal('mailto:v%40example.test?subject=Re%3A%20Call%20me');
    expect(deep(el, '[role="alert"]')!.textContent).to.include('sends no email');
    await expect(el).to.be.accessible();
  });
});
