// The bot owner sees quality, against the real service in real Chromium: the quality report after
// training (a confused pair, a mislabelled example), "try it", an editor for many intents (search,
// collapse), intents exported as CSV and imported into another bot, an import's error with its line,
// an unanswered question added to an intent from the overview, and axe on all of it.
import { expect, fixture, html } from '@open-wc/testing';
import type { CreateBotRequest, Intent } from '../../src/client/index.js';
import '../../src/dashboard/pages/bot-editor.js';
import type { AicdBotEditor } from '../../src/dashboard/pages/bot-editor.js';
import type { ExportFile } from '../../src/dashboard/pages/conversation-export.js';
import '../../src/dashboard/pages/agents-page.js';
import type { AicdAgentsPage } from '../../src/dashboard/pages/agents-page.js';
import '../../src/dashboard/pages/overview-page.js';
import type { AicdOverviewPage } from '../../src/dashboard/pages/overview-page.js';
import { button, deep, deepAll, deepText, fill, newTenant, until, type Tenant } from './helpers.js';

/** Six help-desk topics; a shipping question filed under refund makes the two overlap. */
const HELP_DESK: Intent[] = [
  { name: 'reset_password', examples: ['I forgot my password', 'how do I reset my password', 'reset password please', 'cannot log in, need a new password', 'change my password', 'password reset link'], responses: ['Use the reset link.'] },
  { name: 'refund', examples: ['I want a refund', 'can I get my money back', 'refund my order', 'how do refunds work', 'return and refund policy', 'request a refund for my purchase', 'how long does delivery take to my country'], responses: ['Refunds take 5 days.'] },
  { name: 'shipping', examples: ['when will my package arrive', 'how long does shipping take', 'track my delivery', 'shipping costs', 'where is my parcel', 'delivery time to Canada'], responses: ['Shipping takes 3 days.'] },
  { name: 'opening_hours', examples: ['what are your opening hours', 'when are you open', 'are you open on sunday', 'what time do you close', 'store hours', 'opening times this weekend'], responses: ['We are open 9 to 5.'] },
  { name: 'cancel_subscription', examples: ['cancel my subscription', 'how do I unsubscribe', 'stop my monthly plan', 'end my membership', 'I want to cancel the plan', 'terminate subscription'], responses: ['Cancel in settings.'] },
  { name: 'talk_to_human', examples: ['talk to a human', 'can I speak to an agent', 'connect me with support staff', 'I need a real person', 'customer service representative', 'call me back please'], responses: ['Connecting you.'] },
];

async function createBot(tenant: Tenant, body: CreateBotRequest): Promise<string> {
  return (await tenant.client.bots.create(body)).data.id;
}

async function mountEditor(tenant: Tenant, botId: string): Promise<AicdBotEditor> {
  const el = await fixture<AicdBotEditor>(
    html`<aicd-bot-editor .client=${tenant.client} .botId=${botId} .previewBaseUrl=${tenant.baseUrl} .csrfToken=${tenant.token}></aicd-bot-editor>`,
  );
  await until(() => deep(el, 'form'), 'the form');
  return el;
}

/** Chooses `file` in the editor's import control, as a user does. */
async function importFile(el: Element, file: File, mode: 'merge' | 'replace'): Promise<void> {
  const transfer = await until(() => deep(el, 'aicd-intents-transfer')?.shadowRoot && deep(el, 'aicd-intents-transfer'), 'the import tools');
  deep<HTMLInputElement>(transfer, `input[name="import-mode"][value="${mode}"]`)!.click();
  const input = deep<HTMLInputElement>(transfer, 'input[type="file"]')!;
  const files = new DataTransfer();
  files.items.add(file);
  input.files = files.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

const intentsOf = (intents: readonly Intent[]) => intents.map(({ name, examples, responses }) => ({ name, examples, responses }));

describe('the bot editor shows quality', () => {
  it('after training, reports the confused pair and the mislabelled example, with what to do', async () => {
    const tenant = await newTenant();
    const el = await mountEditor(tenant, await createBot(tenant, { name: 'Help desk', training: { intents: HELP_DESK } }));
    const report = await until(() => {
      const element = deep(el, 'aicd-intent-quality');
      return element && deep(element, 'ul.suspects') && element;
    }, 'the quality report');
    const confused = deepAll(report, 'ul.confused li').map((li) => li.textContent!.replace(/\s+/g, ' ').trim());
    expect(confused.some((line) => line.startsWith('refund → shipping:') && line.includes('merge them, or make their examples more distinct'))).to.equal(true, confused.join('\n'));
    const suspects = deepAll(report, 'ul.suspects li').map((li) => li.textContent!.replace(/\s+/g, ' ').trim());
    expect(suspects.some((line) => line.startsWith('“how long does delivery take to my country” is under refund, but the model prefers shipping'))).to.equal(true, suspects.join('\n'));
    expect(deep(report, '.accuracy')!.textContent).to.match(/^\d+ %$/);
    expect(deep(report, '.threshold')!.textContent).to.match(/^\d+ %$/);
    const accuracies = deepAll(report, 'table.intents tbody tr').map((tr) => Number.parseInt(tr.querySelectorAll('td')[2]!.textContent!, 10));
    expect(accuracies).to.have.length(6);
    expect(accuracies).to.deep.equal([...accuracies].sort((a, b) => a - b), 'worst first');
    expect(accuracies[0]).to.be.below(100);
  });

  it('says to train a bot that has no model', async () => {
    const tenant = await newTenant();
    const el = await mountEditor(tenant, await createBot(tenant, { name: 'Untrained' }));
    await until(() => deepText(el).includes('Train the bot to see its quality.'), 'the empty state');
  });

  it('"try it" shows the three most likely intents as percentages and whether the bot would answer', async () => {
    const tenant = await newTenant();
    const el = await mountEditor(tenant, await createBot(tenant, { name: 'Help desk', training: { intents: HELP_DESK } }));
    const tryIt = await until(() => deep(el, 'aicd-try-intent')?.shadowRoot && deep(el, 'aicd-try-intent'), 'the try-it box');
    await fill(tryIt, 'try-text', 'where is my parcel');
    button(tryIt, 'Try')!.click();
    const ranking = await until(() => deepAll(tryIt, 'ol.ranking li').length === 3 && deepAll(tryIt, 'ol.ranking li'), 'three intents');
    expect(ranking[0]!.textContent).to.match(/^shipping: \d+ %$/);
    for (const li of ranking) expect(li.textContent).to.match(/^[a-z_]+: \d+ %$/);
    expect(deep(tryIt, '.verdict')!.textContent).to.match(/would answer with shipping/);
    await expect(el).to.be.accessible();
  });
});

describe('the bot editor with many intents', () => {
  const many: Intent[] = Array.from({ length: 12 }, (_, i) => ({ name: `topic_${i}`, examples: [`question number ${i}`, `another way to ask ${i}`], responses: [`Answer ${i}.`] }));
  many[9] = { name: 'parcels', examples: ['where is my parcel', 'track the parcel'], responses: ['On its way.'] };

  it('opens the first few intents, shows counts, expands and collapses all, and searches names and examples', async () => {
    const tenant = await newTenant();
    const el = await mountEditor(tenant, await createBot(tenant, { name: 'Big', training: { intents: many } }));
    const details = () => deepAll<HTMLDetailsElement>(el, 'details.intent');
    expect(details()).to.have.length(12);
    expect(details().filter((d) => d.open)).to.have.length(5);
    expect(deep(el, 'details.intent:not([open]) summary')!.textContent!.replace(/\s+/g, ' ')).to.match(/Intent 6: topic_5 · 2 examples · 1 response/);
    expect(deep(el, 'textarea[name="training.intents.7.examples"]')).to.equal(undefined, 'a closed intent renders no fields');

    button(el, 'Expand all')!.click();
    await until(() => details().every((d) => d.open) && deep(el, 'textarea[name="training.intents.11.examples"]'), 'every intent open');
    button(el, 'Collapse all')!.click();
    await until(() => details().every((d) => !d.open), 'every intent closed');

    await fill(el, 'intent-search', 'PARCEL'); // an example's text, any case
    await until(() => details().length === 1, 'one match');
    expect(deep(el, 'details.intent summary strong')!.textContent).to.equal('parcels');
    expect(deep(el, '.intent-count')!.textContent).to.equal('1 of 12 intents match.');
    await fill(el, 'intent-search', 'topic_1');
    await until(() => details().length === 3, 'topic_1, topic_10, topic_11');
    await fill(el, 'intent-search', '');
    await until(() => details().length === 12, 'all again');
    await expect(el).to.be.accessible();
  });

  it('exports CSV, and the CSV imported into another bot gives it the same intents', async () => {
    const tenant = await newTenant();
    const source = await mountEditor(tenant, await createBot(tenant, { name: 'Source', training: { intents: HELP_DESK } }));
    const exported: ExportFile[] = [];
    source.addEventListener('aicd-export', (e) => exported.push((e as CustomEvent<ExportFile>).detail));
    (await until(() => button(source, 'Export CSV'), 'the export button')).click();
    expect(exported[0]!.filename).to.equal('Source-intents.csv');
    expect(exported[0]!.text.split('\r\n')[0]).to.equal('"intent","example","response"');

    const targetId = await createBot(tenant, { name: 'Target', training: { intents: [{ name: 'hi', examples: ['hello'], responses: ['Hi!'] }] } });
    const target = await mountEditor(tenant, targetId);
    await importFile(target, new File([exported[0]!.text], 'intents.csv', { type: 'text/csv' }), 'replace');
    await until(() => deepText(target).includes('Imported 6 intents from intents.csv'), 'the import');
    expect(deepAll(target, 'details.intent')).to.have.length(6);
    button(target, 'Save and train')!.click();
    await until(() => deepText(target).includes('Saved. The bot is ready.'), 'the save');
    const { data: bot } = await tenant.client.bots.get(targetId);
    expect(intentsOf(bot.training.intents)).to.deep.equal(intentsOf(HELP_DESK));
  });

  it('refuses a CSV with a bad line, naming the line, and changes nothing', async () => {
    const tenant = await newTenant();
    const el = await mountEditor(tenant, await createBot(tenant, { name: 'Shop', training: { intents: [{ name: 'hi', examples: ['hello'], responses: ['Hi!'] }] } }));
    const csv = 'intent,example,response\r\nhours,"when are you open, today?",We are open 9 to 5.\r\nBad Name!,hello,Hi\r\n';
    await importFile(el, new File([csv], 'broken.csv', { type: 'text/csv' }), 'merge');
    const alert = await until(() => deep(el, 'aicd-intents-transfer') && deep(deep(el, 'aicd-intents-transfer')!, '[role="alert"]'), 'the problems');
    expect(alert.textContent).to.include('Nothing was imported: one problem.');
    expect(deep(alert, 'li')!.textContent).to.match(/^Line 3: Intent name “Bad Name!”/);
    expect(deepAll(el, 'details.intent')).to.have.length(1);
    await expect(el).to.be.accessible();
  });
});

describe('unanswered questions', () => {
  it('one is added to an intent from the overview and is in the bot afterwards', async () => {
    const tenant = await newTenant();
    const botId = await createBot(tenant, { name: 'Help desk', training: { intents: HELP_DESK } });
    const question = 'do you sell gift vouchers';
    const reply = (await tenant.client.bots.sendMessage(botId, { message: question, user_id: 'visitor' })).data;
    expect(reply.fallback).to.equal(true);

    const el = await fixture<AicdOverviewPage>(html`<aicd-overview-page .client=${tenant.client}></aicd-overview-page>`);
    const add = await until(() => deep(el, 'aicd-add-to-intent')?.shadowRoot && deep(el, 'aicd-add-to-intent'), 'the unanswered question');
    button(add, `Add to intent… (“${question}”)`)!.click();
    await until(() => deepAll(add, 'select[name="add-intent"] option').length === 6, "the bot's intents");
    await fill(add, 'add-intent', 'refund');
    button(add, 'Add example')!.click();
    await until(() => deep(add, '[role="status"]')?.textContent === 'Added to refund of Help desk; the bot is ready.', 'the example added');
    const { data: bot } = await tenant.client.bots.get(botId);
    expect(bot.training.intents.find((i) => i.name === 'refund')!.examples.at(-1)).to.equal(question);
    await expect(add).to.be.accessible();
  });
});

describe('the agent editor shows quality', () => {
  it('once a training job has succeeded', async () => {
    const tenant = await newTenant();
    const examples = [
      ['what are your opening hours', 'We are open 9 to 5.'],
      ['when do you open', 'We are open 9 to 5.'],
      ['how much does it cost', 'Plans start at 10 euros.'],
      ['what is the price', 'Plans start at 10 euros.'],
    ].map(([input, output]) => ({ input: input!, output: output! }));
    await tenant.client.agents.create({ name: 'Support', instructions: 'Answer briefly.', examples });
    const el = await fixture<AicdAgentsPage>(html`<aicd-agents-page .client=${tenant.client}></aicd-agents-page>`);
    (await until(() => button(el, 'Edit Support'), 'the agent')).click();
    (await until(() => button(el, 'Train'), 'the form')).click();
    await until(() => deep(el, '.job-status')?.textContent === 'succeeded', 'the job to succeed', 20_000);
    const report = await until(() => {
      const element = deep(el, 'aicd-intent-quality');
      return element && deep(element, '.accuracy') && element;
    }, 'the quality report');
    expect(deep(report, '.accuracy')!.textContent).to.match(/^\d+ %$/);
    expect(deepAll(report, 'table.intents tbody tr')).to.have.length(2);
    await expect(el).to.be.accessible();
  });
});
