// The bot editor's handoff settings against the real service in real Chromium: the section loads
// the bot's settings, refuses what it can judge at the field, saves through PUT /v1/bots/{id}/handoff
// (intents chosen from the bot's own, opening hours per weekday in a chosen time zone), shows them
// again on the next visit, and axe finds nothing.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/dashboard/pages/bot-editor.js';
import '../../src/dashboard/pages/bot-handoff.js';
import type { AicdBotEditor } from '../../src/dashboard/pages/bot-editor.js';
import type { AicdBotHandoff } from '../../src/dashboard/pages/bot-handoff.js';
import { button, deep, deepActiveElement, fill, newTenant, until, type Tenant } from './helpers.js';

async function newBot(tenant: Tenant): Promise<string> {
  const { data } = await tenant.client.bots.create({
    name: 'Shop',
    training: {
      intents: [
        { name: 'greeting', examples: ['hello', 'hi there'], responses: ['Hello!'] },
        { name: 'complaint', examples: ['this is broken', 'I want a refund'], responses: ['Sorry to hear that.'] },
      ],
    },
  });
  return data.id;
}

/** The bot's page, once its handoff section has loaded the settings. */
async function mountHandoff(tenant: Tenant, botId: string): Promise<AicdBotHandoff> {
  const editor = await fixture<AicdBotEditor>(
    html`<aicd-bot-editor .client=${tenant.client} .botId=${botId} .previewBaseUrl=${tenant.baseUrl} .csrfToken=${tenant.token}></aicd-bot-editor>`,
  );
  const section = await until(() => deep<AicdBotHandoff>(editor, 'aicd-bot-handoff'), 'the handoff section');
  await until(() => section.shadowRoot!.querySelector('form'), 'the handoff form');
  return section;
}

const control = <E extends HTMLElement = HTMLInputElement>(el: AicdBotHandoff, selector: string) => el.shadowRoot!.querySelector<E>(selector)!;

async function check(el: AicdBotHandoff, selector: string): Promise<void> {
  control(el, selector).click();
  await el.updateComplete;
}

async function save(el: AicdBotHandoff, notice: string): Promise<void> {
  button(el, 'Save handoff settings')!.click();
  await until(() => el.shadowRoot!.querySelector('.toolbar [role="status"]')!.textContent === notice, `"${notice}"`);
}

describe('aicd-bot-handoff', () => {
  it('saves handoff on, after N fallbacks, on the bot\'s own intents, with weekly hours in a time zone', async () => {
    const tenant = await newTenant();
    const botId = await newBot(tenant);
    const el = await mountHandoff(tenant, botId);
    expect(control(el, 'input[name="enabled"]').checked).to.equal(false);
    const intents = [...el.shadowRoot!.querySelectorAll<HTMLInputElement>('input[name="intents"]')].map((box) => box.value);
    expect(intents).to.deep.equal(['greeting', 'complaint']);

    await check(el, 'input[name="enabled"]');
    await fill(el, 'after_fallbacks', '3');
    await check(el, 'input[name="intents"][value="complaint"]');
    await check(el, 'input[name="use-hours"]');
    await fill(el, 'hours.time_zone', 'Europe/Berlin');
    button(el, 'Add hours on Tuesday')!.click();
    await el.updateComplete;
    button(el, 'Add hours on Monday')!.click();
    await el.updateComplete;
    await fill(el, 'hours.weekly.1.from', '10:00'); // Tuesday's, after Monday's in week order
    await fill(el, 'hours.weekly.1.to', '12:30');
    await expect(el).to.be.accessible();
    await save(el, 'Handoff settings saved.');

    const { data } = await tenant.client.handoff.settings(botId);
    expect(data).to.deep.include({
      enabled: true,
      after_fallbacks: 3,
      intents: ['complaint'],
      hours: {
        time_zone: 'Europe/Berlin',
        weekly: [
          { day: 'mon', from: '09:00', to: '17:00' },
          { day: 'tue', from: '10:00', to: '12:30' },
        ],
      },
    });

    // the next visit shows what was saved
    const again = await mountHandoff(tenant, botId);
    expect(control(again, 'input[name="enabled"]').checked).to.equal(true);
    expect(control(again, 'input[name="after_fallbacks"]').value).to.equal('3');
    expect(control(again, 'input[name="intents"][value="complaint"]').checked).to.equal(true);
    expect(control<HTMLSelectElement>(again, 'select[name="hours.time_zone"]').value).to.equal('Europe/Berlin');
    expect(control(again, 'input[name="hours.weekly.1.to"]').value).to.equal('12:30');
  });

  it('shows problems at their fields, focuses the first, and saves nothing', async () => {
    const tenant = await newTenant();
    const botId = await newBot(tenant);
    const el = await mountHandoff(tenant, botId);
    await check(el, 'input[name="enabled"]');
    await fill(el, 'after_fallbacks', '25');
    await check(el, 'input[name="use-hours"]');
    button(el, 'Add hours on Friday')!.click();
    await el.updateComplete;
    await fill(el, 'hours.weekly.0.to', '08:00');
    await save(el, 'Not saved.');

    const fallbacks = control(el, 'input[name="after_fallbacks"]');
    expect(fallbacks.getAttribute('aria-invalid')).to.equal('true');
    expect(el.shadowRoot!.getElementById(fallbacks.getAttribute('aria-describedby')!.split(' ').at(-1)!)!.textContent).to.include('from 1 to 20');
    const closes = control(el, 'input[name="hours.weekly.0.to"]');
    expect(closes.getAttribute('aria-invalid')).to.equal('true');
    expect(deepActiveElement()).to.equal(fallbacks);
    await expect(el).to.be.accessible();
    expect((await tenant.client.handoff.settings(botId)).data.enabled).to.equal(false);
  });
});
