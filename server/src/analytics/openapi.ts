/** The analytics endpoints on /v1 in the OpenAPI document (openapi/document.ts spreads them into its paths). */
import { operation } from '../openapi/operation.ts';
import { performanceQuerySchema, topicsQuerySchema, usageQuerySchema } from './schema.ts';

export function analyticsPaths(): Record<string, Record<string, unknown>> {
  return {
    '/v1/analytics/usage': {
      get: operation({
        operationId: 'getUsage',
        tag: 'Analytics',
        summary: 'API usage statistics',
        query: usageQuerySchema,
        success: [{ status: 200, data: 'UsageReport', description: 'Totals, a series with every bucket, and per-endpoint counts.' }],
        errors: [],
      }),
    },
    '/v1/analytics/performance': {
      get: operation({
        operationId: 'getPerformance',
        tag: 'Analytics',
        summary: 'Reply performance of agents and bots',
        query: performanceQuerySchema,
        success: [{ status: 200, data: 'PerformanceReport', description: 'Latency percentiles, fallback, confidence and resolution.' }],
        errors: ['NotFound'],
      }),
    },
    '/v1/analytics/topics': {
      get: operation({
        operationId: 'getTopics',
        tag: 'Analytics',
        summary: 'Top intents and top unanswered questions',
        query: topicsQuerySchema,
        success: [{ status: 200, data: 'TopicsReport', description: 'The most frequent intents, and the most frequent questions that got a fallback reply.' }],
        errors: ['NotFound'],
      }),
    },
  };
}
