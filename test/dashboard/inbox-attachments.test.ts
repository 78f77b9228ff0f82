// Files in the operator inbox against the real service in real Chromium: a visitor's
// image and PDF appear in the transcript (the image really loads through the session's passthrough),
// the operator attaches files (picked, dropped), sees them upload, removes one (the service then
// has no such file), sends one without text, and a refused type shows the service's reason. The
// conversations page shows the same files. Keyboard and axe as in the other inbox tests.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { AiChatClient, type Attachment } from '../../src/client/index.js';
import { DashboardApi } from '../../src/dashboard/api.js';
import type { ExportFile } from '../../src/dashboard/pages/conversation-export.js';
import '../../src/dashboard/pages/conversations-page.js';
import '../../src/dashboard/pages/inbox-page.js';
import type { AicdInboxPage } from '../../src/dashboard/pages/inbox-page.js';
import type { AicdReplyFiles } from '../../src/dashboard/pages/reply-files.js';
import { canvasPng } from '../support/canvas-png.js';
import { askForPerson, button, deep, deepActiveElement, deepAll, deepText, signOut, tabTo, until } from './helpers.js';

const png = canvasPng;

/** Enough of a PDF for the service, which judges a file by its first bytes. */
const PDF = '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n';

/** Hands `files` to a file input as the browser's picker would. */
function pick(input: HTMLInputElement, files: File[]): void {
  const transfer = new DataTransfer();
  for (const file of files) transfer.items.add(file);
  input.files = transfer.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

/** `inner` inside the shadow roots of the elements `outer` matches (a selector stops at a shadow root). */
function within<E extends Element = HTMLElement>(root: Element, outer: string, inner: string): E[] {
  return deepAll(root, outer).flatMap((host) => deepAll<E>(host, inner));
}

const loaded = (img: HTMLImageElement | undefined) => img !== undefined && img.complete && img.naturalWidth > 0;

describe('aicd-inbox-page with attachments', () => {
  after(signOut);

  it("shows a visitor's files, and the operator attaches, removes and sends files", async function () {
    this.timeout(40_000);
    const api = new DashboardApi();
    await api.signUp({ email: `files.${Date.now()}@example.test`, password: 'correct horse battery', account_name: 'Files' });
    const { secret } = await api.createKey({ label: 'visitor side' });
    const visitor = new AiChatClient({ baseUrl: `${location.origin}/v1`, apiKey: secret });
    const { data: bot } = await api.client.bots.create({ name: 'Shop', attachments: { enabled: true } });
    await api.client.handoff.updateSettings(bot.id, { enabled: true });
    const user = 'visitor-with-files';
    const { data: first } = await visitor.bots.sendMessage(bot.id, { message: 'hello', user_id: user });
    const conversationId = first.conversation_id;

    // every upload of the page, seen on its way through the real API (ids, and the progress reported)
    const uploads: Attachment[] = [];
    const progress: number[] = [];
    const upload = api.upload.bind(api);
    api.upload = async (id, file, options = {}) => {
      const stored = await upload(id, file, { ...options, onProgress: (sent, total) => (progress.push(sent), options.onProgress?.(sent, total)) });
      uploads.push(stored);
      return stored;
    };

    const el = await fixture<AicdInboxPage>(html`<aicd-inbox-page .api=${api}></aicd-inbox-page>`);
    await until(() => deepText(el).includes('Nobody is waiting'), 'the empty inbox');
    await askForPerson(visitor, conversationId, user);
    (await until(() => button(el, `Take the conversation with ${user}`), 'the waiting conversation')).click();
    await until(() => deep(el, 'textarea#reply'), 'the reply box');

    // the visitor sends an image and a PDF: they arrive live, the image loads through the session
    const image = await visitor.attachments.upload(await png(40, 30), { user_id: user, bot_id: bot.id, filename: 'photo.png' });
    const pdf = await visitor.attachments.upload(new Blob([PDF]), { user_id: user, bot_id: bot.id, filename: 'terms.pdf' });
    await visitor.bots.sendMessage(bot.id, { message: 'see attached', user_id: user, attachments: [image.data.id, pdf.data.id] });
    const thumbnail = await until(() => within<HTMLImageElement>(el, '.message.user aicd-attachment-list', 'img')[0], 'the visitor image');
    await until(() => loaded(thumbnail), 'the image to load');
    expect([thumbnail.alt, thumbnail.naturalWidth, thumbnail.naturalHeight]).to.deep.equal(['photo.png', 40, 30]);
    const full = thumbnail.closest('a')!;
    expect([full.target, full.getAttribute('href')]).to.deep.equal(['_blank', `${api.client.baseUrl}/attachments/${image.data.id}`]);
    const download = within<HTMLAnchorElement>(el, '.message.user aicd-attachment-list', 'a.file')[0]!;
    expect(download.getAttribute('download')).to.equal('terms.pdf');
    expect(download.textContent!.replace(/\s+/g, ' ')).to.include(`terms.pdf (${PDF.length} B)`);
    expect((await fetch(download.href)).headers.get('content-type')).to.equal('application/pdf');

    // the operator picks two files: each listed with its size and progress, then ready
    const files = deep<AicdReplyFiles>(el, 'aicd-reply-files')!;
    const input = deep<HTMLInputElement>(files, 'input[type="file"]')!;
    pick(input, [new File([await png(8, 8)], 'chart.png'), new File(['remove me'], 'extra.txt')]);
    await files.updateComplete; // rendered before any upload can have finished (a network answer is a later task)
    expect(deepAll(files, 'progress').map((p) => p.getAttribute('aria-label'))).to.deep.equal(['Uploading chart.png', 'Uploading extra.txt']);
    expect(deepText(files)).to.include('chart.png').and.include('extra.txt').and.include('9 B');
    expect(button(el, 'Send')!.disabled).to.equal(true); // not while a file is on its way
    await until(() => uploads.length === 2 && deepText(files).split('Ready to send').length === 3, 'both uploaded');
    expect(progress).to.include(9); // extra.txt's bytes, all sent
    expect(button(el, 'Send')!.disabled).to.equal(false); // files alone may be sent

    // removed by keyboard: the service no longer has it, the focus stays in the form
    const extra = uploads.find((u) => u.filename === 'extra.txt')!;
    expect(await tabTo(button(el, 'Remove extra.txt')!)).to.equal(true);
    await sendKeys({ press: 'Enter' });
    const listed = () => deepAll(files, '.file .name').map((n) => n.textContent);
    await until(() => !listed().includes('extra.txt'), 'extra.txt gone from the list');
    expect(deep(files, '[role="status"]')!.textContent).to.equal('extra.txt removed.');
    expect((await fetch(`/dashboard/api/v1/attachments/${extra.id}`)).status).to.equal(404);
    expect(deepActiveElement()).to.equal(button(el, 'Attach files'));

    // a refused type and a file over the service's limit: the service's reasons, at the files
    pick(input, [new File(['<html><body>hi</body></html>'], 'page.html'), new File([new Uint8Array(11 * 1024 * 1024)], 'huge.pdf')]);
    const alerts = () => deepAll(files, '[role="alert"]').map((p) => p.textContent ?? '');
    await until(() => alerts().length === 2, "the service's refusals");
    expect(alerts()[0]).to.match(/^page\.html: This file is text\/html; only images/);
    expect(alerts()[1]).to.match(/^huge\.pdf: The .* is larger than \d+ bytes\.$/);
    await expect(el).to.be.accessible();
    button(el, 'Remove page.html')!.click();
    button(el, 'Remove huge.pdf')!.click();
    await until(() => listed().length === 1, 'the refused files removed');

    // sent without text: the service's history has the operator's message with the file
    button(el, 'Send')!.click();
    await until(() => within(el, '.message.operator aicd-attachment-list', 'img')[0], 'the sent file in the transcript');
    await until(() => listed().length === 0, 'the sent file gone from the list'); // the live event may come before the POST's answer
    const { data: history } = await api.client.chat.history({ conversation_id: conversationId });
    const sent = history.items.find((m) => m.role === 'operator')!;
    expect(sent.content).to.equal('');
    expect(sent.attachments!.map((a) => [a.filename, a.content_type, a.width])).to.deep.equal([['chart.png', 'image/png', 8]]);

    // one dropped on the reply box, one pasted into it, then sent with text
    const transfer = (file: File) => {
      const data = new DataTransfer();
      data.items.add(file);
      return data;
    };
    const box = deep<HTMLTextAreaElement>(el, 'textarea#reply')!;
    box.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer(new File(['dropped notes'], 'notes.txt')), bubbles: true, cancelable: true }));
    box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer(new File([await png(5, 5)], 'pasted.png')), bubbles: true, cancelable: true }));
    await until(() => deepText(files).split('Ready to send').length === 3, 'the dropped and pasted files uploaded');
    expect(listed()).to.deep.equal(['notes.txt', 'pasted.png']);
    box.focus();
    await sendKeys({ type: 'Your notes' });
    await sendKeys({ press: 'Enter' });
    await until(() => within(el, '.message.operator aicd-attachment-list', 'a.file').some((a) => a.textContent!.includes('notes.txt')), 'the text reply with its file');
    expect(deepAll(el, '.message.operator .text').map((p) => p.textContent)).to.deep.equal(['', 'Your notes']);
    await until(() => listed().length === 0, 'the sent files gone from the list');
    expect(deep(files, '[role="status"]')!.textContent).to.equal('', 'sent files are no longer announced as ready to send');

    // the conversations page shows the same files, from the history
    const page = await fixture(html`<aicd-conversations-page .client=${api.client}></aicd-conversations-page>`);
    (await until(() => button(page, /^Open the conversation/), 'the conversation list')).click();
    const images = await until(() => {
      const all = deepAll<HTMLImageElement>(page, 'img');
      for (const img of all) img.scrollIntoView(); // thumbnails load lazily, once in view
      return all.length === 3 && all.every(loaded) ? all : null;
    }, 'the images loaded on the conversations page');
    expect(images.map((img) => img.alt)).to.deep.equal(['photo.png', 'chart.png', 'pasted.png']);
    expect(deepAll(page, 'a.file').map((a) => a.getAttribute('download'))).to.deep.equal(['terms.pdf', 'notes.txt']);
    await expect(page).to.be.accessible();
    // the CSV export names each message's files
    const exported: ExportFile[] = [];
    page.addEventListener('aicd-export', (e) => exported.push((e as CustomEvent<ExportFile>).detail));
    button(page, 'Export CSV')!.click();
    // (the last five columns: no feedback on these messages, no satisfaction rating of the conversation)
    expect(exported[0]!.text).to.include('"photo.png; terms.pdf","","","","",""\r\n').and.include('"notes.txt; pasted.png","","","","",""\r\n');
  });
});
