/**
 * Satisfaction (CSAT): a visitor rates a conversation 1–5 once, whether the bot's settings ask for
 * it, and those settings. Its own resource, so the widget's survey (an add-on) carries only this of
 * the admin-side code. The report is `analytics.support()`.
 */
import { segment, type HttpCore } from '../http.js';
import type { ApiResult, RequestOptions } from '../options.js';
import type { Csat, CsatRequest, CsatSettings, CsatSettingsInput, CsatState } from '../types.js';
import type { HandoffScope } from './handoff.js';

export class CsatResource {
  constructor(private readonly core: HttpCore) {}

  /** `GET /conversations/{id}/csat`: whether to ask for a rating, and the rating given (null until then). */
  state(conversationId: string, scope: HandoffScope = {}, options?: RequestOptions): Promise<ApiResult<CsatState>> {
    return this.core.request({ method: 'GET', path: `/conversations/${segment(conversationId, 'conversationId')}/csat`, query: { ...scope } }, options);
  }

  /** `POST /conversations/{id}/csat`: the conversation's one rating (409 `csat_already_given` for a second). */
  give(conversationId: string, body: CsatRequest, options?: RequestOptions): Promise<ApiResult<Csat>> {
    return this.core.request({ method: 'POST', path: `/conversations/${segment(conversationId, 'conversationId')}/csat`, body }, options);
  }

  /** `GET /bots/{id}/csat`: when the widget asks for a rating. */
  settings(botId: string, options?: RequestOptions): Promise<ApiResult<CsatSettings>> {
    return this.core.request({ method: 'GET', path: `/bots/${segment(botId, 'botId')}/csat` }, options);
  }

  /** `PUT /bots/{id}/csat`. */
  updateSettings(botId: string, settings: CsatSettingsInput, options?: RequestOptions): Promise<ApiResult<CsatSettings>> {
    return this.core.request({ method: 'PUT', path: `/bots/${segment(botId, 'botId')}/csat`, body: settings }, options);
  }
}
