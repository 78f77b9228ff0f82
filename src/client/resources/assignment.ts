/**
 * `/assignment` and `/conversations/{id}/assignment`: who gets which conversation. By hand
 * (assign or transfer to a teammate, unassign), and automatically when the account turns it on.
 */
import { segment, type HttpCore } from '../http.js';
import type { ApiResult, RequestOptions } from '../options.js';
import type { AssignmentSettings, AssignmentSettingsInput, HandoffState } from '../types.js';

const path = (conversationId: string) => `/conversations/${segment(conversationId, 'conversationId')}/assignment`;

export class AssignmentResource {
  constructor(private readonly core: HttpCore) {}

  /** Whether assignment is automatic, and every operator's capacity, load and presence. */
  settings(options?: RequestOptions): Promise<ApiResult<AssignmentSettings>> {
    return this.core.request({ method: 'GET', path: '/assignment' }, options);
  }

  /** An unknown `operator_id` fails with 404 `resource_not_found` and changes nothing. */
  updateSettings(body: AssignmentSettingsInput, options?: RequestOptions): Promise<ApiResult<AssignmentSettings>> {
    return this.core.request({ method: 'PUT', path: '/assignment', body }, options);
  }

  /**
   * Gives a waiting conversation to `operatorId`, or transfers one with a person to them (any
   * presence, any load). 404 for anyone but a teammate; 409 `invalid_status_transition` unless it
   * is `waiting` or `with_person`.
   */
  assign(conversationId: string, operatorId: string, options?: RequestOptions): Promise<ApiResult<HandoffState>> {
    return this.core.request({ method: 'PUT', path: path(conversationId), body: { operator_id: operatorId } }, options);
  }

  /** Puts a conversation with a person back in the queue (automatic assignment may give it out again, to someone else). */
  unassign(conversationId: string, options?: RequestOptions): Promise<ApiResult<HandoffState>> {
    return this.core.request({ method: 'DELETE', path: path(conversationId) }, options);
  }
}
