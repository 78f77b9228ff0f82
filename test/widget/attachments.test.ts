// Attachments in the widget against the real service in real Chromium: a PNG drawn on a
// canvas, attached through the file input, by drag and drop, and by paste; its preview and upload
// progress in the tray; sent (also with no text) and stored with the message; shown in the
// transcript from a blob: URL, also after a reload. Files the bot's limits refuse never leave the
// browser, a file the browser let through is refused by the service (415) and said so, a removed
// upload is deleted; a bot without attachments gets no button and no add-on; the token proxy.
// Requests are observed (fetch and XMLHttpRequest still do the work), never replaced.
import { expect } from '@open-wc/testing';
import type { AiChatMessageSentEvent, AiChatWidget } from '../../src/element.js';
import type { Attachment } from '../../src/client/types.js';
import addonStyles from '../../src/widget/styles/attachments.styles.js';
import { canvasPng } from '../support/canvas-png.js';
import { $, $$, animationsFinished, baseUrl, clearWidgetStorage, createBot, historyOf, mount, newApiKey, typeText, waitFor } from './helpers.js';

/** A real PNG file of `width` × `height`. */
async function png(name: string, width = 64, height = 48): Promise<File> {
  return new File([await canvasPng(width, height)], name, { type: 'image/png' });
}

const text = (name: string, content = 'plain text') => new File([content], name, { type: 'text/plain' });

function transfer(files: File[]): DataTransfer {
  const data = new DataTransfer();
  for (const file of files) data.items.add(file);
  return data;
}

/** Chooses `files` in the widget's file input, as the file picker does. */
async function choose(el: AiChatWidget, files: File[]): Promise<void> {
  const input = $<HTMLInputElement>(el, 'input[type="file"]');
  input.files = transfer(files).files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
  await el.updateComplete;
}

/**
 * Every request the page makes while watched: method and URL, and the files uploads answered (the
 * real fetch and XHR still do the work).
 */
function watchRequests() {
  const seen: { method: string; url: string }[] = [];
  const answered: Attachment[] = [];
  const fetch = window.fetch;
  const open = XMLHttpRequest.prototype.open;
  window.fetch = (input, init) => {
    const request = input instanceof Request ? input : null;
    seen.push({ method: init?.method ?? request?.method ?? 'GET', url: String(request?.url ?? input) });
    return fetch(input, init);
  };
  XMLHttpRequest.prototype.open = function (this: XMLHttpRequest, method: string, url: string | URL, ...rest: unknown[]) {
    seen.push({ method, url: String(url) });
    this.addEventListener('load', () => {
      if (method === 'POST' && this.status === 201) void (this.response as Blob).text().then((body) => answered.push(JSON.parse(body).data));
    });
    return (open as (...args: unknown[]) => void).call(this, method, url, ...rest);
  } as typeof open;
  return {
    uploads: () => seen.filter((r) => r.method === 'POST' && /\/attachments(\?|$)/.test(r.url)),
    all: () => seen,
    answered,
    stop() {
      window.fetch = fetch;
      XMLHttpRequest.prototype.open = open;
    },
  };
}

const part = (el: AiChatWidget, name: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const send = (el: AiChatWidget) => $<HTMLButtonElement>(el, '[part~="send-button"]');
/** What the attachments' live region says. */
const note = (el: AiChatWidget) => $$(el, '.attachments-note p').map((p) => p.textContent!.trim()).join(' ');
/** The tray's files, once each has uploaded. */
const uploaded = (el: AiChatWidget, count: number) =>
  waitFor(() => $$(el, '[part~="attachments"] li').length === count && !part(el, 'attachments')!.querySelector('progress'), 8000, `${count} files uploaded`);

/** An image of the transcript, once it has loaded from its blob: URL. */
async function shownImage(el: AiChatWidget, alt: string): Promise<HTMLImageElement> {
  return waitFor(() => {
    const img = $$<HTMLImageElement>(el, '[part~="attachment-image"] img').find((i) => i.alt === alt);
    return img?.src.startsWith('blob:') && img.complete && img.naturalWidth > 0 ? img : null;
  }, 8000, `the image ${alt} in the transcript`);
}

async function fileStatus(apiKey: string, id: string, userId: string): Promise<number> {
  // not from the browser's cache: a file's answer may be kept there
  const response = await fetch(`${baseUrl}/attachments/${id}?user_id=${userId}`, { headers: { authorization: `Bearer ${apiKey}` }, cache: 'no-store' });
  await response.body?.cancel();
  return response.status;
}

describe('attachments in the widget', () => {
  let apiKey: string;
  let botId: string;
  before(async () => {
    apiKey = await newApiKey();
    botId = await createBot(apiKey, { attachments: { enabled: true, max_file_bytes: 64 * 1024, max_files: 3 } });
  });
  beforeEach(clearWidgetStorage);
  afterEach(clearWidgetStorage);

  async function widget(userId: string, attrs: Record<string, string | boolean> = {}) {
    const { el, ready } = await mount({ mode: 'inline', 'api-key': apiKey, 'bot-id': botId, 'base-url': baseUrl, 'user-id': userId, ...attrs });
    await ready;
    await waitFor(() => part(el, 'attach-button'), 8000, 'the attach button');
    return el;
  }

  it('attaches through the file input: preview and progress, Send waits, then the message is stored with the file and shown', async () => {
    const el = await widget('visitor-input');
    const button = part(el, 'attach-button')!;
    expect(button.getAttribute('aria-label')).to.equal('Attach files');
    const input = $<HTMLInputElement>(el, 'input[type="file"]');
    expect(input.multiple).to.equal(true);
    expect(input.accept).to.equal('image/png,image/jpeg,image/gif,image/webp,application/pdf,text/plain');
    const sent: AiChatMessageSentEvent[] = [];
    el.addEventListener('ai-chat-message-sent', (e) => sent.push(e));

    await choose(el, [await png('photo.png')]);
    // at once: the tray with the local preview and the upload's progress; Send waits for it, and says so
    const item = $(el, '[part~="attachments"] li');
    expect($(el, '[part~="attachments"]').getAttribute('aria-label')).to.equal('Files to send');
    expect(item.querySelector('img')!.src).to.match(/^blob:/);
    expect(item.querySelector('.name')!.textContent).to.equal('photo.png');
    expect(item.querySelector('progress')!.getAttribute('aria-label')).to.equal('Uploading photo.png');
    expect(item.querySelector('button')!.getAttribute('aria-label')).to.equal('Remove photo.png');
    expect(send(el).disabled, 'Send waits for the upload').to.equal(true);
    expect(note(el)).to.equal('Send is available once the files have uploaded.');

    await uploaded(el, 1);
    expect(send(el).disabled, 'a file alone can be sent').to.equal(false);
    expect(note(el)).to.equal('');
    await typeText(el, 'what is in this picture?');
    send(el).click();
    await waitFor(() => el.messages.length === 2 && el.messages[1].role === 'assistant', 8000, 'the reply');
    expect(part(el, 'attachments'), 'the tray empties').to.equal(null);

    const [file] = el.messages[0].attachments!;
    expect(file).to.include({ filename: 'photo.png', content_type: 'image/png', width: 64, height: 48 });
    expect(sent[0].detail.attachments).to.deep.equal([file]);
    const history = await historyOf(apiKey, { conversation_id: el.conversationId! });
    const stored = history.find((m) => m.role === 'user')!;
    expect(stored.content).to.equal('what is in this picture?');
    expect(stored.attachments!.map((a) => a.id)).to.deep.equal([file.id]);

    const img = await shownImage(el, 'photo.png');
    expect(img.naturalWidth).to.equal(64);
    const link = img.closest('a')!;
    expect(link.href).to.equal(img.src);
    expect(link.target).to.equal('_blank');

    // a reload: the restored history shows the file again, read afresh
    el.remove();
    const again = await widget('visitor-input');
    await shownImage(again, 'photo.png');
    expect(again.messages[0].attachments![0].id).to.equal(file.id);
  });

  it('a file removed before sending is deleted (its GET answers 404), and focus returns to the input', async () => {
    const el = await widget('visitor-remove');
    const requests = watchRequests();
    let id: string;
    try {
      await choose(el, [text('notes.txt')]);
      await uploaded(el, 1);
      expect(requests.uploads()).to.have.length(1);
      id = (await waitFor(() => requests.answered[0], 8000, 'the upload answer')).id;
    } finally {
      requests.stop();
    }
    expect(await fileStatus(apiKey, id, 'visitor-remove')).to.equal(200);
    $<HTMLButtonElement>(el, '[part~="attachments"] li button').click();
    await el.updateComplete;
    expect(part(el, 'attachments')).to.equal(null);
    await el.updateComplete;
    expect(el.shadowRoot!.activeElement).to.equal($(el, 'textarea'));
    const deadline = 8000;
    const start = performance.now();
    while ((await fileStatus(apiKey, id, 'visitor-remove')) !== 404) {
      if (performance.now() - start > deadline) throw new Error('the removed upload was never deleted');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(send(el).disabled).to.equal(true);
  });

  it('a message that failed keeps its files, and they go with it when it is sent again', async () => {
    const el = await widget('visitor-retry');
    await choose(el, [await png('again.png')]);
    await uploaded(el, 1);
    window.dispatchEvent(new Event('offline'));
    try {
      send(el).click();
      await waitFor(() => el.messages[0]?.status === 'failed', 8000, 'the failed message');
      await el.updateComplete;
      expect(el.messages[0].attachments!.map((a) => a.filename)).to.deep.equal(['again.png']);
      expect(part(el, 'retry-button')).to.not.equal(null);
      expect($$(el, '[part~="message-user"] [part~="attachment-image"]')).to.have.length(1);
    } finally {
      window.dispatchEvent(new Event('online')); // sent once more, as it was
    }
    await waitFor(() => el.messages.length === 2 && el.messages[0].status === 'sent', 8000, 'the message sent again');
    const stored = (await historyOf(apiKey, { conversation_id: el.conversationId! })).filter((m) => m.role === 'user');
    expect(stored.map((m) => m.attachments!.map((a) => a.filename))).to.deep.equal([['again.png']]);
  });

  it('refuses in the browser, with a message and no request: too large, a wrong type, one file too many', async () => {
    const el = await widget('visitor-refused');
    const requests = watchRequests();
    try {
      const big = new File([new Uint8Array(64 * 1024 + 1)], 'big.png', { type: 'image/png' });
      const zip = new File(['PK\u0003\u0004'], 'archive.zip', { type: 'application/zip' });
      await choose(el, [big, zip]);
      expect(note(el)).to.equal('big.png is too large: files can be up to 64 kB. archive.zip is a type of file this chat does not take.');
      expect($(el, '.attachments-note').getAttribute('role')).to.equal('status');
      expect(part(el, 'attachments'), 'nothing in the tray').to.equal(null);
      expect(requests.uploads(), 'nothing uploaded').to.deep.equal([]);

      await choose(el, [text('a.txt'), text('b.txt'), text('c.txt'), text('d.txt')]);
      expect(note(el)).to.equal('d.txt was not added: a message can carry up to 3 files. Send is available once the files have uploaded.');
      await uploaded(el, 3);
      expect(requests.uploads(), 'the three the limit lets through').to.have.length(3);
    } finally {
      requests.stop();
    }
  });

  it('the service refuses a file the browser let through (HTML named .png): 415 is said, the tray lets it go', async () => {
    const el = await widget('visitor-415');
    await choose(el, [new File(['<!doctype html><script>parent.__pwned = 1</script>'], 'page.png', { type: 'image/png' })]);
    expect($$(el, '[part~="attachments"] li')).to.have.length(1);
    await waitFor(() => note(el) === 'page.png is a type of file this chat does not take.', 8000, 'the refusal');
    expect(part(el, 'attachments')).to.equal(null);
    expect(send(el).disabled).to.equal(true);
  });

  it('drag and drop onto the panel and paste into the input attach files; a message of files only; axe', async () => {
    const el = await widget('visitor-drop');
    const transcript = $(el, '[part~="transcript"]');
    const dropped = transfer([await png('dropped.png', 40, 30)]);
    transcript.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dropped, bubbles: true, composed: true, cancelable: true }));
    await el.updateComplete;
    const zone = part(el, 'drop-zone')!;
    expect(zone.textContent!.trim()).to.equal('Drop files here to attach them');
    expect(zone.getAttribute('role')).to.equal('status');
    const over = new DragEvent('dragover', { dataTransfer: dropped, bubbles: true, composed: true, cancelable: true });
    transcript.dispatchEvent(over);
    expect(over.defaultPrevented, 'the panel takes the drop').to.equal(true);
    const drop = new DragEvent('drop', { dataTransfer: dropped, bubbles: true, composed: true, cancelable: true });
    transcript.dispatchEvent(drop);
    expect(drop.defaultPrevented, 'the page does not open the file').to.equal(true);
    await el.updateComplete;
    expect(zone.textContent!.trim()).to.equal('');

    const textarea = $<HTMLTextAreaElement>(el, 'textarea');
    const paste = new ClipboardEvent('paste', { clipboardData: transfer([text('pasted.txt', 'some notes')]), bubbles: true, composed: true, cancelable: true });
    textarea.dispatchEvent(paste);
    expect(paste.defaultPrevented).to.equal(true);
    await el.updateComplete;
    expect($$(el, '[part~="attachments"] .name').map((n) => n.textContent)).to.deep.equal(['dropped.png', 'pasted.txt']);
    await uploaded(el, 2);
    await animationsFinished(el);
    await expect(el).to.be.accessible();

    // no text: the files alone
    send(el).click();
    await waitFor(() => el.messages.length === 2, 8000, 'the reply');
    const user = el.messages[0];
    expect(user.content).to.equal('');
    expect(user.attachments!.map((a: Attachment) => a.filename)).to.deep.equal(['dropped.png', 'pasted.txt']);
    const stored = (await historyOf(apiKey, { conversation_id: el.conversationId! })).find((m) => m.role === 'user')!;
    expect(stored.content).to.equal('');
    expect(stored.attachments!.map((a) => a.filename)).to.deep.equal(['dropped.png', 'pasted.txt']);

    await shownImage(el, 'dropped.png');
    const chip = $(el, '[part~="attachment-file"]');
    expect(chip.localName).to.equal('button');
    expect(chip.textContent!.replace(/\s+/g, ' ').trim()).to.equal('Download pasted.txt 10 bytes');
    await animationsFinished(el);
    await expect(el).to.be.accessible();
  });

  it('a bot without attachments: no attach button, the add-on not loaded, no request for it', async () => {
    const plainBot = await createBot(apiKey, { name: 'No files bot' });
    const requests = watchRequests();
    try {
      const { el, ready } = await mount({ mode: 'inline', 'api-key': apiKey, 'bot-id': plainBot, 'base-url': baseUrl, storage: 'none' });
      await ready;
      await waitFor(() => $(el, '[part~="title"]').textContent!.includes('No files bot'), 8000, "the bot's profile");
      await el.updateComplete;
      expect(part(el, 'attach-button')).to.equal(null);
      expect(el.shadowRoot!.adoptedStyleSheets).not.to.include(addonStyles.styleSheet);
      expect(requests.all().filter((r) => r.url.includes('attachments'))).to.deep.equal([]);
    } finally {
      requests.stop();
    }
  });

  it('through the token proxy: the bot profile offers files, and so does `attachments` without bot-id', async () => {
    const grant = await fetch('/proxy/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const demoBot = ((await grant.json()) as { data: { bot_id: string } }).data.bot_id;

    const { el, ready } = await mount({ mode: 'inline', storage: 'none', 'token-url': '/proxy/token', 'bot-id': demoBot });
    await ready;
    await waitFor(() => part(el, 'attach-button'), 8000, 'the attach button from the profile');
    await choose(el, [await png('proxied.png')]);
    await uploaded(el, 1);
    send(el).click();
    await waitFor(() => el.messages.length === 2, 8000, 'the reply');
    await shownImage(el, 'proxied.png');
    el.remove();

    // the demo page's way: no bot-id, the host says the bot takes files; the proxy names the bot
    const other = await mount({ mode: 'inline', storage: 'none', 'token-url': '/proxy/token', attachments: true });
    await other.ready;
    const widget2 = other.el;
    await waitFor(() => part(widget2, 'attach-button'), 8000, 'the attach button from the attribute');
    await choose(widget2, [text('question.txt', 'a question in a file')]);
    await uploaded(widget2, 1);
    await typeText(widget2, 'see the file');
    send(widget2).click();
    await waitFor(() => widget2.messages.length === 2, 8000, 'the reply');
    expect(widget2.messages[0].attachments![0].filename).to.equal('question.txt');
    expect(part(widget2, 'attachment-file')!.textContent).to.include('question.txt');
  });
});
