/**
 * Feedback on assistant answers: one per message and rater, given again to change it, deleted to
 * take it back. The rater is the conversation's own end user, so through a widget token (which
 * forces `user_id`, and `bot_id` for a bot's token) a visitor rates only answers given to them.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Deletion, Feedback, FeedbackReason, FeedbackRating, FeedbackReport, FeedbackRequest, FeedbackScope } from '../../../src/client/types.ts';
import { iso } from '../db/json.ts';
import type { Database, MessageFeedbackTable } from '../db/schema.ts';
import { invalid, notFound } from '../http/errors.ts';
import { feedbackReport, type FeedbackReportQuery } from './report.ts';

/** PostgreSQL's foreign_key_violation: the message was deleted while its feedback was written. */
const FOREIGN_KEY_VIOLATION = '23503';

function toFeedback(row: Selectable<MessageFeedbackTable>): Feedback {
  return {
    message_id: row.message_id,
    conversation_id: row.conversation_id,
    user_id: row.user_id === '' ? null : row.user_id,
    bot_id: row.bot_id,
    agent_id: row.agent_id,
    rating: row.rating as FeedbackRating,
    reason: row.reason as FeedbackReason | null,
    comment: row.comment,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** Feedback rows a conversation's read returns at most. */
export const MAX_CONVERSATION_FEEDBACK = 1000;

/** The same answer for a message that does not exist, is not an answer, or is not the rater's. */
const noAnswer = () => notFound('message_id', 'assistant message of this user');

export class FeedbackService {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores the rater's feedback on an assistant message, replacing any earlier one (reason and comment included). */
  async give(accountId: string, messageId: string, input: FeedbackRequest): Promise<Feedback> {
    if (input.reason !== undefined && input.rating !== 'down') throw invalid('reason', 'A reason goes with rating "down" only.');
    const userId = input.user_id ?? '';
    // One statement: the message is found, checked against the rater and copied in atomically.
    let answer = this.db
      .selectFrom('messages as m')
      .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
      .select([
        'm.account_id',
        'm.id',
        sql.val(userId).as('user_id'),
        'm.conversation_id',
        'c.bot_id',
        'c.agent_id',
        sql<string>`md5(m.content)`.as('answer_key'),
        sql.val(input.rating).as('rating'),
        sql.val(input.reason ?? null).as('reason'),
        sql.val(input.comment ?? null).as('comment'),
      ])
      .where('m.account_id', '=', accountId)
      .where('m.id', '=', messageId)
      .where('m.role', '=', 'assistant')
      .where(sql<boolean>`coalesce(c.user_id, '') = ${userId}`);
    // a bot_id or agent_id the caller names must be the conversation's
    if (input.bot_id) answer = answer.where('c.bot_id', '=', input.bot_id);
    if (input.agent_id) answer = answer.where('c.agent_id', '=', input.agent_id);
    try {
      const row = await this.db
        .insertInto('message_feedback')
        .columns(['account_id', 'message_id', 'user_id', 'conversation_id', 'bot_id', 'agent_id', 'answer_key', 'rating', 'reason', 'comment'])
        .expression(answer)
        .onConflict((oc) =>
          oc.columns(['message_id', 'user_id']).doUpdateSet((eb) => ({
            rating: eb.ref('excluded.rating'),
            reason: eb.ref('excluded.reason'),
            comment: eb.ref('excluded.comment'),
            updated_at: sql`now()`,
          })),
        )
        .returningAll()
        .executeTakeFirst();
      if (!row) throw noAnswer();
      return toFeedback(row);
    } catch (error) {
      if ((error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION) throw noAnswer();
      throw error;
    }
  }

  /** Takes the rater's feedback back; 404 when there is none. */
  async remove(accountId: string, messageId: string, scope: FeedbackScope): Promise<Deletion> {
    let query = this.db
      .deleteFrom('message_feedback')
      .where('account_id', '=', accountId)
      .where('message_id', '=', messageId)
      .where('user_id', '=', scope.user_id ?? '');
    if (scope.bot_id) query = query.where('bot_id', '=', scope.bot_id);
    if (scope.agent_id) query = query.where('agent_id', '=', scope.agent_id);
    const removed = await query.returning('message_id').executeTakeFirst();
    if (!removed) throw notFound('message_id', 'feedback of this user');
    return { id: messageId, deleted: true, conversations: 0, messages: 0 };
  }

  /**
   * Every rater's feedback on one conversation's answers, oldest answer first (at most
   * `MAX_CONVERSATION_FEEDBACK`): read through the conversation's messages and the feedback's key.
   */
  async forConversation(accountId: string, conversationId: string): Promise<{ items: Feedback[] }> {
    const [conversation, rows] = await Promise.all([
      this.db.selectFrom('conversations').select('id').where('account_id', '=', accountId).where('id', '=', conversationId).executeTakeFirst(),
      this.db
        .selectFrom('messages as m')
        .innerJoin('message_feedback as f', 'f.message_id', 'm.id')
        .selectAll('f')
        .where('m.conversation_id', '=', conversationId)
        .where('m.account_id', '=', accountId)
        .where('f.account_id', '=', accountId)
        .orderBy('m.seq')
        .orderBy('f.user_id')
        .limit(MAX_CONVERSATION_FEEDBACK)
        .execute(),
    ]);
    if (!conversation) throw notFound('conversation_id', 'conversation');
    return { items: rows.map(toFeedback) };
  }

  /** `GET /v1/analytics/feedback` (report.ts). */
  report(accountId: string, query: FeedbackReportQuery): Promise<FeedbackReport> {
    return feedbackReport(this.db, accountId, query);
  }
}
