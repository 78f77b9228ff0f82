/** `/v1/analytics`: usage (requests, errors, messages, conversations over time), reply performance, topics, feedback and support (CSAT, response times). */
import { Hono } from 'hono';
import { accountId, type AppEnv } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { readQuery } from '../http/validate.ts';
import { feedbackReportQuerySchema } from '../feedback/schema.ts';
import type { FeedbackReportQuery } from '../feedback/report.ts';
import type { AnalyticsReports, PerformanceQuery, TopicsQuery, UsageQuery } from './reports.ts';
import type { FeedbackService } from '../feedback/service.ts';
import type { CsatService } from '../csat/service.ts';
import type { SupportReportQuery } from '../csat/report.ts';
import { supportQuerySchema } from '../csat/schema.ts';
import { performanceQuerySchema, topicsQuerySchema, usageQuerySchema } from './schema.ts';

/** What these routes use of the service graph (services.ts builds it). */
export interface AnalyticsRouteDeps {
  analytics: AnalyticsReports;
  feedback: FeedbackService;
  csat: CsatService;
}

export function analyticsRoutes(deps: AnalyticsRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  router.get('/usage', async (c) => {
    const query = readQuery<UsageQuery>(c, usageQuerySchema);
    return ok(c, await deps.analytics.usageReport(accountId(c), query));
  });
  router.get('/performance', async (c) => {
    const query = readQuery<PerformanceQuery>(c, performanceQuerySchema);
    return ok(c, await deps.analytics.performanceReport(accountId(c), query));
  });
  router.get('/topics', async (c) => {
    const query = readQuery<TopicsQuery>(c, topicsQuerySchema);
    return ok(c, await deps.analytics.topicsReport(accountId(c), query));
  });
  router.get('/feedback', async (c) => {
    const query = readQuery<FeedbackReportQuery>(c, feedbackReportQuerySchema);
    return ok(c, await deps.feedback.report(accountId(c), query));
  });
  router.get('/support', async (c) => {
    const query = readQuery<SupportReportQuery>(c, supportQuerySchema);
    return ok(c, await deps.csat.report(accountId(c), query));
  });
  return router;
}
