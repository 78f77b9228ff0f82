/**
 * The performance and topics reports: assistant replies in a range, optionally of one agent or bot.
 * Whole hours come from the rollups (migration 008), the partial hours at the ends from the raw
 * messages (`rollups.ts`); each query adds both parts up in the same way the raw aggregate would.
 */
import { sql, type Kysely } from 'kysely';
import type { PerformanceReport, TopicsReport } from '../../../src/client/types.ts';
import { realConversations } from '../conversations/test-conversations.ts';
import type { TimeRange } from './range.ts';
import { inRawSpans, inWholeHours, percentileCont, type RangePlan, type RollupDatabase } from './rollups.ts';

export interface ReplyData {
  db: Kysely<RollupDatabase>;
  accountId: string;
  agentId?: string;
  botId?: string;
  range: TimeRange;
  plan: RangePlan;
}

export const round = (value: number | string | null, digits = 2): number | null => {
  if (value === null) return null;
  const factor = 10 ** digits;
  return Math.round(Number(value) * factor) / factor;
};

/** Assistant replies in the raw spans, in conversations of this account (and agent / bot). */
function rawReplies({ db, accountId, agentId, botId, plan }: ReplyData) {
  let replies = db
    .selectFrom('messages as m')
    .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
    .where('m.account_id', '=', accountId)
    .where('c.account_id', '=', accountId)
    .where(realConversations('c'))
    .where('m.role', '=', 'assistant')
    .where(inRawSpans(plan, 'm.created_at'));
  if (agentId) replies = replies.where('c.agent_id', '=', agentId);
  if (botId) replies = replies.where('c.bot_id', '=', botId);
  return replies;
}

type GrainRollup = 'reply_rollups' | 'intent_rollups' | 'unanswered_rollups';

/** Rows of a rollup with grains in the plan's whole hours, of the agent / bot asked for or of the whole account ('*'). */
function rolled<T extends GrainRollup>({ db, accountId, agentId, botId, plan }: ReplyData, table: T) {
  let rows = db.selectFrom(table as GrainRollup).where('account_id', '=', accountId).where(inWholeHours(plan));
  if (agentId) rows = rows.where('agent_id', '=', agentId);
  if (botId) rows = rows.where('bot_id', '=', botId);
  if (!agentId && !botId) rows = rows.where('bot_id', '=', '*').where('agent_id', '=', '*');
  return rows;
}

/** Each conversation's last reply per whole hour of the plan. */
function rolledConversations({ db, accountId, agentId, botId, plan }: ReplyData) {
  let rows = db.selectFrom('reply_conversation_rollups').where('account_id', '=', accountId);
  rows = plan.hours ? rows.where('hour', '>=', plan.hours.from).where('hour', '<', plan.hours.before) : rows.where(sql<boolean>`false`);
  if (agentId) rows = rows.where('agent_id', '=', agentId);
  if (botId) rows = rows.where('bot_id', '=', botId);
  return rows;
}

export async function performanceReport(data: ReplyData, query: { agent_id?: string; bot_id?: string }): Promise<PerformanceReport> {
  const { db, range } = data;
  // Per latency (integer milliseconds, -1 for none), one read of the replies for both: the counts
  // add up to the totals, and the latencies make the exact histogram (percentiles as percentile_cont).
  const perLatency = await rawReplies(data)
    .select([
      sql<number>`coalesce(m.latency_ms, -1)`.as('latency'),
      sql<string>`count(*)`.as('replies'),
      sql<string>`count(*) filter (where m.source = 'fallback')`.as('fallbacks'),
      sql<number>`coalesce(sum(m.confidence), 0)`.as('confidence_sum'),
      sql<string>`count(m.confidence)`.as('confidences'),
    ])
    .groupBy(sql`1`)
    .unionAll(
      rolled(data, 'reply_rollups')
        .select([
          sql<number>`latency_ms`.as('latency'),
          sql<string>`sum(replies)`.as('replies'),
          sql<string>`sum(fallbacks)`.as('fallbacks'),
          sql<number>`sum(confidence_sum)`.as('confidence_sum'),
          sql<string>`sum(confidences)`.as('confidences'),
        ])
        .groupBy('latency_ms'),
    )
    .execute();
  const sums = { replies: 0, fallbacks: 0, confidenceSum: 0, confidences: 0 };
  const histogram = new Map<number, number>();
  for (const row of perLatency) {
    sums.replies += Number(row.replies);
    sums.fallbacks += Number(row.fallbacks);
    sums.confidenceSum += Number(row.confidence_sum);
    sums.confidences += Number(row.confidences);
    const latency = Number(row.latency);
    if (latency >= 0) histogram.set(latency, (histogram.get(latency) ?? 0) + Number(row.replies));
  }

  // A conversation is resolved when its last reply in range did not fall back.
  const lastReplies = rawReplies(data)
    .select(['m.conversation_id as conversation_id', sql<string>`m.seq`.as('seq'), sql<boolean>`coalesce(m.source = 'fallback', false)`.as('fallback')])
    .unionAll(rolledConversations(data).select(['conversation_id', sql<string>`last_seq`.as('seq'), sql<boolean>`last_fallback`.as('fallback')]));
  // The last reply of each conversation as one number, seq × 2 + (1 if it fell back): its max
  // is the last reply and says whether that fell back, so a hash aggregate replaces a sort.
  const latest = db
    .selectFrom(lastReplies.as('r'))
    .select([sql<string>`max(r.seq::bigint * 2 + r.fallback::int)`.as('last')])
    .groupBy('r.conversation_id');
  const conversations = await db
    .selectFrom(latest.as('l'))
    .select([sql<string>`count(*)`.as('count'), sql<string>`count(*) filter (where l.last % 2 = 0)`.as('resolved')])
    .executeTakeFirstOrThrow();
  const conversationCount = Number(conversations.count);

  return {
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    agent_id: query.agent_id ?? null,
    bot_id: query.bot_id ?? null,
    replies: sums.replies,
    latency_ms: { p50: round(percentileCont(histogram, 0.5)), p95: round(percentileCont(histogram, 0.95)), p99: round(percentileCont(histogram, 0.99)) },
    fallback_rate: sums.replies ? round(sums.fallbacks / sums.replies, 4) : null,
    mean_confidence: sums.confidences ? round(sums.confidenceSum / sums.confidences, 4) : null,
    resolution_rate: conversationCount ? round(Number(conversations.resolved) / conversationCount, 4) : null,
    conversations: conversationCount,
  };
}

export async function topicsReport(data: ReplyData, query: { agent_id?: string; bot_id?: string; limit: number }): Promise<TopicsReport> {
  const { db, accountId, range } = data;
  const intentCounts = rawReplies(data)
    .where('m.intent', 'is not', null)
    .select([sql<string>`m.intent`.as('intent'), sql<string>`count(*)`.as('count')])
    .groupBy('m.intent')
    .unionAll(rolled(data, 'intent_rollups').select([sql<string>`intent`.as('intent'), sql<string>`sum(replies)`.as('count')]).groupBy('intent'));
  const intents = await db
    .selectFrom(intentCounts.as('i'))
    .select(['i.intent', sql<string>`sum(i.count)`.as('count')])
    .groupBy('i.intent')
    .orderBy('count', 'desc')
    .orderBy('i.intent')
    .limit(query.limit)
    .execute();

  const asked = rawReplies(data)
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
    )
    .select([
      sql<string>`lower(btrim(u.content))`.as('question_key'),
      sql<string>`left(btrim((array_agg(u.content order by u.created_at desc))[1]), 200)`.as('question'),
      sql<string>`count(*)`.as('count'),
      sql<Date>`max(u.created_at)`.as('last_asked_at'),
    ])
    .groupBy(sql`lower(btrim(u.content))`)
    .unionAll(
      rolled(data, 'unanswered_rollups').select([
        sql<string>`question_key`.as('question_key'),
        sql<string>`question`.as('question'),
        sql<string>`asked`.as('count'),
        sql<Date>`last_asked_at`.as('last_asked_at'),
      ]),
    );
  const unanswered = await db
    .selectFrom(asked.as('a'))
    .select([
      sql<string>`(array_agg(a.question order by a.last_asked_at desc))[1]`.as('question'),
      sql<string>`sum(a.count)`.as('count'),
      sql<Date>`max(a.last_asked_at)`.as('last_asked_at'),
    ])
    .groupBy('a.question_key')
    .orderBy('count', 'desc')
    .orderBy('last_asked_at', 'desc')
    .limit(query.limit)
    .execute();

  return {
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    agent_id: query.agent_id ?? null,
    bot_id: query.bot_id ?? null,
    intents: intents.map((row) => ({ intent: row.intent, count: Number(row.count) })),
    unanswered: unanswered.map((row) => ({
      question: row.question,
      count: Number(row.count),
      last_asked_at: new Date(row.last_asked_at).toISOString(),
    })),
  };
}
