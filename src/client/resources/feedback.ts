/**
 * `/messages/{message_id}/feedback`: rate an assistant answer, change the rating, take it back. Its
 * own resource, so the widget's client (src/widget/connection/widget-client.ts) carries only this of the
 * admin-side code. The report is `analytics.feedback()`.
 */
import { segment, type HttpCore } from '../http.js';
import type { ApiResult, RequestOptions } from '../options.js';
import type { Deletion, Feedback, FeedbackRequest, FeedbackScope } from '../types.js';

export class FeedbackResource {
  constructor(private readonly core: HttpCore) {}

  /**
   * `POST /messages/{id}/feedback`: thumbs up or down (with a reason after a thumbs down). Given
   * again, it replaces the rater's earlier feedback. The rater is the conversation's `user_id`.
   */
  give(messageId: string, body: FeedbackRequest, options?: RequestOptions): Promise<ApiResult<Feedback>> {
    return this.core.request({ method: 'POST', path: `/messages/${segment(messageId, 'messageId')}/feedback`, body }, options);
  }

  /** `DELETE /messages/{id}/feedback`: takes the rater's feedback back (404 when there is none). */
  delete(messageId: string, scope: FeedbackScope = {}, options?: RequestOptions): Promise<ApiResult<Deletion>> {
    return this.core.request({ method: 'DELETE', path: `/messages/${segment(messageId, 'messageId')}/feedback`, query: { ...scope } }, options);
  }
}
