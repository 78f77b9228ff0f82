/** `/knowledge`: the knowledge base that grounds answers, and its search. */
import { segment, type HttpCore } from '../http.js';
import type { ApiResult, RequestOptions } from '../options.js';
import type {
  CreateKnowledgeRequest,
  Deletion,
  KnowledgeEntry,
  KnowledgeSearchQuery,
  KnowledgeSearchResult,
  Page,
  PageQuery,
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
}
