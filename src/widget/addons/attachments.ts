/**
 * Attachments in the widget: the attach button, drag and drop onto the panel, paste into
 * the input, the tray of files on their way (preview, size, upload progress, remove), and the files
 * of messages in the transcript (images as thumbnails, other files as chips that download). An
 * add-on (catalog.ts) that `AttachmentsLoader` loads only for a bot that takes files, a host that
 * says it does, or a message to show that carries some.
 *
 * Each file is checked here before any request (type, size, count against the bot's limits) and
 * uploads as soon as it is attached; Send is disabled, with the reason said, while one is still
 * uploading (the widget's `canSend`). The files are read back through the client with the
 * visitor's credentials into `blob:` URLs: an `<img>` cannot send a bearer token, and no URL the
 * service gives is ever put into the page.
 */
import { html, nothing, svg, type ReactiveController, type TemplateResult } from 'lit';
import { AttachmentsResource } from '../../client/resources/attachments.js';
import { ATTACHMENT_TYPES, MAX_ATTACHMENTS_PER_MESSAGE } from '../../client/attachment-types.js';
import type { Attachment, AttachmentSettings, AttachmentType } from '../../client/types.js';
import styles from '../styles/attachments.styles.js';
import type { ChatHost } from '../core/chat-config.js';
import type { TranscriptMessage } from '../core/events.js';
import { closeIcon } from '../core/icons.js';
import type { AttachmentStrings, WidgetStrings } from '../locales/strings.js';
import type { WidgetClient } from '../connection/widget-client.js';
import { adoptStyles } from './adopt-styles.js';

/** English; the other languages' tables carry their own (strings.ts). */
export const attachmentStrings: AttachmentStrings = {
  attach: 'Attach files',
  attachments: 'Files to send',
  dropFiles: 'Drop files here to attach them',
  removeFile: 'Remove {name}',
  uploading: 'Uploading {name}',
  uploadWait: 'Send is available once the files have uploaded.',
  fileTooLarge: '{name} is too large: files can be up to {max}.',
  fileType: '{name} is a type of file this chat does not take.',
  tooManyFiles: '{name} was not added: a message can carry up to {n} files.',
  tooManyPending: 'Too many files are waiting to be sent. Send or remove some first.',
  filesOff: 'This chat does not take files.',
  uploadFailed: '{name} could not be uploaded.',
  download: 'Download',
  downloadFailed: '{name} could not be downloaded.',
};

/** What the add-on needs of the widget's `ChatController`. */
export interface AttachmentsChat {
  readonly botId: string;
  readonly userId: string;
  /** The bot's profile, once read: its `attachments` settings decide. */
  readonly bot: { attachments?: AttachmentSettings };
  getClient(): Promise<WidgetClient>;
}

/** The widget: a controller host with its shadow root, and its `attachments` attribute. */
export type AttachmentsHost = ChatHost & {
  readonly renderRoot?: HTMLElement | DocumentFragment;
  /** The host offers attachments where the bot's settings cannot be read. */
  readonly attachments?: boolean;
  closest?(selector: string): Element | null;
};

/**
 * The limits where the bot's own cannot be read (a host's own token, `token-url` without `bot-id`):
 * the service's widest, so that nothing the bot takes is refused here; the service judges the rest.
 */
const SERVICE_LIMITS: AttachmentSettings = {
  enabled: true,
  types: [...ATTACHMENT_TYPES],
  max_file_bytes: 10 * 1024 * 1024,
  max_files: MAX_ATTACHMENTS_PER_MESSAGE,
};

/** A file's type by its name, for a file the browser gives none. */
const EXTENSIONS: Record<string, AttachmentType> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  txt: 'text/plain',
};

/** What each refusal of the service says (any other: `uploadFailed`). */
const REFUSALS: Record<string, keyof AttachmentStrings> = {
  payload_too_large: 'fileTooLarge',
  unsupported_media_type: 'fileType',
  permission_denied: 'filesOff',
  conflict: 'tooManyPending',
};

/**
 * The type a file is judged as here. A browser names text files by their kind (`text/csv`,
 * `text/markdown`); the service reads every one as plain text by its bytes. Markup stays itself:
 * the service refuses it.
 */
function typeOf(file: File): string {
  if (/^text\/(?!html|xml)/.test(file.type)) return 'text/plain';
  return file.type || EXTENSIONS[/\.(\w+)$/.exec(file.name)?.[1]?.toLowerCase() ?? ''] || '';
}

/** A file on its way: its upload, its preview, its progress, then the stored attachment. */
interface Pending {
  file: File;
  /** An object URL of the local file, for an image's thumbnail (revoked once the file leaves the tray). */
  preview?: string;
  /** 0–1. */
  progress: number;
  stop: AbortController;
  done?: Attachment;
}

/** A refusal to say: which string, and for which file. */
interface Note {
  key: keyof AttachmentStrings;
  name: string;
}

const paperclip = svg`<path d="M21 11.5l-8.6 8.6a5 5 0 0 1-7.1-7.1l9.2-9.2a3.3 3.3 0 0 1 4.7 4.7l-9.2 9.2a1.7 1.7 0 0 1-2.4-2.4l8.5-8.5" />`;
const fileIcon = svg`<path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8zM14 3v5h5" />`;
const icon = (path: TemplateResult) => html`<svg viewBox="0 0 24 24" aria-hidden="true" class="icon">${path}</svg>`;

export class Attachments implements ReactiveController {
  private pending: Pending[] = [];
  private notes: Note[] = [];
  /** Files are dragged over the panel (enter and leave events counted: each child fires its own). */
  private dragDepth = 0;
  /** Each shown file's `blob:` URL ('' while it loads, or once it failed). */
  private readonly urls = new Map<string, string>();
  /** Whose files the tray holds: another user or bot drops them. */
  private owner: string;

  constructor(
    private readonly host: AttachmentsHost,
    private readonly chat: AttachmentsChat,
  ) {
    host.addController(this);
    this.owner = this.whose();
    adoptStyles(host.renderRoot, styles);
    for (const type of ['dragenter', 'dragover', 'dragleave', 'drop'] as const) host.addEventListener(type, this.onDrag as EventListener);
    host.addEventListener('paste', this.onPaste as EventListener);
    // a new conversation: the files shown before are let go
    host.addEventListener('ai-chat-reset', () => this.forget());
    host.requestUpdate(); // the messages that carry files are shown again, with them
  }

  /** What visitors may attach here, or `null` for nothing (the bot's own settings win). */
  private get settings(): AttachmentSettings | null {
    const own = this.chat.bot.attachments;
    return own ? (own.enabled ? own : null) : this.host.attachments ? SERVICE_LIMITS : null;
  }

  /** The files to send with the message: `null` while one is still uploading. */
  get files(): Attachment[] | null {
    return this.pending.some((p) => !p.done) ? null : this.pending.map((p) => p.done!);
  }

  hostUpdate(): void {
    if (this.owner === this.whose()) return;
    this.owner = this.whose();
    for (const item of this.pending) this.remove(item, false);
    this.forget();
  }

  private whose(): string {
    return `${this.chat.botId}\n${this.chat.userId}`;
  }

  /** The message went out with the tray's files: the tray empties (the files are the message's now). */
  clear(): void {
    for (const item of this.pending) if (item.preview) URL.revokeObjectURL(item.preview);
    this.pending = [];
    this.notes = [];
    this.host.requestUpdate();
  }

  /** Lets go of every file shown in the transcript. */
  private forget(): void {
    for (const url of this.urls.values()) if (url) URL.revokeObjectURL(url);
    this.urls.clear();
  }

  /** Checks each file against the limits before any request; the ones that pass upload at once. */
  add(files: Iterable<File>): void {
    const settings = this.settings;
    if (!settings) return;
    this.notes = [];
    for (const file of files) {
      const key: keyof AttachmentStrings | null = !settings.types.includes(typeOf(file) as AttachmentType)
        ? 'fileType'
        : file.size > settings.max_file_bytes
          ? 'fileTooLarge'
          : this.pending.length >= settings.max_files
            ? 'tooManyFiles'
            : null;
      if (key) this.notes.push({ key, name: file.name });
      else this.upload(file);
    }
    this.host.requestUpdate();
  }

  private upload(file: File): void {
    const item: Pending = { file, progress: 0, stop: new AbortController() };
    if (file.type.startsWith('image/')) item.preview = URL.createObjectURL(file);
    this.pending = [...this.pending, item];
    void (async () => {
      try {
        const { data } = await (await this.api()).upload(file, { ...this.scope(), filename: file.name }, {
          signal: item.stop.signal,
          maxRetries: 0,
          onProgress: (sent, total) => {
            item.progress = total ? sent / total : 1;
            this.host.requestUpdate();
          },
        });
        item.done = data;
        // removed while its answer was on the way: it goes after all
        if (!this.pending.includes(item)) void this.discard(data);
      } catch (error) {
        if (item.stop.signal.aborted) return;
        this.remove(item, false);
        this.notes = [...this.notes, { key: REFUSALS[(error as { code?: string }).code ?? ''] ?? 'uploadFailed', name: file.name }];
      }
      this.host.requestUpdate();
    })();
  }

  /** The remove button: the upload stops, or the stored file is deleted (best effort). */
  private remove(item: Pending, focus = true): void {
    this.pending = this.pending.filter((p) => p !== item);
    if (item.preview) URL.revokeObjectURL(item.preview);
    if (item.done) void this.discard(item.done);
    else item.stop.abort();
    this.host.requestUpdate();
    // the button is gone: focus must not be lost with it
    if (focus) void this.host.updateComplete.then(() => this.host.renderRoot?.querySelector<HTMLElement>('[part~="input"]')?.focus());
  }

  private async discard(file: Attachment): Promise<void> {
    try {
      await (await this.api()).delete(file.id, this.scope(), { maxRetries: 0 });
    } catch {
      // an unsent upload the service lets go by itself in time
    }
  }

  /** Drag and drop onto the panel: the drop target shows while files are over it. */
  private readonly onDrag = (event: DragEvent): void => {
    const panel = event.composedPath().some((node) => (node as Element).part?.contains('panel'));
    if (!this.settings || !panel || !event.dataTransfer?.types.includes('Files')) return;
    event.preventDefault(); // a drop here attaches the files instead of opening them in the page
    const before = this.dragDepth;
    if (event.type === 'dragenter') this.dragDepth++;
    else if (event.type === 'dragleave') this.dragDepth = Math.max(0, this.dragDepth - 1);
    else if (event.type === 'drop') {
      this.dragDepth = 0;
      this.add(event.dataTransfer.files);
    }
    if (!before !== !this.dragDepth) this.host.requestUpdate();
  };

  /** Files or a screenshot pasted into the input attach them (text pastes as text). */
  private readonly onPaste = (event: ClipboardEvent): void => {
    const files = event.clipboardData?.files;
    if (!this.settings || !files?.length) return;
    event.preventDefault(); // a copied file also carries its name as text: the file is what was meant
    this.add(files);
  };

  private scope(): { user_id: string; bot_id?: string } {
    return { user_id: this.chat.userId, ...(this.chat.botId && { bot_id: this.chat.botId }) };
  }

  private async api(): Promise<AttachmentsResource> {
    return new AttachmentsResource((await this.chat.getClient()).http);
  }

  /** "57 bytes", "12 kB", "3.4 MB", in the widget's language (bytes spelled out: the short unit is "57 byte"). */
  private size(bytes: number): string {
    const [unit, value] = bytes < 1024 ? ['byte', bytes] : bytes < 1024 * 1024 ? ['kilobyte', bytes / 1024] : ['megabyte', bytes / 1024 / 1024];
    const lang = this.host.closest?.('[lang]')?.getAttribute('lang') || undefined;
    const unitDisplay = bytes < 1024 ? 'long' : 'short';
    return new Intl.NumberFormat(lang, { style: 'unit', unit: unit as string, unitDisplay, maximumFractionDigits: 1 }).format(value as number);
  }

  private say(s: AttachmentStrings, { key, name }: Note): string {
    const settings = this.settings ?? SERVICE_LIMITS;
    return s[key].replace('{name}', name).replace('{max}', this.size(settings.max_file_bytes)).replace('{n}', String(settings.max_files));
  }

  /**
   * The composer's part, inside its form: the attach button and its file input, the tray, the
   * polite live region of refusals and waiting, and the drop target over the panel.
   */
  render(strings: WidgetStrings): TemplateResult | typeof nothing {
    const settings = this.settings;
    if (!settings) return nothing;
    const s = { ...attachmentStrings, ...strings } as WidgetStrings & AttachmentStrings;
    const notes = this.notes.map((note) => this.say(s, note));
    if (!this.files) notes.push(s.uploadWait);
    // the tray first: it shows above the input, and focus meets it in that order
    return html`<div class="attachments-area">
        ${this.pending.length
          ? html`<ul part="attachments" class="attachments" aria-label=${s.attachments}>${this.pending.map((item) => this.renderPending(item, s))}</ul>`
          : nothing}
        <div class="attachments-note" role="status">${notes.map((note) => html`<p>${note}</p>`)}</div>
      </div>
      <button part="attach-button" class="icon-button attach" type="button" aria-label=${s.attach}
        @click=${(event: Event) => ((event.currentTarget as HTMLElement).nextElementSibling as HTMLInputElement).click()}>${icon(paperclip)}</button><input
        type="file" multiple hidden accept=${settings.types.join(',')} @change=${(event: Event) => {
          const input = event.currentTarget as HTMLInputElement;
          this.add(input.files ?? []);
          input.value = ''; // the same file chosen again is a change again
        }} />
      <div part="drop-zone" class="drop-zone" role="status">${this.dragDepth ? s.dropFiles : nothing}</div>`;
  }

  private renderPending(item: Pending, s: AttachmentStrings): TemplateResult {
    const name = item.file.name;
    return html`<li>
      ${item.preview ? html`<img src=${item.preview} alt="" />` : icon(fileIcon)}
      <span class="name">${name}</span>
      <span class="size">${this.size(item.file.size)}</span>
      ${item.done ? nothing : html`<progress max="1" .value=${item.progress} aria-label=${s.uploading.replace('{name}', name)}></progress>`}
      <button class="icon-button" type="button" aria-label=${s.removeFile.replace('{name}', name)} @click=${() => this.remove(item)}>${closeIcon}</button>
    </li>`;
  }

  /** A message's files in its bubble: images as thumbnails that open full size, other files as chips. */
  list({ attachments = [], content }: TranscriptMessage, strings: WidgetStrings): TemplateResult {
    return html`<div part="attachment-list" class="attachment-list ${content ? '' : 'alone'}">${attachments.map((file) =>
      file.content_type.startsWith('image/') ? this.renderImage(file) : this.renderFile(file, strings.download ?? attachmentStrings.download),
    )}</div>`;
  }

  private renderImage(file: Attachment): TemplateResult {
    const url = this.url(file.id) || nothing;
    return html`<a part="attachment-image" class="attachment-image" data-attachment=${file.id} href=${url} target="_blank"
      rel="noopener"><img alt=${file.filename} src=${url} width=${file.width ?? nothing} height=${file.height ?? nothing} /></a>`;
  }

  private renderFile(file: Attachment, download: string): TemplateResult {
    return html`<button part="attachment-file" class="attachment-file" type="button" @click=${() => void this.save(file)}>${icon(fileIcon)}<span
        class="sr-only">${download} </span><span class="name">${file.filename}</span> <span class="size">${this.size(file.size)}</span></button>`;
  }

  /**
   * A file's `blob:` URL, read at its first showing. Rows the transcript froze are not rendered
   * again (transcript-rows.ts), so the URL is set on the image's elements once it is at hand.
   */
  private url(id: string): string | undefined {
    const known = this.urls.get(id);
    if (known === undefined) {
      this.urls.set(id, '');
      void this.blob(id).then((url) => {
        if (!url || this.urls.get(id) !== '') return url && URL.revokeObjectURL(url);
        this.urls.set(id, url);
        for (const link of this.host.renderRoot?.querySelectorAll<HTMLAnchorElement>('[data-attachment]') ?? []) {
          if (link.dataset.attachment !== id) continue;
          link.href = url;
          link.querySelector('img')!.src = url;
        }
      });
    }
    return known;
  }

  private async blob(id: string): Promise<string | null> {
    try {
      return URL.createObjectURL(await (await this.api()).download(id, this.scope(), { maxRetries: 0 }));
    } catch {
      return null; // gone, or not this visitor's: its name (the image's alt text) stands in
    }
  }

  /** A file chip: the file is read with the visitor's credentials and saved under its name. */
  private async save(file: Attachment): Promise<void> {
    const url = await this.blob(file.id);
    if (!url) {
      this.notes = [{ key: 'downloadFailed', name: file.filename }];
      return this.host.requestUpdate();
    }
    const link = document.createElement('a');
    link.href = url;
    link.download = file.filename;
    link.click();
    // the browser reads the file after the click returns; a minute is ample
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}
