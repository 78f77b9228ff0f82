/** `/analytics`: usage, reply-quality, feedback and support reports of the calling account. */
import type { HttpCore } from '../http.js';
import type { ApiResult, RequestOptions } from '../options.js';
import type {
  FeedbackQuery,
  FeedbackReport,
  SupportQuery,
  SupportReport,
  PerformanceQuery,
  PerformanceReport,
  TopicsQuery,
  TopicsReport,
  UsageQuery,
  UsageReport,
} from '../types.js';

export class AnalyticsResource {
  constructor(private readonly core: HttpCore) {}

  usage(query: UsageQuery = {}, options?: RequestOptions): Promise<ApiResult<UsageReport>> {
    return this.core.request({ method: 'GET', path: '/analytics/usage', query: { ...query } }, options);
  }

  performance(query: PerformanceQuery = {}, options?: RequestOptions): Promise<ApiResult<PerformanceReport>> {
    return this.core.request({ method: 'GET', path: '/analytics/performance', query: { ...query } }, options);
  }

  /** The most frequent intents and the most frequent questions that got a fallback reply. */
  topics(query: TopicsQuery = {}, options?: RequestOptions): Promise<ApiResult<TopicsReport>> {
    return this.core.request({ method: 'GET', path: '/analytics/topics', query: { ...query } }, options);
  }

  /** Thumbs up and down per bucket, per bot and agent, the reasons, and the answers with the most thumbs down. */
  feedback(query: FeedbackQuery = {}, options?: RequestOptions): Promise<ApiResult<FeedbackReport>> {
    return this.core.request({ method: 'GET', path: '/analytics/feedback', query: { ...query } }, options);
  }

  /** Satisfaction (CSAT) and the team's first-response and resolution times, per operator and per bot, and the newest rating comments. */
  support(query: SupportQuery = {}, options?: RequestOptions): Promise<ApiResult<SupportReport>> {
    return this.core.request({ method: 'GET', path: '/analytics/support', query: { ...query } }, options);
  }
}
