/**
 * JSON Schemas (2020-12) of the analytics endpoints: query strings (validated at the edge) and the
 * reports (documented in OpenAPI and checked by contract tests).
 */
import { schemas, type JsonSchema } from '../http/validate.ts';

/** `2026-11-23`, `2026-11-23T10:00Z`, `2026-11-23T10:00:00.000+01:00`… (a time needs a zone). */
const ISO_DATE_OR_DATE_TIME =
  '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2}))?$';

/** A query parameter holding an ISO date or date-time (parse it with `parseInstant`). */
export const instant = (what: string): JsonSchema => ({
  type: 'string',
  maxLength: 40,
  pattern: ISO_DATE_OR_DATE_TIME,
  description: `${what} (midnight in \`tz\` for a date).`,
});

const timeZone: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  description: 'IANA time zone (e.g. `Europe/Berlin`) of the report\'s days: a date `from` / `to` is its midnight, and buckets start at its midnights (or hours). Default `UTC`.',
};

export const usageQuerySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    from: instant('ISO date or date-time; default 7 days before `to`'),
    to: {
      ...instant('ISO date or date-time; default now. A date includes that whole day'),
    },
    granularity: { enum: ['hour', 'day'], default: 'day' },
    tz: timeZone,
  },
};

export const performanceQuerySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    agent_id: { ...schemas.id('agt'), description: 'Only conversations with this agent.' },
    bot_id: { ...schemas.id('bot'), description: 'Only conversations with this bot.' },
    from: instant('ISO date or date-time; default 7 days before `to`'),
    to: instant('ISO date or date-time; default now. A date includes that whole day'),
    tz: timeZone,
  },
};

export const topicsQuerySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...(performanceQuerySchema.properties as Record<string, JsonSchema>),
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 10, description: 'Rows per list.' },
  },
};

/** What every report says about deletes (stored traffic only). */
const STORED_TRAFFIC =
  'Counts stored traffic: a deleted conversation (also with its bot or agent) is no longer counted in any report, from the moment of the delete.';

const count: JsonSchema = { type: 'integer', minimum: 0 };
const share: JsonSchema = { type: ['number', 'null'], minimum: 0, maximum: 1 };
const dateTime: JsonSchema = { type: 'string', format: 'date-time' };

const deletionCounts: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['bots', 'agents', 'knowledge_entries', 'conversations', 'messages'],
  description: 'Deletions, by what was deleted. `conversations` and `messages` include those deleted with a bot or an agent.',
  properties: { bots: count, agents: count, knowledge_entries: count, conversations: count, messages: count },
};

export const usageReportSchema: JsonSchema = {
  type: 'object',
  description: `${STORED_TRAFFIC} Its messages and conversations are those still stored; requests stay counted, and \`deleted\` says what deletes removed.`,
  additionalProperties: false,
  required: ['from', 'to', 'granularity', 'totals', 'series', 'endpoints'],
  properties: {
    from: dateTime,
    to: dateTime,
    granularity: { enum: ['hour', 'day'] },
    totals: {
      type: 'object',
      additionalProperties: false,
      required: ['requests', 'errors', 'messages', 'conversations', 'deleted'],
      properties: { requests: count, errors: count, messages: count, conversations: count, deleted: deletionCounts },
    },
    series: {
      type: 'array',
      description: 'Every bucket of the range, oldest first, including empty ones.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['start', 'requests', 'errors', 'messages', 'conversations', 'deleted'],
        properties: { start: dateTime, requests: count, errors: count, messages: count, conversations: count, deleted: deletionCounts },
      },
    },
    endpoints: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['method', 'route', 'status', 'count'],
        properties: {
          method: { type: 'string' },
          route: { type: 'string', description: 'Route pattern, e.g. `/v1/bots/:bot_id/messages`.' },
          status: { type: 'integer' },
          count,
        },
      },
    },
  },
};

const millis: JsonSchema = { type: ['number', 'null'], minimum: 0 };

export const performanceReportSchema: JsonSchema = {
  type: 'object',
  description: STORED_TRAFFIC,
  additionalProperties: false,
  required: [
    'from', 'to', 'agent_id', 'bot_id', 'replies', 'latency_ms', 'fallback_rate', 'mean_confidence',
    'resolution_rate', 'conversations',
  ],
  properties: {
    from: dateTime,
    to: dateTime,
    agent_id: { type: ['string', 'null'] },
    bot_id: { type: ['string', 'null'] },
    replies: count,
    latency_ms: {
      type: 'object',
      description:
        'Exact percentiles (as PostgreSQL percentile_cont) of the replies\' latencies in whole milliseconds, rounded to 0.01 ms; null without replies. Exact also over long ranges: the hourly and daily rollups keep every latency value, not buckets.',
      additionalProperties: false,
      required: ['p50', 'p95', 'p99'],
      properties: { p50: millis, p95: millis, p99: millis },
    },
    fallback_rate: share,
    mean_confidence: share,
    resolution_rate: share,
    conversations: count,
  },
};

export const topicsReportSchema: JsonSchema = {
  type: 'object',
  description: STORED_TRAFFIC,
  additionalProperties: false,
  required: ['from', 'to', 'agent_id', 'bot_id', 'intents', 'unanswered'],
  properties: {
    from: dateTime,
    to: dateTime,
    agent_id: { type: ['string', 'null'] },
    bot_id: { type: ['string', 'null'] },
    intents: {
      type: 'array',
      description: 'The intents replies answered with, most frequent first.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['intent', 'count'],
        properties: { intent: { type: 'string' }, count },
      },
    },
    unanswered: {
      type: 'array',
      description: 'Questions whose reply was a fallback, grouped case-insensitively, most frequent first.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['question', 'count', 'last_asked_at'],
        properties: {
          question: { type: 'string', maxLength: 200, description: 'The latest wording, at most 200 characters.' },
          count,
          last_asked_at: dateTime,
        },
      },
    },
  },
};
