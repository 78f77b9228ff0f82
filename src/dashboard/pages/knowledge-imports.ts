import { LitElement, html, nothing } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { AiChatClient, KnowledgeImport, KnowledgeImportFile, KnowledgeImportJobStatus, KnowledgeImportKind } from '../../client/index.js';
import '../ui/confirm-dialog.js';
import type { AicdConfirmDialog } from '../ui/confirm-dialog.js';
import { errorMessage } from '../ui/errors.js';
import { field } from '../ui/field.js';
import { FormState } from '../ui/form-state.js';
import { formatDate, splitList } from '../ui/format.js';
import { labels, LocaleController, t } from '../i18n/i18n.js';
import pageStyles from '../ui/page.styles.js';
import styles from './knowledge-imports.styles.js';

/** What the service reads (documents/import/documents.ts); the picker offers just these. */
const ACCEPT = '.md,.markdown,.html,.htm,.txt,.pdf,text/markdown,text/html,text/plain,application/pdf';
const FIELDS = ['kind', 'files', 'url', 'max_pages', 'tags'] as const;
const KINDS = labels<KnowledgeImportKind>({ files: 'kn.kindFiles', url: 'kn.kindUrl', sitemap: 'kn.kindSitemap' });
const KIND_NAMES = labels<KnowledgeImportKind>({ files: 'kn.kindFilesShort', url: 'kn.kindUrlShort', sitemap: 'kn.kindSitemapShort' });
const JOB_STATUS = labels<KnowledgeImportJobStatus>({ queued: 'job.queued', running: 'job.running', succeeded: 'job.succeeded', failed: 'job.failed' });
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
  private readonly i18n = new LocaleController(this);

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
        <h2 id="import-heading">${t('kn.importTitle')}</h2>
        <p class="status" role="status">${this.notice}</p>
        <form class="import" @submit=${this.start} novalidate>
          ${this.form.formError ? html`<p class="error" role="alert">${this.form.formError}</p>` : nothing}
          ${field({
            name: 'kind',
            label: t('kn.what'),
            value: this.kind,
            options: (Object.keys(KINDS) as KnowledgeImportKind[]).map((kind) => [kind, KINDS[kind]] as const),
            onInput: (kind) => (this.kind = kind as KnowledgeImportKind),
          })}
          ${this.kind === 'files'
            ? html`<label
                >${t('kn.files')}
                <input type="file" name="files" multiple accept=${ACCEPT} aria-invalid=${this.form.errors.files ? 'true' : 'false'} />
                <span class="hint">${t('kn.filesHint')}</span>
                ${this.form.errors.files ? html`<span class="field-error">${this.form.errors.files}</span>` : nothing}
              </label>`
            : html`${field({
                name: 'url',
                label: this.kind === 'sitemap' ? t('kn.sitemapUrl') : t('kn.pageUrl'),
                type: 'url',
                value: this.url,
                hint: t('kn.hostHint'),
                error: this.form.errors.url,
                onInput: (url) => (this.url = url),
              })}
              ${field({
                name: 'max_pages',
                label: t('kn.mostPages'),
                type: 'number',
                value: this.maxPages,
                hint: t('kn.default50'),
                error: this.form.errors.max_pages,
                onInput: (maxPages) => (this.maxPages = maxPages),
              })}`}
          ${field({ name: 'tags', label: t('common.tags'), value: this.tags, hint: t('kn.importTagsHint'), error: this.form.errors.tags, onInput: (tags) => (this.tags = tags) })}
          <div class="toolbar"><button type="submit" class="primary" ?disabled=${this.form.saving}>${t('kn.import')}</button></div>
        </form>
        ${this.imports.length ? this.renderImports() : nothing}
      </section>
      <aicd-confirm-dialog></aicd-confirm-dialog>
    `;
  }

  private renderImports() {
    return html`<table>
      <caption>
        ${t('kn.imports')}
      </caption>
      <thead>
        <tr>
          <th scope="col">${t('kn.source')}</th>
          <th scope="col">${t('kn.progress')}</th>
          <th scope="col">${t('kn.entries')}</th>
          <th scope="col">${t('keys.actions')}</th>
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
      <td>${item.name}<br /><span class="hint">${KIND_NAMES[item.kind]} · ${formatDate(item.updated_at)}</span></td>
      <td class="progress">
        ${job && p
          ? html`<span class="job-status">${JOB_STATUS[job.status]}</span>
              ${running(item) ? html`<progress max=${Math.max(p.documents_found, 1)} value=${p.documents_done} aria-label=${t('kn.documentsRead', { name: item.name })}></progress>` : nothing}
              <span>${t('kn.progressLine', { done: p.documents_done, count: p.documents_found, added: p.entries_created, updated: p.entries_updated, deleted: p.entries_deleted, unchanged: p.entries_unchanged })}</span>
              ${job.error ? html`<span class="error">${job.error.message}</span>` : nothing}
              ${job.issues.length
                ? html`<details>
                    <summary>${t('kn.skipped', { count: job.issues.length })}</summary>
                    <ul class="issues">
                      ${job.issues.map((issue) => html`<li><code>${issue.code}</code> ${issue.document}: ${issue.message}</li>`)}
                    </ul>
                  </details>`
                : nothing}`
          : nothing}
      </td>
      <td>${item.entries}</td>
      <td class="actions">
        <button type="button" ?disabled=${running(item)} aria-label=${t('kn.syncItem', { name: item.name })} @click=${() => this.sync(item)}>${t('kn.sync')}</button>
        <button type="button" class="danger" aria-label=${t('list.deleteItem', { name: item.name })} @click=${() => this.confirmDelete(item)}>${t('list.delete')}</button>
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
    this.notice = t('kn.importing', { name: started.data.name });
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
      this.notice = t('kn.syncing', { name: item.name });
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
      title: t('kn.deleteImportTitle'),
      message: t('kn.deleteImportMessage', { name: item.name, count: item.entries }),
      confirmLabel: t('kn.deleteImport'),
    });
    if (!confirmed) return;
    try {
      await this.client.knowledge.deleteImport(item.id);
      this.imports = this.imports.filter((i) => i.id !== item.id);
      this.notice = t('kn.importDeleted', { name: item.name });
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
        ? t('kn.importFailed', { name: item.name, error: item.job.error?.message ?? t('kn.unknownError') })
        : t('kn.imported', { name: item.name, added: p?.entries_created ?? 0, updated: p?.entries_updated ?? 0, deleted: p?.entries_deleted ?? 0 });
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
