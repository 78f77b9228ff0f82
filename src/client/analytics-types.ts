/** Analytics reports: usage, performance, topics. Part of the v1 wire contract (types.ts). */

export type Granularity = 'hour' | 'day';

export interface UsageQuery {
  /** ISO date or date-time; default 7 days before `to`. */
  from?: string;
  /** ISO date or date-time; default now. */
  to?: string;
  granularity?: Granularity;
  /** IANA time zone of the report's days (a date `from` / `to` is its midnight, buckets start at its midnights); default UTC. */
  tz?: string;
}

/** Deletions in a period, by what was deleted; `conversations` and `messages` include those deleted with a bot or agent. */
export interface DeletionCounts {
  bots: number;
  agents: number;
  knowledge_entries: number;
  conversations: number;
  messages: number;
}

export interface UsageBucket {
  /** Start of the bucket, ISO date-time. */
  start: string;
  requests: number;
  errors: number;
  /** Messages stored in the bucket and not deleted since. */
  messages: number;
  /** Conversations started in the bucket and not deleted since. */
  conversations: number;
  /** What was deleted in the bucket. */
  deleted: DeletionCounts;
}

export interface EndpointUsage {
  method: string;
  /** Route pattern, e.g. `/v1/bots/:bot_id/messages`. */
  route: string;
  status: number;
  count: number;
}

export interface UsageReport {
  from: string;
  to: string;
  granularity: Granularity;
  totals: { requests: number; errors: number; messages: number; conversations: number; deleted: DeletionCounts };
  series: UsageBucket[];
  endpoints: EndpointUsage[];
}

export interface PerformanceQuery {
  agent_id?: string;
  bot_id?: string;
  from?: string;
  to?: string;
  /** IANA time zone of a date `from` / `to`; default UTC. */
  tz?: string;
}

export interface PerformanceReport {
  from: string;
  to: string;
  agent_id: string | null;
  bot_id: string | null;
  /** Assistant replies measured. */
  replies: number;
  latency_ms: { p50: number | null; p95: number | null; p99: number | null };
  /** Share of replies that fell back (0–1), null with no replies. */
  fallback_rate: number | null;
  mean_confidence: number | null;
  /** Share of conversations whose last reply was not a fallback (0–1). */
  resolution_rate: number | null;
  conversations: number;
}

export interface TopicsQuery extends PerformanceQuery {
  /** Rows per list, 1–50. @default 10 */
  limit?: number;
}

export interface IntentCount {
  intent: string;
  /** Replies that answered with this intent. */
  count: number;
}

export interface UnansweredQuestion {
  /** The latest wording of the question (at most 200 characters); askings are grouped case-insensitively. */
  question: string;
  /** Times it was asked and the reply fell back. */
  count: number;
  last_asked_at: string;
}

export interface TopicsReport {
  from: string;
  to: string;
  agent_id: string | null;
  bot_id: string | null;
  /** The intents replies answered with, most frequent first. */
  intents: IntentCount[];
  /** The questions whose reply was a fallback, most frequent first. */
  unanswered: UnansweredQuestion[];
}
