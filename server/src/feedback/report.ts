/**
 * `GET /v1/analytics/feedback`: thumbs up and down per bucket, per bot and agent, the reasons, and
 * the answers with the most thumbs down. Everything is read from `message_feedback` alone (the
 * conversation's bot and agent and the answer's text hash were copied in when the feedback was
 * given, migration 013) in three steps that stay cheap on large accounts:
 *
 * 1. one index-only scan of the range, grouped by bucket, bot, agent, rating and reason: a few rows
 *    from which the series, the totals, the owners and the reasons are summed here;
 * 2. one index-only scan grouped by answer: the answers with the most thumbs down;
 * 3. per listed answer, one probe of the partial index of thumbs down for its latest message;
 * 4. the newest comments: the range's index read backwards until `limit` rows with a comment.
 */
import { sql, type Kysely } from 'kysely';
import type { FeedbackComment, FeedbackCounts, FeedbackQuery, FeedbackRating, FeedbackReason, FeedbackReport } from '../../../src/client/types.ts';
import { bucketOf, bucketStarts, resolveRange, type TimeRange } from '../analytics/range.ts';
import { inRealConversation } from '../conversations/test-conversations.ts';
import { iso } from '../db/json.ts';
import type { Database } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { ANSWER_PREVIEW } from './schema.ts';

export type FeedbackReportQuery = FeedbackQuery & Required<Pick<FeedbackQuery, 'limit' | 'granularity'>>;

type Owner = FeedbackCounts & { bot_id: string | null; agent_id: string | null };

const ups = sql<string>`count(*) filter (where f.rating = 'up')`;
const downs = sql<string>`count(*) filter (where f.rating = 'down')`;

/** The feedback rows of one account and range (and bot or agent): what every part of the report reads. */
function feedbackInRange(db: Kysely<Database>, accountId: string, range: TimeRange, query: FeedbackQuery) {
  let inRange = db
    .selectFrom('message_feedback as f')
    .where('f.account_id', '=', accountId)
    .where('f.updated_at', '>=', range.from)
    .where('f.updated_at', '<', range.before)
    .where(inRealConversation('f.conversation_id', 'f.account_id'));
  if (query.bot_id) inRange = inRange.where('f.bot_id', '=', query.bot_id);
  if (query.agent_id) inRange = inRange.where('f.agent_id', '=', query.agent_id);
  return inRange;
}

type FeedbackInRange = ReturnType<typeof feedbackInRange>;

/** As SQL orders text ascending: nulls last. */
const byId = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);

export async function feedbackReport(db: Kysely<Database>, accountId: string, query: FeedbackReportQuery): Promise<FeedbackReport> {
  const range = resolveRange(query);
  const starts = bucketStarts(range, query.granularity);
  if (query.bot_id) await assertOwned(db, accountId, 'bots', query.bot_id, 'bot_id', 'bot');
  if (query.agent_id) await assertOwned(db, accountId, 'agents', query.agent_id, 'agent_id', 'agent');
  const inRange = feedbackInRange(db, accountId, range, query);

  const [groups, answers, comments] = await Promise.all([
    inRange
      .select([
        bucketOf('f.updated_at', query.granularity, range.timeZone).as('start'),
        'f.bot_id',
        'f.agent_id',
        'f.rating',
        'f.reason',
        sql<string>`count(*)`.as('count'),
      ])
      .groupBy([sql`1`, 'f.bot_id', 'f.agent_id', 'f.rating', 'f.reason'])
      .execute(),
    mostDownvoted(db, inRange, accountId, range, query),
    recentComments(inRange, query.limit),
  ]);

  const series = new Map(starts.map((start) => [start.getTime(), { start: start.toISOString(), up: 0, down: 0 }]));
  const owners = new Map<string, Owner>();
  const reasons = new Map<FeedbackReason, number>();
  for (const row of groups) {
    const count = Number(row.count);
    const rating = row.rating as 'up' | 'down';
    const bucket = series.get(new Date(row.start).getTime());
    if (bucket) bucket[rating] += count;
    const key = `${row.bot_id}\u0000${row.agent_id}`;
    const owner = owners.get(key) ?? { bot_id: row.bot_id, agent_id: row.agent_id, up: 0, down: 0 };
    owner[rating] += count;
    owners.set(key, owner);
    if (rating === 'down' && row.reason) reasons.set(row.reason as FeedbackReason, (reasons.get(row.reason as FeedbackReason) ?? 0) + count);
  }
  const totals = { up: 0, down: 0 };
  for (const bucket of series.values()) {
    totals.up += bucket.up;
    totals.down += bucket.down;
  }
  return {
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    granularity: query.granularity,
    agent_id: query.agent_id ?? null,
    bot_id: query.bot_id ?? null,
    totals,
    series: [...series.values()],
    owners: [...owners.values()]
      .sort((a, b) => b.up + b.down - (a.up + a.down) || byId(a.bot_id, b.bot_id) || byId(a.agent_id, b.agent_id))
      .slice(0, query.limit),
    reasons: [...reasons]
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
      .map(([reason, count]) => ({ reason, count })),
    most_downvoted: answers,
    comments,
  };
}

/** The newest feedback with a comment, each with an excerpt of the answer it is about. */
async function recentComments(inRange: FeedbackInRange, limit: number): Promise<FeedbackComment[]> {
  const rows = await inRange
    .innerJoin('messages as m', 'm.id', 'f.message_id')
    .select([
      'f.message_id', 'f.conversation_id', 'f.bot_id', 'f.agent_id', 'f.rating', 'f.reason', 'f.comment', 'f.updated_at',
      sql<string>`left(m.content, ${sql.lit(ANSWER_PREVIEW)})`.as('answer'),
    ])
    .where('f.comment', 'is not', null)
    .where('f.comment', '<>', '')
    .orderBy('f.updated_at', 'desc')
    .orderBy('f.message_id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    message_id: row.message_id,
    conversation_id: row.conversation_id,
    bot_id: row.bot_id,
    agent_id: row.agent_id,
    rating: row.rating as FeedbackRating,
    reason: row.reason as FeedbackReason | null,
    comment: row.comment!,
    answer: row.answer,
    updated_at: iso(row.updated_at),
  }));
}

/** Answers grouped by their text (its md5), most thumbs down first; each with its latest downvoted message. */
async function mostDownvoted(db: Kysely<Database>, inRange: FeedbackInRange, accountId: string, range: TimeRange, query: FeedbackReportQuery) {
  const top = await inRange
    .select(['f.answer_key', ups.as('up'), downs.as('down'), sql<Date>`max(f.updated_at) filter (where f.rating = 'down')`.as('last_down_at')])
    .groupBy('f.answer_key')
    .having(sql<boolean>`count(*) filter (where f.rating = 'down') > 0`)
    .orderBy(downs, 'desc')
    .orderBy(sql`4`, 'desc')
    .orderBy('f.answer_key')
    .limit(query.limit)
    .execute();
  if (top.length === 0) return [];
  const owner = sql.join(
    [
      sql`true`,
      ...(query.bot_id ? [sql`f.bot_id = ${query.bot_id}`] : []),
      ...(query.agent_id ? [sql`f.agent_id = ${query.agent_id}`] : []),
    ],
    sql` and `,
  );
  const real = inRealConversation('f.conversation_id', 'f.account_id');
  // the newest thumbs down in range of each answer: one probe each of message_feedback_latest_down
  const latest = await sql<{ answer_key: string; message_id: string; conversation_id: string; answer: string }>`
    select k.answer_key, l.message_id, l.conversation_id, left(m.content, ${sql.lit(ANSWER_PREVIEW)}) as answer
    from unnest(${top.map((row) => row.answer_key)}::text[]) as k(answer_key)
    cross join lateral (
      select f.message_id, f.conversation_id from message_feedback f
      where f.account_id = ${accountId} and f.answer_key = k.answer_key and f.rating = 'down'
        and f.updated_at >= ${range.from} and f.updated_at < ${range.before} and ${owner} and ${real}
      order by f.updated_at desc limit 1) l
    join messages m on m.id = l.message_id`.execute(db);
  const byKey = new Map(latest.rows.map((row) => [row.answer_key, row]));
  return top.flatMap((row) => {
    const message = byKey.get(row.answer_key);
    if (!message) return []; // its message was deleted between the two reads
    return [
      {
        answer: message.answer,
        up: Number(row.up),
        down: Number(row.down),
        message_id: message.message_id,
        conversation_id: message.conversation_id,
        last_down_at: iso(row.last_down_at),
      },
    ];
  });
}

/** 404 for a bot or agent that is not this account's (also the support report's and CSAT settings' check). */
export async function assertOwned(db: Kysely<Database>, accountId: string, table: 'bots' | 'agents', id: string, param: string, what: string): Promise<void> {
  const row = await db.selectFrom(table).select('id').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(param, what);
}
