// The Channels page against the real service in real Chromium, whose channels talk to the fake
// Telegram, WhatsApp and Slack APIs (service-plugin.mjs): connect (the fields of the platform
// chosen, Slack's too, secrets never shown again), the webhook URL with its copy button and steps,
// health, a test message followed until Telegram took it, the service's refusals next to the form,
// Telegram's webhook removed and registered, change credentials, disconnect (asked first), the
// bot list of `#/channels`, the keyboard, axe.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/dashboard/pages/channels-page.js';
import type { AicdChannelsPage } from '../../src/dashboard/pages/channels-page.js';
import { button, confirmDialog, deep, deepActiveElement, deepAll, deepText, fill, newTenant, tabTo, until, type Tenant } from './helpers.js';

/** The fake Telegram's one token (server/test/support/fake-telegram.ts): that module needs Node, so it is repeated here. */
const TELEGRAM_TOKEN = '123456789:AAFakeTelegramTokenForTests_0123456789';
/** The fake Slack app (server/test/support/fake-slack.ts). */
const SLACK = { bot_token: 'xoxb-1234567890-0987654321-FakeSlackBotTokenForTests', signing_secret: '8f742231b10e8888abcd99yyyzzz85a5' };
/** The fake WhatsApp account (server/test/support/fake-whatsapp.ts). */
const WHATSAPP = { phone_number_id: '106540352242922', access_token: 'EAAFakeWhatsAppAccessTokenForTests', app_secret: '0123456789abcdef0123456789abcdef', verify_token: 'verify-me-please' };

async function mount(tenant: Tenant, botId: string): Promise<AicdChannelsPage> {
  const el = await fixture<AicdChannelsPage>(html`<aicd-channels-page .client=${tenant.client} .botId=${botId}></aicd-channels-page>`);
  await until(() => deep(el, 'form[aria-labelledby="connect-title"]'), 'the page');
  return el;
}

async function newBot(tenant: Tenant, name = 'Shop'): Promise<string> {
  return (await tenant.client.bots.create({ name })).data.id;
}

async function connect(el: AicdChannelsPage, platform: string, values: Record<string, string>): Promise<void> {
  await fill(el, 'platform', platform);
  for (const [name, value] of Object.entries(values)) await fill(el, name, value);
  button(el, 'Connect')!.click();
}

const section = (el: AicdChannelsPage, label: string) => deepAll(el, 'section.channel').find((s) => s.querySelector('h2')?.textContent === label);
const status = (el: AicdChannelsPage) => el.shadowRoot!.querySelector('p[role="status"]')!.textContent!;

describe('aicd-channels-page', () => {
  it('connects Telegram: only its fields, then the webhook URL with a copy button and the steps; the token never shown; axe finds nothing', async () => {
    const tenant = await newTenant();
    const botId = await newBot(tenant);
    const el = await mount(tenant, botId);
    expect(deepText(el)).to.contain('Not on any platform yet');
    await expect(el).to.be.accessible();

    await fill(el, 'platform', 'telegram');
    expect(deepAll<HTMLInputElement>(el, 'form[aria-labelledby="connect-title"] input').map((i) => [i.name, i.type])).to.deep.equal([['bot_token', 'password']]);
    await fill(el, 'platform', 'whatsapp');
    expect(deepAll<HTMLInputElement>(el, 'form[aria-labelledby="connect-title"] input').map((i) => i.name)).to.deep.equal(['phone_number_id', 'access_token', 'app_secret', 'verify_token']);
    await expect(el).to.be.accessible();

    await connect(el, 'telegram', { bot_token: TELEGRAM_TOKEN });
    const telegram = await until(() => section(el, 'Telegram'), 'the Telegram channel');
    const [stored] = (await tenant.client.channels.list(botId)).data.items;
    expect(telegram.querySelector('pre code')!.textContent).to.equal(`${location.origin}/v1/channels/telegram/${stored!.id}`);
    expect(telegram.querySelector('aicd-copy-button')!.text).to.equal(stored!.webhook_url);
    // The steps are named as the repository's file: the service knows no public URL of its docs.
    expect([...telegram.querySelectorAll('code.doc')].map((c) => c.textContent)).to.include('docs/channels/telegram.md');
    expect(telegram.textContent).to.contain('Bot token: saved');
    expect(status(el)).to.contain('Telegram is connected');
    // Write-only: the token is nowhere on the page, not even in a control's value.
    expect(deepText(el)).not.to.contain(TELEGRAM_TOKEN);
    expect(deepAll<HTMLInputElement>(el, 'input').some((i) => i.value === TELEGRAM_TOKEN)).to.equal(false);
    await expect(el).to.be.accessible();
  });

  it('sends a test message through the outbox and shows when Telegram took it; without a recipient, the service’s reason next to the form', async () => {
    const tenant = await newTenant();
    const botId = await newBot(tenant);
    await tenant.client.channels.connect(botId, 'telegram', { bot_token: TELEGRAM_TOKEN });
    const el = await mount(tenant, botId);
    const telegram = await until(() => section(el, 'Telegram'), 'the Telegram channel');

    button(el, 'Send test message')!.click();
    const alert = await until(() => telegram.querySelector('fieldset [role="alert"]'), 'the refusal');
    expect(alert.textContent).to.contain('Nobody has written to this channel yet');

    await fill(el, 'test-chat-telegram', '4242');
    await fill(el, 'test-text-telegram', 'Hello from the dashboard');
    button(el, 'Send test message')!.click();
    await until(() => telegram.querySelector('fieldset [role="status"]')!.textContent!.includes('Sent to 4242'), 'the test message sent');
    expect(Boolean(telegram.querySelector('fieldset [role="alert"]')), 'an alert left').to.equal(false);
    // The health follows: the page reloads the channel once the message was taken.
    await until(() => section(el, 'Telegram')!.querySelector('dl')!.textContent!.match(/Last reply sent\s*(?!—)\S/), 'the last reply in the health');
    expect((await tenant.client.channels.get(botId, 'telegram')).data.health.last_sent_at).to.be.a('string');
    await expect(el).to.be.accessible();
  });

  it('shows the service’s refusal of a token next to the form and saves nothing', async () => {
    const tenant = await newTenant();
    const botId = await newBot(tenant);
    const el = await mount(tenant, botId);
    await connect(el, 'telegram', { bot_token: 'not a token' });
    const fieldError = await until(() => deep(el, '#f-bot_token-error'), 'the field error');
    expect(fieldError.textContent).to.match(/pattern|match/i);
    expect(deep(el, '#f-bot_token')!.getAttribute('aria-invalid')).to.equal('true');

    await fill(el, 'bot_token', '987654321:AAAnotherTokenTheFakeDoesNotKnow_01');
    button(el, 'Connect')!.click();
    const alert = await until(() => deepAll(el, 'form [role="alert"]').find((p) => /Telegram did not set the webhook/.test(p.textContent!)), 'the refusal');
    expect(alert.textContent).to.contain('Unauthorized');
    expect((await tenant.client.channels.list(botId)).data.items).to.deep.equal([]);
    await expect(el).to.be.accessible();
  });

  it('removes and registers Telegram’s webhook', async () => {
    const tenant = await newTenant();
    const botId = await newBot(tenant);
    await tenant.client.channels.connect(botId, 'telegram', { bot_token: TELEGRAM_TOKEN });
    const el = await mount(tenant, botId);
    await until(() => section(el, 'Telegram'), 'the Telegram channel');
    button(el, 'Remove webhook')!.click();
    await until(() => status(el).includes('no longer delivers'), 'the removal');
    button(el, 'Register webhook')!.click();
    await until(() => status(el).includes('has the webhook'), 'the registration');
  });

  it('connects WhatsApp, changes one credential keeping the rest, and disconnects after asking', async () => {
    const tenant = await newTenant();
    const botId = await newBot(tenant);
    const el = await mount(tenant, botId);
    await connect(el, 'whatsapp', WHATSAPP);
    const whatsapp = await until(() => section(el, 'WhatsApp'), 'the WhatsApp channel');
    expect(whatsapp.textContent).to.contain(`Phone number ID: ${WHATSAPP.phone_number_id}`);
    for (const label of ['Access token', 'App secret', 'Verify token']) expect(whatsapp.textContent).to.contain(`${label}: saved`);
    expect(whatsapp.querySelector('aicd-copy-button')!.label).to.equal('Copy the WhatsApp webhook URL');
    expect(whatsapp.textContent).to.contain('Meta’s console');
    expect(Boolean(button(el, 'Remove webhook')), 'Remove webhook').to.equal(false); // Meta has no API for it
    for (const secret of [WHATSAPP.access_token, WHATSAPP.app_secret, WHATSAPP.verify_token]) expect(deepText(el)).not.to.contain(secret);

    button(el, 'Change credentials of WhatsApp')!.click();
    await until(() => deep(el, '#connect-title')?.textContent === 'Change the WhatsApp credentials', 'the form for WhatsApp');
    expect(deep<HTMLInputElement>(el, '[name="phone_number_id"]')!.value).to.equal(WHATSAPP.phone_number_id);
    expect(deep<HTMLInputElement>(el, '[name="access_token"]')!.value).to.equal('');
    await fill(el, 'verify_token', 'a-new-verify-token');
    button(el, 'Save')!.click();
    await until(() => status(el).includes('WhatsApp: the credentials are saved'), 'the save');
    expect((await tenant.client.channels.get(botId, 'whatsapp')).data.secrets_set).to.deep.equal({ access_token: true, app_secret: true, verify_token: true });

    button(el, 'Disconnect WhatsApp')!.click();
    await confirmDialog(el);
    await until(() => status(el).includes('WhatsApp is disconnected'), 'the disconnection');
    expect(Boolean(section(el, 'WhatsApp')), 'the WhatsApp section').to.equal(false);
    expect((await tenant.client.channels.list(botId)).data.items).to.deep.equal([]);
  });

  it('offers Slack from the platform table: its two fields, then its request URL to paste', async () => {
    const tenant = await newTenant();
    const botId = await newBot(tenant);
    const el = await mount(tenant, botId);
    await fill(el, 'platform', 'slack');
    expect(deepAll<HTMLInputElement>(el, 'form[aria-labelledby="connect-title"] input').map((i) => [i.name, i.type])).to.deep.equal([['bot_token', 'password'], ['signing_secret', 'password']]);
    await connect(el, 'slack', SLACK);
    const slack = await until(() => section(el, 'Slack'), 'the Slack channel');
    expect(slack.querySelector('pre code')!.textContent).to.match(new RegExp(`^${location.origin}/v1/channels/slack/chn_`));
    expect(slack.textContent).to.contain('Event Subscriptions');
    expect(slack.textContent).to.contain('Signing secret: saved');
    for (const secret of Object.values(SLACK)) expect(deepText(el)).not.to.contain(secret);
    await expect(el).to.be.accessible();
  });

  it('is usable from the keyboard: Tab reaches the platform, the fields and Connect', async () => {
    const tenant = await newTenant();
    const el = await mount(tenant, await newBot(tenant));
    const select = deep<HTMLSelectElement>(el, '[name="platform"]')!;
    expect(await tabTo(select)).to.equal(true);
    await fill(el, 'platform', 'telegram');
    expect(await tabTo(deep(el, '[name="bot_token"]')!)).to.equal(true);
    expect(deepActiveElement() === deep(el, '[name="bot_token"]')).to.equal(true);
    expect(await tabTo(button(el, 'Connect')!)).to.equal(true);
  });

  it('without a bot, lists the bots, each linking to its channels', async () => {
    const tenant = await newTenant();
    const botId = await newBot(tenant, 'Support');
    const el = await fixture<AicdChannelsPage>(html`<aicd-channels-page .client=${tenant.client}></aicd-channels-page>`);
    const link = await until(() => deep<HTMLAnchorElement>(el, 'tbody a'), 'the bot list');
    expect(link.getAttribute('href')).to.equal(`#/bots/${botId}/channels`);
    expect(link.textContent).to.equal('Channels of Support');
    await expect(el).to.be.accessible();
  });
});
