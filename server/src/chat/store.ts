/**
 * Conversations and their messages: the one place that writes them (bots and chat both use it) and
 * the history query. Every read and write is scoped by account id: no method takes an id alone.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Citation, Message, Page, ReplySource, Role } from '../../../src/client/types.ts';
import { iso, json } from '../db/json.ts';
import type { ConversationsTable, Database, MessagesTable } from '../db/schema.ts';
import { decodeCursor, toPage } from '../http/pagination.ts';
import { newId } from '../ids.ts';

export type ConversationRow = Selectable<ConversationsTable>;
type MessageRow = Selectable<MessagesTable>;

export interface NewUserMessage {
  role: 'user';
  content: string;
}

export interface NewAssistantMessage {
  role: 'assistant';
  content: string;
  source: ReplySource;
  intent: string | null;
  confidence: number | null;
  citations: Citation[];
  suggestions: string[];
  /** Time to produce the reply, for performance analytics. */
  latencyMs: number;
}

export type NewMessage = NewUserMessage | NewAssistantMessage;

export interface HistoryFilter {
  conversationId?: string;
  userId?: string;
  botId?: string;
  limit: number;
  cursor?: string;
}

export function toMessage(row: MessageRow): Message {
  const message: Message = {
    id: row.id,
    conversation_id: row.conversation_id,
    role: row.role as Role,
    content: row.content,
    created_at: iso(row.created_at),
  };
  if (row.role === 'assistant') {
    message.source = (row.source ?? 'fallback') as ReplySource;
    message.intent = row.intent;
    message.confidence = row.confidence;
    message.citations = (row.citations ?? []) as Citation[];
    message.suggestions = row.suggestions ?? [];
  }
  return message;
}

export class ConversationStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** `id` may be chosen ahead (chat announces it before the reply exists). */
  async create(accountId: string, owner: { id?: string; botId?: string | null; agentId?: string | null; userId?: string | null }) {
    return this.db
      .insertInto('conversations')
      .values({
        id: owner.id ?? newId('conv'),
        account_id: accountId,
        bot_id: owner.botId ?? null,
        agent_id: owner.agentId ?? null,
        user_id: owner.userId ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async get(accountId: string, conversationId: string): Promise<ConversationRow | undefined> {
    return this.db
      .selectFrom('conversations')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', conversationId)
      .executeTakeFirst();
  }

  /**
   * The open conversation of (account, bot, user): the most recent one, created on first contact.
   * An advisory lock per triple makes two simultaneous first messages share one conversation.
   */
  async openForBotUser(accountId: string, botId: string, userId: string): Promise<ConversationRow> {
    return this.db.transaction().execute(async (trx) => {
      const lockKey = `conv:${accountId}:${botId}:${userId}`;
      await sql`select pg_advisory_xact_lock(hashtextextended(${lockKey}, 0))`.execute(trx);
      const existing = await trx
        .selectFrom('conversations')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('bot_id', '=', botId)
        .where('user_id', '=', userId)
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (existing) return existing;
      return trx
        .insertInto('conversations')
        .values({ id: newId('conv'), account_id: accountId, bot_id: botId, user_id: userId })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
  }

  /** Appends messages in order, in one transaction, and touches the conversation. */
  async append(accountId: string, conversationId: string, messages: NewMessage[]): Promise<Message[]> {
    return this.db.transaction().execute(async (trx) => {
      const stored: Message[] = [];
      // One insert per message keeps `seq` in the given order.
      for (const m of messages) {
        const assistant = m.role === 'assistant' ? m : undefined;
        const row = await trx
          .insertInto('messages')
          .values({
            id: newId('msg'),
            account_id: accountId,
            conversation_id: conversationId,
            role: m.role,
            content: m.content,
            source: assistant?.source ?? null,
            intent: assistant?.intent ?? null,
            confidence: assistant?.confidence ?? null,
            citations: assistant ? json(assistant.citations) : null,
            suggestions: assistant ? json(assistant.suggestions) : null,
            latency_ms: assistant ? Math.round(assistant.latencyMs) : null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        stored.push(toMessage(row));
      }
      await trx
        .updateTable('conversations')
        .set({ updated_at: sql`now()` })
        .where('account_id', '=', accountId)
        .where('id', '=', conversationId)
        .execute();
      return stored;
    });
  }

  /**
   * Messages oldest → newest by `seq`. By conversation, or by user (optionally with one bot)
   * across that user's conversations.
   */
  async history(accountId: string, filter: HistoryFilter): Promise<Page<Message>> {
    let query = this.db
      .selectFrom('messages as m')
      .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
      .selectAll('m')
      .where('m.account_id', '=', accountId)
      .where('c.account_id', '=', accountId);
    if (filter.conversationId) query = query.where('m.conversation_id', '=', filter.conversationId);
    if (filter.userId) query = query.where('c.user_id', '=', filter.userId);
    if (filter.botId) query = query.where('c.bot_id', '=', filter.botId);
    if (filter.cursor) {
      const { seq } = decodeCursor<{ seq: string }>(filter.cursor, ['seq']);
      if (!/^\d{1,19}$/.test(seq)) decodeCursor('', ['seq']); // throws the one cursor error
      query = query.where('m.seq', '>', seq);
    }
    const rows = await query.orderBy('m.seq', 'asc').limit(filter.limit + 1).execute();
    return toPage(rows, filter.limit, toMessage, (row) => ({ seq: row.seq }));
  }
}
