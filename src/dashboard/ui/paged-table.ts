/**
 * How every list page shows a `PagedList`: its error, an empty state that says what to do next,
 * the table (a hidden caption names it for screen readers), "Loading…" and "Load more".
 */
import { html, nothing, type TemplateResult } from 'lit';
import { t } from '../i18n/i18n.js';
import type { PagedList } from './paged-list.js';

export interface PagedTableOptions<T> {
  caption: string;
  /** Shown once the first page came back empty. */
  empty: string;
  columns: readonly string[];
  row: (item: T) => TemplateResult;
}

export function pagedTable<T>(list: PagedList<T>, o: PagedTableOptions<T>): TemplateResult {
  if (list.error) return html`<p class="error" role="alert">${list.error}</p>`;
  if (!list.loaded) return html`<p class="status">${t('list.loading')}</p>`;
  if (list.items.length === 0) return html`<p>${o.empty}</p>`;
  return html`<table>
      <caption class="visually-hidden">${o.caption}</caption>
      <thead>
        <tr>${o.columns.map((c) => html`<th scope="col">${c}</th>`)}</tr>
      </thead>
      <tbody>
        ${list.items.map(o.row)}
      </tbody>
    </table>
    ${list.loading ? html`<p class="status">${t('list.loading')}</p>` : nothing}
    ${list.nextCursor ? html`<button type="button" @click=${() => list.more()}>${t('list.more')}</button>` : nothing}`;
}

/** The Edit and Delete buttons of a row, labelled with the item's name so each is distinguishable. */
export function rowActions(name: string, edit: () => void, remove: () => void): TemplateResult {
  return html`<td>
    <div class="actions">
      <button type="button" @click=${edit} aria-label=${t('list.editItem', { name })}>${t('list.edit')}</button>
      <button type="button" class="danger" @click=${remove} aria-label=${t('list.deleteItem', { name })}>${t('list.delete')}</button>
    </div>
  </td>`;
}
