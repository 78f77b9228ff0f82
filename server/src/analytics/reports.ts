/**
 * The analytics reports, computed from recorded traffic only: `api_requests` (every /v1 request, see
 * `recorder.ts`) and the stored conversations and messages. Every query is scoped to one account.
 */
import { sql, type Kysely } from 'kysely';
import type { Granularity, PerformanceReport, TopicsReport, UsageBucket, UsageReport } from '../../../src/client/types.ts';
import type { Database } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { deletionsPerBucket, noDeletions } from './deletions.ts';
import type { UsageRecorder } from './recorder.ts';
import { bucketStarts, resolveRange, type TimeRange } from './range.ts';

export interface UsageQuery {
  from?: string;
  to?: string;
  granularity: Granularity;
}

export interface PerformanceQuery {
  agent_id?: string;
  bot_id?: string;
  from?: string;
  to?: string;
}

export interface TopicsQuery extends PerformanceQuery {
  limit: number;
}

const round = (value: number | string | null, digits = 2): number | null => {
  if (value === null) return null;
  const factor = 10 ** digits;
  return Math.round(Number(value) * factor) / factor;
};

export class AnalyticsReports {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly usage: UsageRecorder,
  ) {}

  async usageReport(accountId: string, query: UsageQuery): Promise<UsageReport> {
    // Flush first: a request answered just before this one is written with created_at = its insert
    // time, which must not fall after the default `to` (now).
    await this.usage.flush();
    const range = resolveRange(query);
    const starts = bucketStarts(range, query.granularity);
    const unit = sql.lit(query.granularity);
    const bucket = (column: string) => sql<Date>`date_trunc(${unit}, ${sql.ref(column)} at time zone 'UTC') at time zone 'UTC'`;

    const requests = await this.db
      .selectFrom('api_requests')
      .select([
        bucket('created_at').as('start'),
        sql<string>`count(*)`.as('requests'),
        sql<string>`count(*) filter (where status >= 400)`.as('errors'),
      ])
      .where('account_id', '=', accountId)
      .where('created_at', '>=', range.from)
      .where('created_at', '<', range.before)
      .groupBy(sql`1`)
      .execute();
    // Rows created per bucket, for the tables whose creation is the thing counted.
    const createdPerBucket = (table: 'messages' | 'conversations') =>
      this.db
        .selectFrom(table)
        .select([bucket('created_at').as('start'), sql<string>`count(*)`.as('count')])
        .where('account_id', '=', accountId)
        .where('created_at', '>=', range.from)
        .where('created_at', '<', range.before)
        .groupBy(sql`1`)
        .execute();
    const messages = await createdPerBucket('messages');
    const conversations = await createdPerBucket('conversations');
    const deletions = await deletionsPerBucket(this.db, accountId, range, bucket);
    const endpoints = await this.db
      .selectFrom('api_requests')
      .select(['method', 'route', 'status', sql<string>`count(*)`.as('count')])
      .where('account_id', '=', accountId)
      .where('created_at', '>=', range.from)
      .where('created_at', '<', range.before)
      .groupBy(['method', 'route', 'status'])
      .orderBy(sql`count(*)`, 'desc')
      .orderBy('route')
      .orderBy('method')
      .orderBy('status')
      .execute();

    const series = new Map<number, UsageBucket>(
      starts.map((start) => [
        start.getTime(),
        { start: start.toISOString(), requests: 0, errors: 0, messages: 0, conversations: 0, deleted: deletions.get(start.getTime()) ?? noDeletions() },
      ]),
    );
    const at = (start: Date) => series.get(new Date(start).getTime());
    for (const row of requests) {
      const b = at(row.start);
      if (b) {
        b.requests = Number(row.requests);
        b.errors = Number(row.errors);
      }
    }
    for (const row of messages) {
      const b = at(row.start);
      if (b) b.messages = Number(row.count);
    }
    for (const row of conversations) {
      const b = at(row.start);
      if (b) b.conversations = Number(row.count);
    }
    const buckets = [...series.values()];
    const sum = (key: 'requests' | 'errors' | 'messages' | 'conversations') => buckets.reduce((n, b) => n + b[key], 0);
    const deleted = noDeletions();
    for (const b of buckets) for (const key of Object.keys(deleted) as (keyof typeof deleted)[]) deleted[key] += b.deleted[key];
    return {
      from: range.from.toISOString(),
      to: range.to.toISOString(),
      granularity: query.granularity,
      totals: { requests: sum('requests'), errors: sum('errors'), messages: sum('messages'), conversations: sum('conversations'), deleted },
      series: buckets,
      endpoints: endpoints.map((e) => ({ method: e.method, route: e.route, status: e.status, count: Number(e.count) })),
    };
  }

  async performanceReport(accountId: string, query: PerformanceQuery): Promise<PerformanceReport> {
    const range = resolveRange(query);
    const replies = await this.replies(accountId, query, range);

    const stats = await replies
      .select([
        sql<string>`count(*)`.as('replies'),
        sql<string>`count(distinct m.conversation_id)`.as('conversations'),
        sql<number | null>`percentile_cont(0.5) within group (order by m.latency_ms)`.as('p50'),
        sql<number | null>`percentile_cont(0.95) within group (order by m.latency_ms)`.as('p95'),
        sql<number | null>`percentile_cont(0.99) within group (order by m.latency_ms)`.as('p99'),
        sql<number | null>`avg(case when m.source = 'fallback' then 1.0 else 0.0 end)`.as('fallback_rate'),
        sql<number | null>`avg(m.confidence)`.as('mean_confidence'),
      ])
      .executeTakeFirstOrThrow();

    // A conversation is resolved when its last reply in range did not fall back.
    const last = await replies
      .select(['m.conversation_id', 'm.source'])
      .distinctOn('m.conversation_id')
      .orderBy('m.conversation_id')
      .orderBy('m.seq', 'desc')
      .execute();
    const resolved = last.filter((r) => r.source !== 'fallback').length;

    return {
      from: range.from.toISOString(),
      to: range.to.toISOString(),
      agent_id: query.agent_id ?? null,
      bot_id: query.bot_id ?? null,
      replies: Number(stats.replies),
      latency_ms: { p50: round(stats.p50), p95: round(stats.p95), p99: round(stats.p99) },
      fallback_rate: round(stats.fallback_rate, 4),
      mean_confidence: round(stats.mean_confidence, 4),
      resolution_rate: last.length ? round(resolved / last.length, 4) : null,
      conversations: Number(stats.conversations),
    };
  }

  /**
   * What replies were about: the intents they answered with, and the questions that got a fallback
   * (each fallback reply paired with the user message just before it in its conversation).
   */
  async topicsReport(accountId: string, query: TopicsQuery): Promise<TopicsReport> {
    const range = resolveRange(query);
    const replies = await this.replies(accountId, query, range);

    const intents = await replies
      .where('m.intent', 'is not', null)
      .select(['m.intent', sql<string>`count(*)`.as('count')])
      .groupBy('m.intent')
      .orderBy('count', 'desc')
      .orderBy('m.intent')
      .limit(query.limit)
      .execute();

    const asked = replies
      .where('m.source', '=', 'fallback')
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom('messages as u')
            .select(['u.content', 'u.created_at'])
            .whereRef('u.conversation_id', '=', 'm.conversation_id')
            .where('u.account_id', '=', accountId)
            .where('u.role', '=', 'user')
            .whereRef('u.seq', '<', 'm.seq')
            .orderBy('u.seq', 'desc')
            .limit(1)
            .as('u'),
        (join) => join.onTrue(),
      );
    const unanswered = await asked
      .select([
        sql<string>`left(btrim((array_agg(u.content order by u.created_at desc))[1]), 200)`.as('question'),
        sql<string>`count(*)`.as('count'),
        sql<Date>`max(u.created_at)`.as('last_asked_at'),
      ])
      .groupBy(sql`lower(btrim(u.content))`)
      .orderBy('count', 'desc')
      .orderBy('last_asked_at', 'desc')
      .limit(query.limit)
      .execute();

    return {
      from: range.from.toISOString(),
      to: range.to.toISOString(),
      agent_id: query.agent_id ?? null,
      bot_id: query.bot_id ?? null,
      intents: intents.map((row) => ({ intent: row.intent!, count: Number(row.count) })),
      unanswered: unanswered.map((row) => ({
        question: row.question,
        count: Number(row.count),
        last_asked_at: new Date(row.last_asked_at).toISOString(),
      })),
    };
  }

  /** Assistant replies in range, in conversations of this account (and of the agent / bot asked for, 404 if unknown). */
  private async replies(accountId: string, query: PerformanceQuery, range: TimeRange) {
    if (query.agent_id) await this.assertExists(accountId, 'agents', query.agent_id, 'agent_id', 'agent');
    if (query.bot_id) await this.assertExists(accountId, 'bots', query.bot_id, 'bot_id', 'bot');
    let replies = this.db
      .selectFrom('messages as m')
      .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
      .where('m.account_id', '=', accountId)
      .where('c.account_id', '=', accountId)
      .where('m.role', '=', 'assistant')
      .where('m.created_at', '>=', range.from)
      .where('m.created_at', '<', range.before);
    if (query.agent_id) replies = replies.where('c.agent_id', '=', query.agent_id);
    if (query.bot_id) replies = replies.where('c.bot_id', '=', query.bot_id);
    return replies;
  }

  private async assertExists(accountId: string, table: 'agents' | 'bots', id: string, param: string, what: string): Promise<void> {
    const row = await this.db.selectFrom(table).select('id').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound(param, what);
  }
}
