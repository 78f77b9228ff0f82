/**
 * `GET /v1/analytics/feedback`: thumbs up and down per bucket, per bot and agent, the reasons, and
 * the answers with the most thumbs down. Everything is read from `message_feedback` alone, through
 * its (account_id, updated_at) index: the conversation's bot and agent and the answer's text hash
 * were copied in when the feedback was given (migration 013).
 */
import { sql, type Kysely } from 'kysely';
import type { FeedbackCounts, FeedbackQuery, FeedbackReason, FeedbackReport } from '../../../src/client/types.ts';
import { bucketStarts, resolveRange, type TimeRange } from '../analytics/range.ts';
import { iso } from '../db/json.ts';
import type { Database } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { ANSWER_PREVIEW } from './schema.ts';

export type FeedbackReportQuery = FeedbackQuery & Required<Pick<FeedbackQuery, 'limit' | 'granularity'>>;

const ups = sql<string>`count(*) filter (where f.rating = 'up')`;
const downs = sql<string>`count(*) filter (where f.rating = 'down')`;
const counts = (row: { up: string; down: string }): FeedbackCounts => ({ up: Number(row.up), down: Number(row.down) });

/** The feedback rows of one account and range (and bot or agent): what every part of the report reads. */
function feedbackInRange(db: Kysely<Database>, accountId: string, range: TimeRange, query: FeedbackQuery) {
  let inRange = db
    .selectFrom('message_feedback as f')
    .where('f.account_id', '=', accountId)
    .where('f.updated_at', '>=', range.from)
    .where('f.updated_at', '<', range.before);
  if (query.bot_id) inRange = inRange.where('f.bot_id', '=', query.bot_id);
  if (query.agent_id) inRange = inRange.where('f.agent_id', '=', query.agent_id);
  return inRange;
}

type FeedbackInRange = ReturnType<typeof feedbackInRange>;

export async function feedbackReport(db: Kysely<Database>, accountId: string, query: FeedbackReportQuery): Promise<FeedbackReport> {
  const range = resolveRange(query);
  const starts = bucketStarts(range, query.granularity);
  if (query.bot_id) await assertOwned(db, accountId, 'bots', query.bot_id, 'bot_id', 'bot');
  if (query.agent_id) await assertOwned(db, accountId, 'agents', query.agent_id, 'agent_id', 'agent');

  const inRange = feedbackInRange(db, accountId, range, query);

  const unit = sql.lit(query.granularity);
  const [buckets, owners, reasons, answers] = await Promise.all([
    inRange
      .select([sql<Date>`date_trunc(${unit}, f.updated_at at time zone 'UTC') at time zone 'UTC'`.as('start'), ups.as('up'), downs.as('down')])
      .groupBy(sql`1`)
      .execute(),
    inRange
      .select(['f.bot_id', 'f.agent_id', ups.as('up'), downs.as('down')])
      .groupBy(['f.bot_id', 'f.agent_id'])
      .orderBy(sql`count(*)`, 'desc')
      .orderBy('f.bot_id')
      .orderBy('f.agent_id')
      .limit(query.limit)
      .execute(),
    inRange
      .select(['f.reason', sql<string>`count(*)`.as('count')])
      .where('f.rating', '=', 'down')
      .where('f.reason', 'is not', null)
      .groupBy('f.reason')
      .orderBy(sql`count(*)`, 'desc')
      .orderBy('f.reason')
      .execute(),
    mostDownvoted(inRange, query.limit),
  ]);

  const series = new Map(starts.map((start) => [start.getTime(), { start: start.toISOString(), up: 0, down: 0 }]));
  for (const row of buckets) {
    const bucket = series.get(new Date(row.start).getTime());
    if (bucket) Object.assign(bucket, counts(row));
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
    owners: owners.map((row) => ({ bot_id: row.bot_id, agent_id: row.agent_id, ...counts(row) })),
    reasons: reasons.map((row) => ({ reason: row.reason as FeedbackReason, count: Number(row.count) })),
    most_downvoted: answers,
  };
}

/**
 * Answers grouped by their text (its md5), most thumbs down first; each with its latest downvoted
 * message (for the text and a link to the conversation).
 */
async function mostDownvoted(inRange: FeedbackInRange, limit: number) {
  const top = await inRange
    .select(['f.answer_key', ups.as('up'), downs.as('down'), sql<Date>`max(f.updated_at) filter (where f.rating = 'down')`.as('last_down_at')])
    .groupBy('f.answer_key')
    .having(sql<boolean>`count(*) filter (where f.rating = 'down') > 0`)
    .orderBy(downs, 'desc')
    .orderBy(sql`4`, 'desc')
    .orderBy('f.answer_key')
    .limit(limit)
    .execute();
  if (top.length === 0) return [];
  const latest = await inRange
    .innerJoin('messages as m', 'm.id', 'f.message_id')
    .distinctOn('f.answer_key')
    .select(['f.answer_key', 'f.message_id', 'f.conversation_id', sql<string>`left(m.content, ${sql.lit(ANSWER_PREVIEW)})`.as('answer')])
    .where('f.rating', '=', 'down')
    .where('f.answer_key', 'in', top.map((row) => row.answer_key))
    .orderBy('f.answer_key')
    .orderBy('f.updated_at', 'desc')
    .execute();
  const byKey = new Map(latest.map((row) => [row.answer_key, row]));
  return top.flatMap((row) => {
    const message = byKey.get(row.answer_key);
    if (!message) return []; // its message was deleted between the two reads
    return [
      {
        answer: message.answer,
        ...counts(row),
        message_id: message.message_id,
        conversation_id: message.conversation_id,
        last_down_at: iso(row.last_down_at),
      },
    ];
  });
}

/** 404 for a bot or agent that is not this account's. */
async function assertOwned(db: Kysely<Database>, accountId: string, table: 'bots' | 'agents', id: string, param: string, what: string): Promise<void> {
  const row = await db.selectFrom(table).select('id').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(param, what);
}
