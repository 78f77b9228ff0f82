// The one-<script> build (dist/ai-chat-widget.iife.js) and its add-ons (src/widget/addons/catalog.ts): each
// page is a same-origin iframe that loads the built file by a <script> tag, as a website does, and
// talks to the real service. A page gets the add-ons it needs, and only those.
import { expect } from '@open-wc/testing';
import { clearWidgetStorage, createBot, newApiKey, waitFor } from './helpers.js';
import { page, type Page } from './iife-page.js';

const placeholder = (p: Page) => p.widget.shadowRoot!.querySelector('textarea')!.placeholder;

describe('the one-<script> build and its add-ons', () => {
  let apiKey: string;
  let opened: Page | undefined;
  before(async () => {
    const bundle = await fetch('/dist/ai-chat-widget.iife.js', { method: 'HEAD' });
    expect(bundle.status, 'dist/ai-chat-widget.iife.js is missing: run `npm run build` first').to.equal(200);
    apiKey = await newApiKey();
  });
  beforeEach(clearWidgetStorage);
  afterEach(() => opened?.frame.remove());

  it('an English page loads no add-on', async () => {
    opened = await page('en', `mode="inline" api-key="${apiKey}"`);
    expect(placeholder(opened)).to.equal('Type a message…');
    await new Promise((r) => setTimeout(r, 300));
    expect(opened.addons()).to.deep.equal([]);
  });

  it('a German page loads the German strings and never renders in English first', async () => {
    opened = await page('de-AT', `mode="inline" api-key="${apiKey}"`);
    // the first render the page ever saw is German: updateComplete waited for the strings
    expect(placeholder(opened)).to.equal('Nachricht eingeben…');
    expect(opened.widget.shadowRoot!.querySelector('[part~="send-button"]')!.getAttribute('aria-label')).to.equal('Senden');
    expect(opened.addons()).to.deep.equal(['de']);
  });

  it('a language whose add-on cannot be had falls back to English, with one console warning', async () => {
    // the IIFE alone, from a blob: URL, has no folder beside it to load add-ons from
    const source = await (await fetch('/dist/ai-chat-widget.iife.js')).text();
    const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    const warnings: string[] = [];
    const prepare = (win: Window & typeof globalThis) => (win.console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(' ')));
    opened = await page('ja', `mode="inline" api-key="${apiKey}"`, { script: url, prepare });
    expect(placeholder(opened)).to.equal('Type a message…');
    expect(warnings.filter((w) => w.includes('could not load ai-chat-widget.ja.js'))).to.have.length(1);
    URL.revokeObjectURL(url);
  });

  it('a streaming widget loads the stream add-on when it connects, and streams a reply from the service', async () => {
    const botId = await createBot(apiKey);
    opened = await page('en', `mode="inline" stream bot-id="${botId}" api-key="${apiKey}"`);
    await waitFor(() => opened!.addons().includes('stream'), 8000, 'the stream add-on');
    const reply = await opened.widget.send('hello');
    expect(reply?.role).to.equal('assistant');
    expect(reply?.content.length).to.be.greaterThan(0);
    expect(opened.addons()).to.deep.equal(['stream']);
  });

  it('a bot with handoff on: its first reply loads the handoff add-on, with its styles, against the service', async () => {
    const botId = await createBot(apiKey);
    await fetch(`/v1/bots/${botId}/handoff`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ enabled: true }),
    });
    opened = await page('en', `mode="inline" bot-id="${botId}" api-key="${apiKey}"`);
    await new Promise((r) => setTimeout(r, 300));
    expect(opened.addons(), 'nothing before the conversation').to.deep.equal([]);
    await opened.widget.send('hello');
    const root = opened.widget.shadowRoot!;
    // nobody of this account is online: the add-on offers the email form
    const leave = await waitFor(() => root.querySelector<HTMLElement>('[part~="leave-message-button"]'), 8000, 'the handoff add-on');
    expect(opened.addons()).to.deep.equal(['handoff']);
    expect(root.querySelector('[part~="handoff"]')!.textContent).to.include('Nobody can answer right now.');
    leave.click();
    const form = await waitFor(() => root.querySelector<HTMLElement>('[part~="offline-form"]'), 8000, 'the email form');
    expect(opened.win.getComputedStyle(form).display, "the add-on's styles are adopted").to.equal('grid');
  });

  it('a bot that takes files: its profile loads the attachments add-on, with its styles, and a file goes with a message; a bot that takes none loads nothing', async () => {
    const plain = await createBot(apiKey, { name: 'No files' });
    opened = await page('en', `mode="inline" bot-id="${plain}" api-key="${apiKey}"`);
    const title = () => opened!.widget.shadowRoot!.querySelector('[part~="title"]')!.textContent!.trim();
    await waitFor(() => title() === 'No files', 8000, "the bot's profile");
    expect(opened.addons(), 'a bot without attachments').to.deep.equal([]);
    opened.frame.remove();

    const botId = await createBot(apiKey, { attachments: { enabled: true } });
    opened = await page('en', `mode="inline" bot-id="${botId}" api-key="${apiKey}"`);
    const root = opened.widget.shadowRoot!;
    const attach = await waitFor(() => root.querySelector<HTMLElement>('[part~="attach-button"]'), 8000, 'the attach button');
    expect(opened.addons()).to.deep.equal(['attachments']);
    expect(attach.getAttribute('aria-label')).to.equal('Attach files');
    expect(opened.win.getComputedStyle(attach).width, "the add-on's styles are adopted").to.equal('40px');
    // the add-on's own copy of the client uploads, and the message carries the file
    const input = root.querySelector<HTMLInputElement>('input[type="file"]')!;
    const files = new opened.win.DataTransfer();
    files.items.add(new opened.win.File(['a question in a file'], 'question.txt', { type: 'text/plain' }));
    input.files = files.files;
    input.dispatchEvent(new opened.win.Event('change'));
    await waitFor(() => root.querySelector('[part~="attachments"] li') && !root.querySelector('[part~="attachments"] progress'), 8000, 'the upload');
    root.querySelector<HTMLButtonElement>('[part~="send-button"]')!.click();
    await waitFor(() => opened!.widget.messages.length === 2, 8000, 'the reply');
    expect(opened.widget.messages[0].attachments![0].filename).to.equal('question.txt');
    expect(root.querySelector('[part~="attachment-file"]')!.textContent).to.include('question.txt');
  });

  it('a phone-sized page loads the phone add-on, and the open panel is a modal dialog', async () => {
    opened = await page('en', `api-key="${apiKey}"`, { width: 390 });
    await waitFor(() => opened!.addons().includes('phone'), 8000, 'the phone add-on');
    await opened.widget.open();
    await waitFor(() => opened!.widget.shadowRoot!.querySelector('[part~="panel"]')!.getAttribute('aria-modal') === 'true', 8000, 'a modal panel');
    expect(opened.addons()).to.deep.equal(['phone']);
  });
});
