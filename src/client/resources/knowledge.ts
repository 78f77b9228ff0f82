/** `/knowledge`: the knowledge base that grounds answers, and its search. */
import { segment, type HttpCore } from '../http.js';
import type { ApiResult, RequestOptions } from '../options.js';
import type {
  CreateKnowledgeImportRequest,
  CreateKnowledgeRequest,
  Deletion,
  KnowledgeEntry,
  KnowledgeImport,
  KnowledgeSearchQuery,
  KnowledgeSearchResult,
  Page,
  PageQuery,
  SyncKnowledgeImportRequest,
  UpdateKnowledgeRequest,
} from '../types.js';

export class KnowledgeResource {
  constructor(private readonly core: HttpCore) {}

  create(body: CreateKnowledgeRequest, options?: RequestOptions): Promise<ApiResult<KnowledgeEntry>> {
    return this.core.request({ method: 'POST', path: '/knowledge', body }, options);
  }

  get(entryId: string, options?: RequestOptions): Promise<ApiResult<KnowledgeEntry>> {
    return this.core.request({ method: 'GET', path: `/knowledge/${segment(entryId, 'entryId')}` }, options);
  }

  list(query: PageQuery = {}, options?: RequestOptions): Promise<ApiResult<Page<KnowledgeEntry>>> {
    return this.core.request({ method: 'GET', path: '/knowledge', query: { ...query } }, options);
  }

  update(entryId: string, body: UpdateKnowledgeRequest, options?: RequestOptions): Promise<ApiResult<KnowledgeEntry>> {
    return this.core.request({ method: 'PUT', path: `/knowledge/${segment(entryId, 'entryId')}`, body }, options);
  }

  /** `DELETE /knowledge/{id}`: search and answers stop finding the entry at once. */
  delete(entryId: string, options?: RequestOptions): Promise<ApiResult<Deletion>> {
    return this.core.request({ method: 'DELETE', path: `/knowledge/${segment(entryId, 'entryId')}` }, options);
  }

  /** `GET /knowledge/search`; `tags` go out comma-separated. */
  search(query: KnowledgeSearchQuery, options?: RequestOptions): Promise<ApiResult<KnowledgeSearchResult>> {
    return this.core.request({ method: 'GET', path: '/knowledge/search', query: { ...query } }, options);
  }

  /**
   * `POST /knowledge/imports`: files (base64), a page with its same-host links, or a sitemap, as a
   * job; poll `getImport()` for its progress, or pass `{ wait: true }` to answer once it has finished.
   */
  createImport(body: CreateKnowledgeImportRequest, query: { wait?: boolean } = {}, options?: RequestOptions): Promise<ApiResult<KnowledgeImport>> {
    return this.core.request({ method: 'POST', path: '/knowledge/imports', query: { ...query }, body }, options);
  }

  /** `GET /knowledge/imports/{id}`: the import with its latest job's progress. */
  getImport(importId: string, options?: RequestOptions): Promise<ApiResult<KnowledgeImport>> {
    return this.core.request({ method: 'GET', path: `/knowledge/imports/${segment(importId, 'importId')}` }, options);
  }

  listImports(query: PageQuery = {}, options?: RequestOptions): Promise<ApiResult<Page<KnowledgeImport>>> {
    return this.core.request({ method: 'GET', path: '/knowledge/imports', query: { ...query } }, options);
  }

  /** `POST /knowledge/imports/{id}/sync`: a new job re-reads the source (a files import takes `files` anew). */
  syncImport(importId: string, body: SyncKnowledgeImportRequest = {}, query: { wait?: boolean } = {}, options?: RequestOptions): Promise<ApiResult<KnowledgeImport>> {
    return this.core.request({ method: 'POST', path: `/knowledge/imports/${segment(importId, 'importId')}/sync`, query: { ...query }, body }, options);
  }

  /** `DELETE /knowledge/imports/{id}`: the import and every entry it wrote. */
  deleteImport(importId: string, options?: RequestOptions): Promise<ApiResult<Deletion>> {
    return this.core.request({ method: 'DELETE', path: `/knowledge/imports/${segment(importId, 'importId')}` }, options);
  }
}
