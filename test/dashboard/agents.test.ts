// The agents page against the real service in real Chromium: create an agent, train it and follow
// the job to its metrics, a field-level validation error, hostile names as text, axe, keyboard.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/dashboard/pages/agents-page.js';
import type { AicdAgentsPage } from '../../src/dashboard/pages/agents-page.js';
import { button, confirmDialog, deep, deepAll, fill, HOSTILE, newTenant, tabTo, until, type Tenant } from './helpers.js';

async function mount(tenant: Tenant): Promise<AicdAgentsPage> {
  const el = await fixture<AicdAgentsPage>(html`<aicd-agents-page .client=${tenant.client}></aicd-agents-page>`);
  await until(() => deep(el, 'table') || el.shadowRoot!.textContent!.includes('No agents'), 'the first page');
  return el;
}

const submit = (el: Element) => deepAll<HTMLButtonElement>(el, 'form.editor button[type="submit"]')[0]!.click();

describe('aicd-agents-page', () => {
  it('creates an agent, trains it and shows the job’s progress, then its metrics', async () => {
    const tenant = await newTenant();
    const el = await mount(tenant);
    button(el, 'New agent')!.click();
    await el.updateComplete;
    await fill(el, 'name', 'Support agent');
    await fill(el, 'instructions', 'Answer briefly.');
    await fill(el, 'examples.0.input', 'what are your opening hours');
    await fill(el, 'examples.0.output', 'We are open 9 to 5.');
    for (const [i, input, output] of [
      [1, 'when do you open', 'We are open 9 to 5.'],
      [2, 'how much does it cost', 'Plans start at 10 euros.'],
      [3, 'what is the price', 'Plans start at 10 euros.'],
    ] as const) {
      button(el, 'Add example')!.click();
      await el.updateComplete;
      await fill(el, `examples.${i}.input`, input);
      await fill(el, `examples.${i}.output`, output);
    }
    submit(el);
    await until(() => deepAll(el, 'tbody td').some((td) => td.textContent === 'Support agent'), 'the new row');
    const [agent] = (await tenant.client.agents.list()).data.items;
    expect(agent!.examples).to.have.length(4);

    button(el, 'Train')!.click();
    // The job is shown while it runs (queued or running, with a progress bar) or already finished.
    const status = await until(() => deep(el, '.job-status'), 'the job status');
    expect(['queued', 'running', 'succeeded']).to.include(status.textContent);
    await until(() => deep(el, '.job-status')?.textContent === 'succeeded', 'the job to succeed', 20_000);
    const metrics = Object.fromEntries(deepAll(el, '.metrics tr').map((tr) => [tr.querySelector('th')!.textContent, tr.querySelector('td')!.textContent]));
    expect(metrics.Intents).to.equal('2');
    expect(metrics.Examples).to.equal('4');
    expect(deep(el, 'progress')?.outerHTML).to.equal(undefined);
    const row = () => deepAll<HTMLTableRowElement>(el, 'tbody tr').find((tr) => tr.cells[0]!.textContent === 'Support agent');
    await until(() => row()?.cells[1]!.textContent === 'ready', 'the list to show the trained agent as ready');
    const job = (await tenant.client.agents.jobs(agent!.id)).data.items[0]!;
    expect(job.status).to.equal('succeeded');
    expect(deep(el, '.training [role="status"]')!.textContent).to.include(job.id);
  });

  it('shows the service’s validation error at the field it names', async () => {
    const el = await mount(await newTenant());
    button(el, 'New agent')!.click();
    await el.updateComplete;
    await fill(el, 'name', 'Ok name');
    await fill(el, 'instructions', 'x'.repeat(8001)); // the service allows 8,000 characters
    submit(el);
    const field = await until(() => deep<HTMLTextAreaElement>(el, 'textarea[name="instructions"][aria-invalid="true"]'), 'instructions marked invalid');
    expect(deep(el, '#f-instructions-error')!.textContent).to.match(/instructions/);
    expect(deep(el, 'input[name="name"]')!.getAttribute('aria-invalid')).to.equal('false');
    expect(field.getAttribute('aria-describedby')).to.include('f-instructions-error');
  });

  it('renders hostile names as text and deletes after confirming', async () => {
    const tenant = await newTenant();
    await tenant.client.agents.create({ name: HOSTILE.slice(0, 100) });
    const el = await mount(tenant);
    expect(deepAll(el, 'tbody td')[0]!.textContent).to.equal(HOSTILE.slice(0, 100));
    expect(deepAll(el, 'img, script:not([src]), b')).to.deep.equal([]);
    expect(globalThis.__pwned).to.equal(0);
    deepAll<HTMLButtonElement>(el, 'tbody button.danger')[0]!.click();
    await confirmDialog(el);
    await until(() => el.shadowRoot!.textContent!.includes('No agents'), 'the empty list');
    expect((await tenant.client.agents.list()).data.items).to.deep.equal([]);
  });

  it('is accessible with the form open, and reachable by keyboard', async () => {
    const tenant = await newTenant();
    await tenant.client.agents.create({ name: 'Helper', examples: [{ input: 'hi', output: 'Hello!' }] });
    const el = await mount(tenant);
    await expect(el).to.be.accessible();
    button(el, 'Edit Helper')!.click();
    await until(() => deep<HTMLInputElement>(el, 'input[name="name"]')?.value === 'Helper', 'the form');
    await expect(el).to.be.accessible();
    expect(await tabTo(button(el, 'Train')!)).to.equal(true);
  });
});
