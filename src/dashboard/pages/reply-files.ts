import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import { ATTACHMENT_TYPES, MAX_ATTACHMENTS_PER_MESSAGE, type Attachment } from '../../client/index.js';
import { api as defaultApi, type DashboardApi } from '../api.js';
import { errorMessage } from '../ui/errors.js';
import { formatBytes } from '../ui/format.js';
import { LocaleController, t } from '../i18n/i18n.js';
import pageStyles from '../ui/page.styles.js';

/** The service's ceiling on one message's files; saying so here beats a refused reply later. */
const MAX_FILES = MAX_ATTACHMENTS_PER_MESSAGE;
/** What the service stores (it judges the bytes); the picker offers these first. */
const ACCEPT = [...ATTACHMENT_TYPES, '.pdf', '.txt'].join(',');

interface PendingFile {
  key: number;
  file: File;
  sent: number;
  /** Set once stored: its id goes with the reply. */
  attachment?: Attachment;
  /** The service's refusal (413, 415…) or a lost connection. */
  error?: string;
  controller: AbortController;
}

/** A pasted image may come without a name. */
const nameOf = (file: File) => file.name || 'file';

/** What the reply form needs to know to enable Send. */
export interface ReplyFilesState {
  /** Uploaded and ready to send, in the order added. */
  ids: string[];
  /** Some file is still on its way: sending now would leave it out. */
  uploading: boolean;
}

export class ReplyFilesChangeEvent extends Event {
  constructor(readonly state: ReplyFilesState) {
    super('aicd-files-change');
  }
}

/**
 * The files of an operator's reply: an attach button, then each file uploaded at once for the
 * conversation (so Send only names ids) with its name, size, progress and a remove button. A
 * refused file stays listed with the service's reason until removed, so the operator sees which
 * one it was. Files not sent when the conversation changes or the form goes away are deleted: the
 * service would keep them for a day for nothing.
 *
 * @fires {ReplyFilesChangeEvent} aicd-files-change - The ready ids or the uploading state changed.
 */
@customElement('aicd-reply-files')
export class AicdReplyFiles extends LitElement {
  static override styles = [
    pageStyles,
    css`
      .files {
        list-style: none;
        padding: 0;
        margin: 0 0 0.5rem;
        display: flex;
        flex-direction: column;
        gap: 0.35rem;
      }
      .file {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 0.5rem;
      }
      .name {
        overflow-wrap: anywhere;
      }
      .file .error {
        flex-basis: 100%;
      }
    `,
  ];

  /** The dashboard API of the signed-in session (the inbox passes its own). */
  @property({ attribute: false }) api: DashboardApi = defaultApi;
  /** The conversation the files are uploaded for. */
  @property({ attribute: false }) conversationId = '';

  @state() private files: PendingFile[] = [];
  @state() private announcement = '';
  private readonly i18n = new LocaleController(this);
  @query('input[type="file"]') private input!: HTMLInputElement;
  @query('button.attach') private attachButton!: HTMLButtonElement;

  private nextKey = 0;

  get state(): ReplyFilesState {
    return { ids: this.files.flatMap((f) => (f.attachment ? [f.attachment.id] : [])), uploading: this.files.some((f) => !f.attachment && !f.error) };
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('conversationId') && changed.get('conversationId')) this.discard();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.discard();
  }

  override render() {
    return html`
      ${this.files.length
        ? html`<ul class="files" aria-label=${t('files.toSend')}>
            ${repeat(this.files, (f) => f.key, (f) => this.renderFile(f))}
          </ul>`
        : nothing}
      <input type="file" multiple hidden accept=${ACCEPT} aria-label=${t('files.toAttach')} @change=${this.onPicked} />
      <button type="button" class="attach" @click=${() => this.input.click()}>${t('files.attach')}</button>
      <span class="hint" role="status">${this.announcement}</span>
    `;
  }

  private renderFile(f: PendingFile) {
    const name = nameOf(f.file);
    return html`<li class="file">
      <span class="name">${name}</span>
      <span class="hint">${formatBytes(f.file.size)}</span>
      ${f.attachment
        ? html`<span class="hint">${t('files.ready')}</span>`
        : f.error
          ? nothing
          : html`<progress max=${f.file.size || 1} .value=${f.sent} aria-label=${t('files.uploading', { name })}></progress>`}
      <button type="button" @click=${() => this.removeFile(f)} aria-label=${t('files.remove', { name })}>${t('common.remove')}</button>
      ${f.error ? html`<p class="error" role="alert">${name}: ${f.error}</p>` : nothing}
    </li>`;
  }

  /** Uploads `files` for the conversation (from the picker, a drop or a paste). */
  add(files: Iterable<File>): void {
    const room = MAX_FILES - this.files.filter((f) => !f.error).length;
    const added = [...files];
    if (added.length > room) this.announcement = t('files.tooMany', { max: MAX_FILES, count: added.length - Math.max(0, room) });
    for (const file of added.slice(0, Math.max(0, room))) void this.upload(file);
  }

  /** After a sent reply: its files belong to the message now, so they are only forgotten. */
  clear(): void {
    this.files = [];
    this.announcement = ''; // "… is ready to send." is no longer true
    this.changed();
  }

  /** Forgets every file and deletes those stored but not sent; one still uploading is stopped. */
  discard(): void {
    for (const f of this.files) {
      f.controller.abort();
      if (f.attachment) void this.api.removeUpload(f.attachment.id).catch(() => {}); // the service drops it after a day anyway
    }
    if (this.files.length) this.clear();
  }

  private onPicked(): void {
    this.add(this.input.files ?? []);
    this.input.value = ''; // the same file can be picked again after a removal
  }

  private async upload(file: File): Promise<void> {
    const entry: PendingFile = { key: this.nextKey++, file, sent: 0, controller: new AbortController() };
    this.files = [...this.files, entry];
    this.changed();
    try {
      const attachment = await this.api.upload(this.conversationId, file, {
        signal: entry.controller.signal,
        onProgress: (sent) => this.patch(entry, { sent }),
      });
      if (!this.files.includes(entry)) {
        // removed (or the conversation changed) while it uploaded: it must not linger
        void this.api.removeUpload(attachment.id).catch(() => {});
        return;
      }
      this.patch(entry, { attachment, sent: file.size });
      this.announcement = `${nameOf(file)} is ready to send.`;
    } catch (error) {
      if (entry.controller.signal.aborted) return;
      this.patch(entry, { error: errorMessage(error) });
    }
    this.changed();
  }

  /** Changes one listed file; the list is a new array, so Lit renders it again. */
  private patch(entry: PendingFile, patch: Partial<PendingFile>): void {
    Object.assign(entry, patch);
    this.files = [...this.files];
  }

  private async removeFile(f: PendingFile): Promise<void> {
    f.controller.abort();
    if (f.attachment) {
      try {
        await this.api.removeUpload(f.attachment.id);
      } catch (error) {
        this.patch(f, { error: t('files.notRemoved', { error: errorMessage(error) }) });
        return;
      }
    }
    this.files = this.files.filter((other) => other !== f);
    this.announcement = `${nameOf(f.file)} removed.`;
    this.changed();
    // its button is gone: the focus goes somewhere that stays
    await this.updateComplete;
    this.attachButton.focus();
  }

  private changed(): void {
    this.dispatchEvent(new ReplyFilesChangeEvent(this.state));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-reply-files': AicdReplyFiles;
  }
}
