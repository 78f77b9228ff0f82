/** `/canned-replies`: the texts an account's team inserts in the inbox by shortcut. */
import { segment, type HttpCore } from '../http.js';
import type { ApiResult, RequestOptions } from '../options.js';
import type { CannedReply, CannedReplyRequest } from '../types.js';

const path = (id: string) => `/canned-replies/${segment(id, 'cannedReplyId')}`;

export class CannedRepliesResource {
  constructor(private readonly core: HttpCore) {}

  /** Every reply of the account, by shortcut. */
  list(options?: RequestOptions): Promise<ApiResult<{ items: CannedReply[] }>> {
    return this.core.request({ method: 'GET', path: '/canned-replies' }, options);
  }

  /** A taken shortcut, or a full account (500 replies), fails with 409 `conflict`. */
  create(body: CannedReplyRequest, options?: RequestOptions): Promise<ApiResult<CannedReply>> {
    return this.core.request({ method: 'POST', path: '/canned-replies', body }, options);
  }

  update(id: string, body: Partial<CannedReplyRequest>, options?: RequestOptions): Promise<ApiResult<CannedReply>> {
    return this.core.request({ method: 'PATCH', path: path(id), body }, options);
  }

  delete(id: string, options?: RequestOptions): Promise<ApiResult<{ id: string; deleted: true }>> {
    return this.core.request({ method: 'DELETE', path: path(id) }, options);
  }
}
