/**
 * The analytics reports, computed from recorded traffic only: `api_requests` (every /v1 request, see
 * `recorder.ts`) and the stored conversations and messages. Every query is scoped to one account.
 * Whole hours of a range are read from the hourly rollups of migration 008, the partial hours at its
 * ends from the raw rows (`rollups.ts`): the same answers as scanning the raw rows, in time that does
 * not grow with the traffic of the range.
 */
import { sql, type Kysely, type SqlBool } from 'kysely';
import type {
  Granularity,
  PerformanceQuery,
  PerformanceReport,
  TopicsQuery as WireTopicsQuery,
  TopicsReport,
  UsageBucket,
  UsageQuery as WireUsageQuery,
  UsageReport,
} from '../../../src/client/types.ts';
import { inRealConversation, realConversations } from '../conversations/test-conversations.ts';
import type { Database } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { deletionsPerBucket, noDeletions } from './deletions.ts';
import type { UsageRecorder } from './recorder.ts';
import { bucketOf, bucketStarts, hoursFitBuckets, resolveRange, type TimeRange } from './range.ts';
import { performanceReport, topicsReport, type ReplyData } from './reply-reports.ts';
import { inRawSpans, planRange, withRollups } from './rollups.ts';

export type { PerformanceQuery };
/** The wire queries as the route reads them: the schema's defaults filled in. */
export type UsageQuery = WireUsageQuery & { granularity: Granularity };
export type TopicsQuery = WireTopicsQuery & { limit: number };

type UsageCounts = Pick<UsageBucket, 'requests' | 'errors' | 'messages' | 'conversations'>;

export class AnalyticsReports {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly usage: UsageRecorder,
    /** false: every report scans the raw rows (the reference the rollup tests compare with). */
    private readonly rollups = true,
  ) {}

  async usageReport(accountId: string, query: UsageQuery): Promise<UsageReport> {
    // Flush first: a request answered just before this one is written with created_at = its insert
    // time, which must not fall after the default `to` (now).
    await this.usage.flush();
    const range = resolveRange(query);
    const starts = bucketStarts(range, query.granularity);
    const bucket = (column: string) => bucketOf(column, query.granularity, range.timeZone);
    // hourly rollups fit the buckets only in a zone a whole number of hours from UTC
    const plan = planRange(range, this.rollups && hoursFitBuckets(range, starts));
    const db = withRollups(this.db);
    const hours = plan.hours ?? { from: range.from, before: range.from }; // an empty span: no rollup rows

    const rawRequests = db
      .selectFrom('api_requests')
      .where('account_id', '=', accountId)
      .where(inRawSpans(plan, 'created_at'));
    const rolledRequests = db
      .selectFrom('request_rollups')
      .where('account_id', '=', accountId)
      .where('hour', '>=', hours.from)
      .where('hour', '<', hours.before);
    // Rows created per bucket, for the tables whose creation is the thing counted.
    // Test conversations and their messages count nowhere, nor do private notes (the rollups skip them too).
    const rawCreated = (table: 'messages' | 'conversations', key: 'messages' | 'conversations') =>
      db
        .selectFrom(table)
        .select([bucket('created_at').as('start'), sql.lit(key).as('key'), sql<string>`count(*)`.as('count')])
        .where('account_id', '=', accountId)
        .where(inRawSpans(plan, 'created_at'))
        .where(table === 'conversations' ? realConversations('conversations') : sql<SqlBool>`messages.role <> 'note' and ${inRealConversation('messages.conversation_id', 'messages.account_id')}`)
        .groupBy(sql`1`);
    const rolledCreated = (key: 'messages' | 'conversations') =>
      db
        .selectFrom('usage_rollups')
        .select([bucket('hour').as('start'), sql.lit(key).as('key'), sql<string>`sum(${sql.ref(key)})`.as('count')])
        .where('account_id', '=', accountId)
        .where('hour', '>=', hours.from)
        .where('hour', '<', hours.before)
        .groupBy(sql`1`);
    const counts = await rawRequests
      .select([bucket('created_at').as('start'), sql.lit('requests').as('key'), sql<string>`count(*)`.as('count')])
      .groupBy(sql`1`)
      .unionAll(rawRequests.select([bucket('created_at').as('start'), sql.lit('errors').as('key'), sql<string>`count(*)`.as('count')]).where('status', '>=', 400).groupBy(sql`1`))
      .unionAll(rolledRequests.select([bucket('hour').as('start'), sql.lit('requests').as('key'), sql<string>`sum(requests)`.as('count')]).groupBy(sql`1`))
      .unionAll(
        rolledRequests.select([bucket('hour').as('start'), sql.lit('errors').as('key'), sql<string>`sum(requests)`.as('count')]).where('status', '>=', 400).groupBy(sql`1`),
      )
      .unionAll(rawCreated('messages', 'messages'))
      .unionAll(rawCreated('conversations', 'conversations'))
      .unionAll(rolledCreated('messages'))
      .unionAll(rolledCreated('conversations'))
      .execute();
    const deletions = await deletionsPerBucket(this.db, accountId, range, bucket);
    const endpointCounts = rawRequests
      .select(['method', 'route', 'status', sql<string>`count(*)`.as('count')])
      .groupBy(['method', 'route', 'status'])
      .unionAll(rolledRequests.select(['method', 'route', 'status', sql<string>`sum(requests)`.as('count')]).groupBy(['method', 'route', 'status']));
    const endpoints = await db
      .selectFrom(endpointCounts.as('e'))
      .select(['e.method', 'e.route', 'e.status', sql<string>`sum(e.count)`.as('count')])
      .groupBy(['e.method', 'e.route', 'e.status'])
      .orderBy(sql`sum(e.count)`, 'desc')
      .orderBy('e.route')
      .orderBy('e.method')
      .orderBy('e.status')
      .execute();

    const series = new Map<number, UsageBucket>(
      starts.map((start) => [
        start.getTime(),
        { start: start.toISOString(), requests: 0, errors: 0, messages: 0, conversations: 0, deleted: deletions.get(start.getTime()) ?? noDeletions() },
      ]),
    );
    for (const row of counts) {
      const b = series.get(new Date(row.start).getTime());
      if (b) b[row.key as keyof UsageCounts] += Number(row.count);
    }
    const buckets = [...series.values()];
    const sum = (key: keyof UsageCounts) => buckets.reduce((n, b) => n + b[key], 0);
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
    await this.assertOwners(accountId, query);
    return performanceReport(this.replyData(accountId, query, range), query);
  }

  /**
   * What replies were about: the intents they answered with, and the questions that got a fallback
   * (each fallback reply paired with the user message just before it in its conversation).
   */
  async topicsReport(accountId: string, query: TopicsQuery): Promise<TopicsReport> {
    const range = resolveRange(query);
    await this.assertOwners(accountId, query);
    return topicsReport(this.replyData(accountId, query, range), query);
  }

  private replyData(accountId: string, query: PerformanceQuery, range: TimeRange): ReplyData {
    return { db: withRollups(this.db), accountId, agentId: query.agent_id, botId: query.bot_id, range, plan: planRange(range, this.rollups) };
  }

  /** 404 for an agent or bot that is not this account's. */
  private async assertOwners(accountId: string, query: PerformanceQuery): Promise<void> {
    if (query.agent_id) await this.assertExists(accountId, 'agents', query.agent_id, 'agent_id', 'agent');
    if (query.bot_id) await this.assertExists(accountId, 'bots', query.bot_id, 'bot_id', 'bot');
  }

  private async assertExists(accountId: string, table: 'agents' | 'bots', id: string, param: string, what: string): Promise<void> {
    const row = await this.db.selectFrom(table).select('id').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound(param, what);
  }
}
