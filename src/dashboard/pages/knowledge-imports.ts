import { LitElement, html, nothing } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { AiChatClient, KnowledgeImport, KnowledgeImportFile, KnowledgeImportKind } from '../../client/index.js';
import '../ui/confirm-dialog.js';
import type { AicdConfirmDialog } from '../ui/confirm-dialog.js';
import { errorMessage } from '../ui/errors.js';
import { field } from '../ui/field.js';
import { FormState } from '../ui/form-state.js';
import { formatDate, splitList } from '../ui/format.js';
import pageStyles from '../ui/page.styles.js';
import styles from './knowledge-imports.styles.js';

/** What the service reads (documents/import/documents.ts); the picker offers just these. */
const ACCEPT = '.md,.markdown,.html,.htm,.txt,.pdf,text/markdown,text/html,text/plain,application/pdf';
const FIELDS = ['kind', 'files', 'url', 'max_pages', 'tags'] as const;
const KINDS: readonly (readonly [KnowledgeImportKind, string])[] = [
  ['files', 'Files (Markdown, HTML, text, PDF)'],
  ['url', 'A web page and the pages it links to on its site'],
  ['sitemap', 'The pages of a sitemap'],
];
/** First poll soon (small imports finish within a second); then slower, never more than every 4 s. */
const FIRST_DELAY_MS = 300;
const MAX_DELAY_MS = 4000;

const running = (item: KnowledgeImport) => item.job?.status === 'queued' || item.job?.status === 'running';

/** A file as the import body carries it: its bytes base64-encoded (FileReader's data URL, without the prefix). */
function readFile(file: File): Promise<KnowledgeImportFile> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve({ name: file.name, ...(file.type && { media_type: file.type }), data: String(reader.result).replace(/^data:[^,]*,/, '') });
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/**
 * The knowledge page's Import panel: start an import (files, a page, a sitemap), follow each job's
 * progress by polling, re-sync or delete an import. Fires `imports-changed` whenever a job finished
 * or an import was deleted, so the page reloads its entries. Names, URLs and issue messages are
 * untrusted text and only reach the DOM through Lit text bindings.
 */
@customElement('aicd-knowledge-imports')
export class AicdKnowledgeImports extends LitElement {
  static override styles = [pageStyles, styles];

  @property({ attribute: false }) client!: AiChatClient;

  @state() private kind: KnowledgeImportKind = 'files';
  @state() private url = '';
  @state() private maxPages = '';
  @state() private tags = '';
  @state() private imports: KnowledgeImport[] = [];
  @state() private notice = '';

  @query('input[type=file][name=files]') private picker!: HTMLInputElement;
  @query('aicd-confirm-dialog') private confirmDialog!: AicdConfirmDialog;

  private readonly form = new FormState(this);
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  override render() {
    return html`
      <section aria-labelledby="import-heading">
        <h2 id="import-heading">Import documents and web pages</h2>
        <p class="status" role="status">${this.notice}</p>
        <form class="import" @submit=${this.start} novalidate>
          ${this.form.formError ? html`<p class="error" role="alert">${this.form.formError}</p>` : nothing}
          ${field({
            name: 'kind',
            label: 'What to import',
            value: this.kind,
            options: KINDS,
            onInput: (kind) => (this.kind = kind as KnowledgeImportKind),
          })}
          ${this.kind === 'files'
            ? html`<label
                >Files
                <input type="file" name="files" multiple accept=${ACCEPT} aria-invalid=${this.form.errors.files ? 'true' : 'false'} />
                <span class="hint">Each heading starts an entry. Up to 50 files.</span>
                ${this.form.errors.files ? html`<span class="field-error">${this.form.errors.files}</span>` : nothing}
              </label>`
            : html`${field({
                name: 'url',
                label: this.kind === 'sitemap' ? 'Sitemap URL' : 'Page URL',
                type: 'url',
                value: this.url,
                hint: 'Only pages on this host are read, as its robots.txt allows.',
                error: this.form.errors.url,
                onInput: (url) => (this.url = url),
              })}
              ${field({
                name: 'max_pages',
                label: 'Most pages',
                type: 'number',
                value: this.maxPages,
                hint: 'Default 50.',
                error: this.form.errors.max_pages,
                onInput: (maxPages) => (this.maxPages = maxPages),
              })}`}
          ${field({ name: 'tags', label: 'Tags', value: this.tags, hint: 'Comma-separated, given to every imported entry.', error: this.form.errors.tags, onInput: (tags) => (this.tags = tags) })}
          <div class="toolbar"><button type="submit" class="primary" ?disabled=${this.form.saving}>Import</button></div>
        </form>
        ${this.imports.length ? this.renderImports() : nothing}
      </section>
      <aicd-confirm-dialog></aicd-confirm-dialog>
    `;
  }

  private renderImports() {
    return html`<table>
      <caption>
        Imports
      </caption>
      <thead>
        <tr>
          <th scope="col">Source</th>
          <th scope="col">Progress</th>
          <th scope="col">Entries</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        ${this.imports.map((item) => this.renderImport(item))}
      </tbody>
    </table>`;
  }

  private renderImport(item: KnowledgeImport) {
    const job = item.job;
    const p = job?.progress;
    return html`<tr data-import=${item.id}>
      <td>${item.name}<br /><span class="hint">${item.kind} · ${formatDate(item.updated_at)}</span></td>
      <td class="progress">
        ${job && p
          ? html`<span class="job-status">${job.status}</span>
              ${running(item) ? html`<progress max=${Math.max(p.documents_found, 1)} value=${p.documents_done} aria-label="Documents read of ${item.name}"></progress>` : nothing}
              <span>${p.documents_done} of ${p.documents_found} documents · ${p.entries_created} added, ${p.entries_updated} updated, ${p.entries_deleted} deleted, ${p.entries_unchanged} unchanged</span>
              ${job.error ? html`<span class="error">${job.error.message}</span>` : nothing}
              ${job.issues.length
                ? html`<details>
                    <summary>${job.issues.length} skipped</summary>
                    <ul class="issues">
                      ${job.issues.map((issue) => html`<li><code>${issue.code}</code> ${issue.document}: ${issue.message}</li>`)}
                    </ul>
                  </details>`
                : nothing}`
          : nothing}
      </td>
      <td>${item.entries}</td>
      <td class="actions">
        <button type="button" ?disabled=${running(item)} aria-label="Sync ${item.name}" @click=${() => this.sync(item)}>Sync</button>
        <button type="button" class="danger" aria-label="Delete ${item.name}" @click=${() => this.confirmDelete(item)}>Delete</button>
      </td>
    </tr>`;
  }

  private async load(): Promise<void> {
    try {
      this.imports = (await this.client.knowledge.listImports({ limit: 50 })).data.items;
      for (const item of this.imports) if (running(item)) this.follow(item.id, FIRST_DELAY_MS);
    } catch (error) {
      this.notice = errorMessage(error);
    }
  }

  private async start(event: Event): Promise<void> {
    event.preventDefault();
    const kind = this.kind;
    const chosen = kind === 'files' ? [...(this.picker?.files ?? [])] : [];
    const started = await this.form.submit(FIELDS, async () => {
      const files = kind === 'files' ? await Promise.all(chosen.map(readFile)) : undefined;
      return this.client.knowledge.createImport({
        kind,
        ...(files ? { files } : { url: this.url.trim() }),
        ...(kind !== 'files' && this.maxPages.trim() && { max_pages: Number(this.maxPages) }),
        tags: splitList(this.tags),
      });
    });
    if (!started) return;
    // before show(): a job that has already finished (a failure found at once) says so instead
    this.notice = `Importing “${started.data.name}”…`;
    this.show(started.data);
    if (this.picker) this.picker.value = '';
    this.url = '';
  }

  /** A web import reads its pages again; a files import takes newly picked files. */
  private async sync(item: KnowledgeImport): Promise<void> {
    try {
      let files: KnowledgeImportFile[] | undefined;
      if (item.kind === 'files') {
        const picked = await this.pickFiles();
        if (!picked.length) return;
        files = await Promise.all(picked.map(readFile));
      }
      const synced = (await this.client.knowledge.syncImport(item.id, files ? { files } : {})).data;
      this.notice = `Syncing “${item.name}”…`;
      this.show(synced);
    } catch (error) {
      this.notice = errorMessage(error);
    }
  }

  private pickFiles(): Promise<File[]> {
    const input = document.createElement('input');
    input.type = 'file';
    input.multiple = true;
    input.accept = ACCEPT;
    return new Promise((resolve) => {
      input.addEventListener('change', () => resolve([...(input.files ?? [])]), { once: true });
      input.addEventListener('cancel', () => resolve([]), { once: true });
      input.click();
    });
  }

  private async confirmDelete(item: KnowledgeImport): Promise<void> {
    const confirmed = await this.confirmDialog.ask({
      title: 'Delete this import?',
      message: `“${item.name}” and the ${item.entries} entries it imported will be removed from the knowledge base at once. This cannot be undone.`,
      confirmLabel: 'Delete import',
    });
    if (!confirmed) return;
    try {
      await this.client.knowledge.deleteImport(item.id);
      this.imports = this.imports.filter((i) => i.id !== item.id);
      this.notice = `Deleted “${item.name}” and its entries.`;
      this.changed();
    } catch (error) {
      this.notice = errorMessage(error);
    }
  }

  /** Shows the import first in the list and follows its job until it has finished. */
  private show(item: KnowledgeImport): void {
    this.imports = [item, ...this.imports.filter((i) => i.id !== item.id)];
    if (running(item)) this.follow(item.id, FIRST_DELAY_MS);
    else this.finished(item);
  }

  private follow(id: string, delay: number): void {
    clearTimeout(this.timers.get(id));
    this.timers.set(
      id,
      setTimeout(async () => {
        this.timers.delete(id);
        let item: KnowledgeImport;
        try {
          item = (await this.client.knowledge.getImport(id)).data;
        } catch (error) {
          // A failed poll is shown but not fatal: the job runs on the server regardless.
          this.notice = errorMessage(error);
          return this.follow(id, Math.min(delay * 2, MAX_DELAY_MS));
        }
        this.imports = this.imports.map((i) => (i.id === id ? item : i));
        if (running(item)) this.follow(id, Math.min(delay * 1.6, MAX_DELAY_MS));
        else this.finished(item);
      }, delay),
    );
  }

  private finished(item: KnowledgeImport): void {
    const p = item.job?.progress;
    this.notice =
      item.job?.status === 'failed'
        ? `Import of “${item.name}” failed: ${item.job.error?.message ?? 'unknown error'}`
        : `Imported “${item.name}”: ${p?.entries_created ?? 0} added, ${p?.entries_updated ?? 0} updated, ${p?.entries_deleted ?? 0} deleted.`;
    this.changed();
  }

  private changed(): void {
    this.dispatchEvent(new Event('imports-changed', { bubbles: true, composed: true }));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-knowledge-imports': AicdKnowledgeImports;
  }
}
