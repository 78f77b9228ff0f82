// The webhooks page against the real service in real Chromium: subscribe (the secret shown once),
// the delivery log of a test event, redeliver, disable, delete, a private target refused, axe.
// Deliveries go to this dev server's own address (the test service allows loopback targets).
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/dashboard/pages/webhooks-page.js';
import type { AicdWebhooksPage } from '../../src/dashboard/pages/webhooks-page.js';
import { button, confirmDialog, deep, deepAll, fill, newTenant, until, type Tenant } from './helpers.js';

async function mount(tenant: Tenant): Promise<AicdWebhooksPage> {
  const el = await fixture<AicdWebhooksPage>(html`<aicd-webhooks-page .client=${tenant.client}></aicd-webhooks-page>`);
  await until(() => deep(el, 'table') || el.shadowRoot!.textContent!.includes('No webhooks yet'), 'the list');
  return el;
}

const sink = () => `${location.origin}/__webhook-sink`;

async function subscribe(el: AicdWebhooksPage, url: string): Promise<void> {
  await fill(el, 'url', url);
  deep<HTMLInputElement>(el, 'input[value="feedback.given"]')!.click();
  button(el, 'Subscribe')!.click();
}

describe('aicd-webhooks-page', () => {
  it('subscribes a URL and shows its signing secret once, with a copy button; axe finds nothing', async () => {
    const tenant = await newTenant();
    const el = await mount(tenant);
    await expect(el).to.be.accessible();
    await subscribe(el, sink());
    const secret = await until(() => deep(el, '.secret pre')?.textContent, 'the secret');
    expect(secret).to.match(/^whsec_[A-Za-z0-9+/=]{44}$/);
    expect(deep(el, '.secret aicd-copy-button')).to.exist;
    await expect(el).to.be.accessible();
    const [stored] = (await tenant.client.webhooks.list()).data.items;
    expect(stored!.events).to.deep.equal(['message.created', 'feedback.given']);
    expect(JSON.stringify(stored)).not.to.contain('whsec_');
    button(el, 'I have copied it')!.click();
    await el.updateComplete;
    expect(el.shadowRoot!.textContent).not.to.contain(secret);
  });

  it('sends a test event, shows it in the delivery log, redelivers it, disables and deletes the webhook', async () => {
    const tenant = await newTenant();
    const el = await mount(tenant);
    await subscribe(el, sink());
    await until(() => deepAll(el, 'tbody tr').length === 1, 'the row');
    const url = sink();

    button(el, `Send test event to ${url}`)!.click();
    // The service's worker sends it in the background: refresh the log until it shows the try.
    const tried = (attempts: number) =>
      until(() => {
        const cells = deepAll(el, 'section tbody tr td').map((td) => td.textContent!.trim());
        if (cells[0]?.startsWith('webhook.test') && Number(cells[2]) >= attempts && /\d{3}/.test(cells[3] ?? '')) return cells;
        button(el, 'Refresh')?.click();
        return undefined;
      }, `try ${attempts} in the log`);
    const first = await tried(1);
    expect(first[3]).to.match(/^\d{3}/); // the dev server's answer to the POST
    await expect(el).to.be.accessible();

    button(el, /^Redeliver webhook\.test/)!.click();
    await tried(2);
    const [hook] = (await tenant.client.webhooks.list()).data.items;
    const [delivery] = (await tenant.client.webhooks.deliveries(hook!.id)).data.items;
    expect(delivery!.attempts).to.be.at.least(2);

    button(el, `Disable ${url}`)!.click();
    await until(() => deep(el, 'tbody tr td:nth-child(3)')?.textContent!.includes('Disabled'), 'the disabled state');
    expect(button(el, `Send test event to ${url}`)!.disabled).to.equal(true);
    expect((await tenant.client.webhooks.list()).data.items[0]!.enabled).to.equal(false);

    button(el, `Delete ${url}`)!.click();
    await confirmDialog(el);
    await until(() => el.shadowRoot!.textContent!.includes('No webhooks yet'), 'the row to go');
    expect((await tenant.client.webhooks.list()).data.items).to.deep.equal([]);
  });

  it('shows the service’s refusal of a private address', async () => {
    const el = await mount(await newTenant());
    await subscribe(el, 'http://10.0.0.1/hook');
    const alert = await until(() => deepAll(el, '[role="alert"]').find((p) => /private/.test(p.textContent!)), 'the refusal');
    expect(alert.textContent).to.contain('10.0.0.1');
    expect(deepAll(el, 'tbody tr')).to.have.length(0);
    await expect(el).to.be.accessible();
  });
});
