/**
 * Satisfaction (CSAT): a visitor rates a conversation 1–5, with an optional comment, once. Through a
 * widget token (which forces `user_id`, and `bot_id` for a bot's token) a visitor rates only their
 * own conversations; anyone else's answers 404, as handoff's do (`HandoffService.conversation`).
 * The operator credited is the one who last took the conversation (its last `with_person` event).
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Csat, CsatRating, CsatRequest, CsatSettings, CsatSettingsInput, CsatState, SupportReport } from '../../../src/client/types.ts';
import { iso } from '../db/json.ts';
import type { Database } from '../db/schema.ts';
import { notFound, ServiceError } from '../http/errors.ts';
import { assertOwned } from '../feedback/report.ts';
import type { HandoffService, Visitor } from '../handoff/service.ts';
import { supportReport, type SupportReportQuery } from './report.ts';
import { withCsatTables, type ConversationCsatTable, type CsatDatabase } from './tables.ts';

/** PostgreSQL's foreign_key_violation: the conversation was deleted while it was rated. */
const FOREIGN_KEY_VIOLATION = '23503';

/** When the widget asks, for a bot without settings of its own. */
const DEFAULT_SETTINGS = { after_handoff: true, after_bot: false };

function toCsat(row: Selectable<ConversationCsatTable>): Csat {
  return {
    conversation_id: row.conversation_id,
    bot_id: row.bot_id,
    agent_id: row.agent_id,
    user_id: row.user_id,
    operator_id: row.operator_id,
    rating: row.rating as CsatRating,
    comment: row.comment,
    created_at: iso(row.created_at),
  };
}

export class CsatService {
  private readonly db: Kysely<CsatDatabase>;

  constructor(
    private readonly database: Kysely<Database>,
    /** Who may see a conversation (the visitor's own only): one rule for handoff and ratings. */
    private readonly handoff: Pick<HandoffService, 'conversation'>,
  ) {
    this.db = withCsatTables(database);
  }

  /** Stores the conversation's one rating; 409 `csat_already_given` for a second one. */
  async give(accountId: string, conversationId: string, input: CsatRequest): Promise<Csat> {
    await this.handoff.conversation(accountId, conversationId, visitorOf(input));
    // The last operator who took it, if their user still exists (a removed one is no one).
    const operator = sql<string | null>`(
      select u.id from handoff_events e join users u on u.id = e.data->'operator'->>'id'
      where e.conversation_id = c.id and e.type = 'status' and e.data->>'status' = 'with_person'
      order by e.seq desc limit 1)`;
    const rated = this.db
      .selectFrom('conversations as c')
      .select(['c.id', 'c.account_id', 'c.bot_id', 'c.agent_id', 'c.user_id', operator.as('operator_id'), sql.val(input.rating).as('rating'), sql.val(input.comment ?? null).as('comment')])
      .where('c.account_id', '=', accountId)
      .where('c.id', '=', conversationId);
    try {
      const row = await this.db
        .insertInto('conversation_csat')
        .columns(['conversation_id', 'account_id', 'bot_id', 'agent_id', 'user_id', 'operator_id', 'rating', 'comment'])
        .expression(rated)
        .onConflict((oc) => oc.column('conversation_id').doNothing())
        .returningAll()
        .executeTakeFirst();
      if (!row) throw new ServiceError('csat_already_given', 'This conversation has its rating already.', { param: 'conversation_id' });
      return toCsat(row);
    } catch (error) {
      if ((error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION) throw notFound('conversation_id', 'conversation');
      throw error;
    }
  }

  /** Whether the bot's settings ask for a rating after this conversation, and the one given. */
  async state(accountId: string, conversationId: string, visitor: Visitor = {}): Promise<CsatState> {
    const conversation = await this.handoff.conversation(accountId, conversationId, visitor);
    const [row, withPerson, settings] = await Promise.all([
      this.db.selectFrom('conversation_csat').selectAll().where('account_id', '=', accountId).where('conversation_id', '=', conversationId).executeTakeFirst(),
      this.db
        .selectFrom('handoff_events')
        .select('seq')
        .where('account_id', '=', accountId)
        .where('conversation_id', '=', conversationId)
        .where('type', '=', 'status')
        .where(sql<boolean>`data->>'status' = 'with_person'`)
        .limit(1)
        .executeTakeFirst(),
      conversation.bot_id ? this.settingsOf(accountId, conversation.bot_id) : DEFAULT_SETTINGS,
    ]);
    const moment = withPerson ? 'after_handoff' : 'after_bot';
    return { conversation_id: conversationId, survey: settings[moment], moment, csat: row ? toCsat(row) : null };
  }

  async settings(accountId: string, botId: string): Promise<CsatSettings> {
    await this.ownBot(accountId, botId);
    return { bot_id: botId, ...(await this.settingsOf(accountId, botId)) };
  }

  async putSettings(accountId: string, botId: string, input: CsatSettingsInput): Promise<CsatSettings> {
    await this.ownBot(accountId, botId);
    const row = await this.db
      .insertInto('bot_csat')
      .values({ bot_id: botId, account_id: accountId, ...DEFAULT_SETTINGS, ...input })
      .onConflict((oc) => oc.column('bot_id').doUpdateSet({ ...input, updated_at: sql`now()` }))
      .returning(['after_handoff', 'after_bot'])
      .executeTakeFirstOrThrow();
    return { bot_id: botId, ...row };
  }

  /** `GET /v1/analytics/support` (report.ts). */
  report(accountId: string, query: SupportReportQuery): Promise<SupportReport> {
    return supportReport(this.database, accountId, query);
  }

  private async settingsOf(accountId: string, botId: string): Promise<Omit<CsatSettings, 'bot_id'>> {
    const row = await this.db.selectFrom('bot_csat').select(['after_handoff', 'after_bot']).where('account_id', '=', accountId).where('bot_id', '=', botId).executeTakeFirst();
    return row ?? DEFAULT_SETTINGS;
  }

  private ownBot(accountId: string, botId: string): Promise<void> {
    return assertOwned(this.database, accountId, 'bots', botId, 'bot_id', 'bot');
  }
}

function visitorOf(input: { user_id?: string; bot_id?: string }): Visitor {
  return { userId: input.user_id, botId: input.bot_id };
}
