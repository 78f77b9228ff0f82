import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { AiChatClient, KnowledgeEntry, KnowledgeHit } from '../../client/index.js';
import { client as dashboardClient } from '../api.js';
import '../ui/confirm-dialog.js';
import type { AicdConfirmDialog } from '../ui/confirm-dialog.js';
import { errorMessage } from '../ui/errors.js';
import { field } from '../ui/field.js';
import { FormState } from '../ui/form-state.js';
import { PagedList } from '../ui/paged-list.js';
import { formatDate, languageOptions, splitList } from '../ui/format.js';
import { pagedTable, rowActions } from '../ui/paged-table.js';
import { formatNumber, LocaleController, t } from '../i18n/i18n.js';
import pageStyles from '../ui/page.styles.js';
import styles from './knowledge-page.styles.js';
import './knowledge-imports.js';

/** The form's fields, named as the body fields the service reports errors against. */
const FIELDS = ['title', 'content', 'tags', 'source', 'language'] as const;
type Draft = Record<(typeof FIELDS)[number], string>;

const EMPTY: Draft = { title: '', content: '', tags: '', source: '', language: '' };

/**
 * The knowledge base: every entry (cursor-paged), the service's own search over it, and a form to
 * add or edit one, and the Import panel (files, pages, sitemaps; `knowledge-imports.ts`). Imported
 * entries show their page as a link. Titles, tags and snippets are untrusted text (a visitor-facing site may import
 * anything) and only ever reach the DOM through Lit text bindings.
 */
@customElement('aicd-knowledge-page')
export class AicdKnowledgePage extends LitElement {
  static override styles = [pageStyles, styles];

  /** The /v1 client; the signed-in session's (`/dashboard/api/v1`) unless a host or a test passes another. */
  @property({ attribute: false }) client: AiChatClient = dashboardClient;

  /** null: no form open; an entry id: editing it; '': adding one. */
  @state() private editing: string | null = null;
  @state() private draft: Draft = EMPTY;
  @state() private query = '';
  @state() private hits: KnowledgeHit[] | null = null;
  @state() private searchError = '';
  @state() private notice = '';

  @query('aicd-confirm-dialog') private confirmDialog!: AicdConfirmDialog;

  private readonly form = new FormState(this);
  private readonly i18n = new LocaleController(this);
  private readonly entries = new PagedList<KnowledgeEntry>(this, (cursor) =>
    this.client.knowledge.list({ cursor, limit: 50 }).then((r) => r.data),
  );

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('client') && this.client) void this.entries.reload();
  }

  override render() {
    return html`
      <h1>${t('nav.knowledge')}</h1>
      <p class="status" role="status">${this.notice}</p>
      <form class="toolbar" role="search" @submit=${this.onSearch}>
        <label>
          ${t('kn.searchLabel')}
          <input type="search" name="q" maxlength="500" .value=${this.query} @input=${(e: InputEvent) => (this.query = (e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit">${t('kn.search')}</button>
        ${this.hits ? html`<button type="button" @click=${this.clearSearch}>${t('kn.clearSearch')}</button>` : nothing}
        <button type="button" class="primary" @click=${() => this.openForm(null)}>${t('kn.newEntry')}</button>
      </form>
      ${this.searchError ? html`<p class="error" role="alert">${this.searchError}</p>` : nothing}
      ${this.hits ? this.renderHits(this.hits) : nothing} ${this.editing !== null ? this.renderForm() : nothing}
      <aicd-knowledge-imports .client=${this.client} @imports-changed=${() => void this.entries.reload()}></aicd-knowledge-imports>
      <h2>${t('kn.allEntries')}</h2>
      ${this.renderEntries()}
      <aicd-confirm-dialog></aicd-confirm-dialog>
    `;
  }

  private renderHits(hits: KnowledgeHit[]) {
    return html`<section aria-labelledby="results-heading">
      <h2 id="results-heading">${t('kn.results')}</h2>
      ${hits.length === 0
        ? html`<p>${t('kn.noMatch')}</p>`
        : html`<ol class="hits">
            ${hits.map(
              (hit) => html`<li>
                <button type="button" class="link" @click=${() => this.editById(hit.entry_id)}>${hit.title}</button>
                <span class="score">${t('kn.score', { score: formatNumber(hit.score, { minimumFractionDigits: 2, maximumFractionDigits: 2 }) })}</span>
                <p class="snippet">${hit.snippet}</p>
              </li>`,
            )}
          </ol>`}
    </section>`;
  }

  private renderEntries() {
    return pagedTable(this.entries, {
      caption: t('kn.caption'),
      empty: t('kn.empty'),
      columns: [t('kn.title'), t('common.tags'), t('kn.source'), t('common.updated'), t('keys.actions')],
      row: (entry) => html`<tr>
        <td>${entry.title}</td>
        <td>${entry.tags.join(', ')}</td>
        <td>${sourceOf(entry)}</td>
        <td>${formatDate(entry.updated_at)}</td>
        ${rowActions(entry.title, () => this.openForm(entry), () => this.confirmDelete(entry))}
      </tr>`,
    });
  }

  private renderForm() {
    const adding = this.editing === '';
    return html`<form class="editor" @submit=${this.save} novalidate aria-labelledby="form-heading">
      <h2 id="form-heading">${t(adding ? 'kn.addAnEntry' : 'kn.editEntry')}</h2>
      ${this.form.formError ? html`<p class="error" role="alert">${this.form.formError}</p>` : nothing}
      ${this.field('title', t('kn.title'))}
      ${this.field('content', t('kn.content'), t('kn.contentHint'), true)}
      ${this.field('tags', t('common.tags'), t('kn.tagsHint'))}
      ${this.field('source', t('kn.source'), t('kn.sourceHint'))}
      ${field({
        name: 'language',
        label: t('common.language'),
        value: this.draft.language,
        options: [['', t('kn.serviceDefault')], ...languageOptions()],
        error: this.form.errors.language,
        onInput: (language) => (this.draft = { ...this.draft, language }),
      })}
      <div class="toolbar">
        <button type="submit" class="primary" ?disabled=${this.form.saving}>${t(adding ? 'kn.add' : 'kn.save')}</button>
        <button type="button" @click=${this.closeForm}>${t('confirm.cancel')}</button>
      </div>
    </form>`;
  }

  private field(name: (typeof FIELDS)[number], label: string, hint = '', multiline = false) {
    return field({
      name,
      label,
      hint,
      multiline,
      rows: 8,
      value: this.draft[name],
      error: this.form.errors[name],
      onInput: (value) => (this.draft = { ...this.draft, [name]: value }),
    });
  }

  private openForm(entry: KnowledgeEntry | null): void {
    this.editing = entry?.id ?? '';
    this.draft = entry
      ? { title: entry.title, content: entry.content, tags: entry.tags.join(', '), source: entry.source ?? '', language: entry.language }
      : EMPTY;
    this.form.reset();
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLInputElement>('.editor input')?.focus());
  }

  private async editById(id: string): Promise<void> {
    try {
      this.openForm((await this.client.knowledge.get(id)).data);
    } catch (error) {
      this.searchError = errorMessage(error);
    }
  }

  private closeForm(): void {
    this.editing = null;
  }

  private async save(event: Event): Promise<void> {
    event.preventDefault();
    const id = this.editing;
    if (id === null) return;
    const body = {
      title: this.draft.title,
      content: this.draft.content,
      tags: splitList(this.draft.tags),
      ...(this.draft.source.trim() ? { source: this.draft.source.trim() } : {}),
      ...(this.draft.language.trim() ? { language: this.draft.language.trim() } : {}),
    };
    const saved = await this.form.submit(FIELDS, () => (id ? this.client.knowledge.update(id, body) : this.client.knowledge.create(body)));
    if (!saved) return;
    this.entries.upsert(saved.data, (a, b) => a.id === b.id);
    this.editing = null;
    this.notice = t(id ? 'kn.saved' : 'kn.added', { title: saved.data.title });
  }

  private async confirmDelete(entry: KnowledgeEntry): Promise<void> {
    const confirmed = await this.confirmDialog.ask({
      title: t('kn.deleteThis'),
      message: t('kn.deleteMessage', { title: entry.title }),
      confirmLabel: t('kn.deleteEntry'),
    });
    if (!confirmed) return;
    try {
      await this.client.knowledge.delete(entry.id);
      this.entries.remove((e) => e.id === entry.id);
      if (this.hits) this.hits = this.hits.filter((hit) => hit.entry_id !== entry.id);
      if (this.editing === entry.id) this.editing = null;
      this.notice = t('kn.deleted', { title: entry.title });
    } catch (error) {
      this.notice = errorMessage(error);
    }
  }

  private async onSearch(event: Event): Promise<void> {
    event.preventDefault();
    const q = this.query.trim();
    if (!q) return this.clearSearch();
    this.searchError = '';
    try {
      this.hits = (await this.client.knowledge.search({ q, limit: 20 })).data.items;
    } catch (error) {
      this.hits = null;
      this.searchError = errorMessage(error);
    }
  }

  private clearSearch(): void {
    this.hits = null;
    this.query = '';
    this.searchError = '';
  }
}

/** An entry's page as a link (http/https only: the URL is untrusted), else its source label. */
function sourceOf(entry: KnowledgeEntry) {
  const link = entry.url ?? entry.source;
  if (link && /^https?:\/\//i.test(link)) {
    return html`<a href=${link} target="_blank" rel="noopener noreferrer">${link}</a>`;
  }
  return entry.source ?? '';
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-knowledge-page': AicdKnowledgePage;
  }
}
