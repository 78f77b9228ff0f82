// A site that copies one built file and nothing beside it: `ai-chat-widget.iife.js` alone (its
// add-ons cannot load: the widget still works, each missing file is named once in the console, a
// streamed reply comes whole, a language falls back to English at the load error), or the
// all-in-one `ai-chat-widget.all.iife.js`, which has every add-on in it and loads nothing else.
// Each page is an iframe whose script comes from a folder holding only that file
// (test/support/lone-pages.mjs), talking to the real service.
import { expect } from '@open-wc/testing';
import type { AiChatWidget } from '../../src/element.js';
import { clearWidgetStorage, createBot, newApiKey, waitFor } from './helpers.js';
import { page, type Page } from './iife-page.js';

const lone = (file: string) => `/__test__/lone/${file}/${file}`;
const ONE_SCRIPT = lone('ai-chat-widget.iife.js');
const ALL_IN_ONE = lone('ai-chat-widget.all.iife.js');

/** The page's `console.warn` lines, and its 3 s wait for a language swallowed: a widget that needs it never renders. */
function watch(warnings: string[]) {
  return (win: Window & typeof globalThis) => {
    win.console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
    const setTimeout = win.setTimeout.bind(win);
    win.setTimeout = ((handler: TimerHandler, ms?: number, ...rest: unknown[]) =>
      ms === 3000 ? 0 : setTimeout(handler, ms, ...rest)) as typeof win.setTimeout;
  };
}

const root = (p: Page) => p.widget.shadowRoot!;
const find = (p: Page, part: string) => root(p).querySelector<HTMLElement>(`[part~="${part}"]`);
const placeholder = (p: Page) => root(p).querySelector('textarea')!.placeholder;
/** The scripts the page fetched: the one it was given, and whatever that loaded. */
const scripts = (p: Page) =>
  p.win.performance.getEntriesByType('resource').filter((e) => (e as PerformanceResourceTiming).initiatorType === 'script').map((e) => new URL(e.name).pathname);

async function setHandoff(apiKey: string, botId: string): Promise<void> {
  const response = await fetch(`/v1/bots/${botId}/handoff`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ enabled: true }),
  });
  expect(response.status).to.equal(200);
}

describe('one built file alone on a site', () => {
  let apiKey: string;
  let opened: Page | undefined;
  before(async () => {
    for (const file of ['ai-chat-widget.iife.js', 'ai-chat-widget.all.iife.js']) {
      const built = await fetch(`/dist/${file}`, { method: 'HEAD' });
      expect(built.status, `dist/${file} is missing: run \`npm run build\` first`).to.equal(200);
    }
    apiKey = await newApiKey();
  });
  beforeEach(clearWidgetStorage);
  afterEach(() => opened?.frame.remove());

  it('the one script alone: a streaming widget gets whole replies, and the missing stream file is named once', async () => {
    const botId = await createBot(apiKey);
    const warnings: string[] = [];
    opened = await page('en', `mode="inline" stream bot-id="${botId}" api-key="${apiKey}"`, { script: ONE_SCRIPT, prepare: watch(warnings) });
    for (const question of ['hello', 'opening hours']) {
      const reply = await opened.widget.send(question);
      expect(reply?.role, `a reply to "${question}"`).to.equal('assistant');
      expect(reply!.content.length).to.be.greaterThan(0);
    }
    expect(opened.widget.messages.map((m) => m.status)).to.deep.equal(['sent', 'sent', 'sent', 'sent']);
    expect(find(opened, 'error')).to.equal(null);
    const named = warnings.filter((w) => w.includes('could not load ai-chat-widget.stream.js'));
    expect(named, warnings.join('\n')).to.have.length(1);
    expect(named[0]).to.include(`${location.origin}/__test__/lone/ai-chat-widget.iife.js/ai-chat-widget.stream.js`);
    expect(named[0]).to.include("copy the whole dist/ folder's ai-chat-widget.*.js files beside ai-chat-widget.iife.js");
  });

  it('the one script alone with lang="de": English at the load error, without the 3 s wait, the file named once', async () => {
    const warnings: string[] = [];
    // the 3 s fallback never fires on this page: the first render comes from the load error alone
    opened = await page('de', `mode="inline" api-key="${apiKey}"`, { script: ONE_SCRIPT, prepare: watch(warnings) });
    await opened.widget.updateComplete;
    expect(placeholder(opened)).to.equal('Type a message…');
    expect(warnings.filter((w) => w.includes('could not load ai-chat-widget.de.js')), warnings.join('\n')).to.have.length(1);
  });

  it('the one script alone: handoff, attachments and the reason form are each named once', async () => {
    const botId = await createBot(apiKey, { attachments: { enabled: true } });
    await setHandoff(apiKey, botId);
    const warnings: string[] = [];
    opened = await page('en', `mode="inline" bot-id="${botId}" api-key="${apiKey}"`, { script: ONE_SCRIPT, prepare: watch(warnings) });
    await opened.widget.send('hello');
    await opened.widget.send('opening hours');
    const down = await waitFor(() => find(opened!, 'feedback-down'), 8000, 'the thumbs down');
    down.click();
    await waitFor(() => warnings.some((w) => w.includes('ai-chat-widget.feedback-form.js')), 8000, 'the reason form named');
    await waitFor(() => warnings.some((w) => w.includes('ai-chat-widget.handoff.js')), 8000, 'handoff named');
    for (const name of ['attachments', 'handoff', 'feedback-form']) {
      expect(warnings.filter((w) => w.includes(`could not load ai-chat-widget.${name}.js`)), name).to.have.length(1);
    }
  });

  it('the all-in-one file alone: German at the first render, streaming, handoff, attachments and the reason form, nothing else loaded', async () => {
    const botId = await createBot(apiKey, { attachments: { enabled: true } });
    await setHandoff(apiKey, botId);
    const warnings: string[] = [];
    opened = await page('de', `mode="inline" stream bot-id="${botId}" api-key="${apiKey}"`, { script: ALL_IN_ONE, prepare: watch(warnings) });
    const widget: AiChatWidget = opened.widget;
    expect(placeholder(opened)).to.equal('Nachricht eingeben…');
    // streamed: the reply's text shows before the final message lands
    let partial = false;
    const seen = new MutationObserver(() => (partial ||= widget.messages.some((m) => m.role === 'assistant' && m.status === 'sending')));
    seen.observe(root(opened), { subtree: true, childList: true, characterData: true });
    const reply = await widget.send('hello');
    seen.disconnect();
    expect(reply?.role).to.equal('assistant');
    expect(partial, 'a streamed reply').to.equal(true);
    // nobody of this account is online: handoff offers the email form, in German
    const leave = await waitFor(() => find(opened!, 'leave-message-button'), 8000, 'handoff');
    expect(leave.textContent!.trim()).to.equal('Nachricht hinterlassen');
    expect(find(opened, 'attach-button')!.getAttribute('aria-label')).to.equal('Dateien anhängen');
    find(opened, 'feedback-down')!.click();
    await waitFor(() => find(opened!, 'feedback-form'), 8000, 'the reason form');
    expect(scripts(opened)).to.deep.equal(['/__test__/lone/ai-chat-widget.all.iife.js/ai-chat-widget.all.iife.js']);
    expect(opened.addons()).to.deep.equal([]);
    expect(warnings.filter((w) => w.includes('ai-chat-widget'))).to.deep.equal([]);
  });
});
