/** `/conversations`: the filtered list of conversations, one conversation, and its delete. */
import { segment, type HttpCore } from '../http.js';
import type { ApiResult, RequestOptions } from '../options.js';
import type { Conversation, ConversationLabels, ConversationListQuery, Deletion, Feedback, LabelsUpdate, Page } from '../types.js';

export class ConversationsResource {
  constructor(private readonly core: HttpCore) {}

  /**
   * `GET /conversations`, newest first: filters by bot, agent, user, start date (`from`/`to`) and
   * words in the messages (`q`); cursor-paginated. The transcript of one is `chat.history({conversation_id})`.
   */
  list(query: ConversationListQuery = {}, options?: RequestOptions): Promise<ApiResult<Page<Conversation>>> {
    return this.core.request({ method: 'GET', path: '/conversations', query: { ...query } }, options);
  }

  get(conversationId: string, options?: RequestOptions): Promise<ApiResult<Conversation>> {
    return this.core.request({ method: 'GET', path: `/conversations/${segment(conversationId, 'conversationId')}` }, options);
  }

  /** `GET /conversations/{id}/feedback`: every rater's feedback on its answers (thumb, reason, comment). */
  feedback(conversationId: string, options?: RequestOptions): Promise<ApiResult<{ items: Feedback[] }>> {
    return this.core.request({ method: 'GET', path: `/conversations/${segment(conversationId, 'conversationId')}/feedback` }, options);
  }

  /** `POST /conversations/{id}/labels`: puts labels on and takes labels off, at once; answers the labels it has now. */
  labels(conversationId: string, update: LabelsUpdate, options?: RequestOptions): Promise<ApiResult<ConversationLabels>> {
    return this.core.request({ method: 'POST', path: `/conversations/${segment(conversationId, 'conversationId')}/labels`, body: update }, options);
  }

  /** `DELETE /conversations/{id}`: the conversation goes with its messages. */
  delete(conversationId: string, options?: RequestOptions): Promise<ApiResult<Deletion>> {
    return this.core.request({ method: 'DELETE', path: `/conversations/${segment(conversationId, 'conversationId')}` }, options);
  }
}
