/**
 * Conversations and their messages: the one service that stores them (chat turns, bot messages and
 * handoff all write through its `MessageWriter`), the transcript (`history`), and the conversation
 * as a resource (the filtered list of list.ts, one conversation, its delete). Every read and write
 * is scoped by account id: no method takes an id alone.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Conversation, ConversationLabels, ConversationListQuery, Deletion, Entity, LabelsUpdate, Message, Page, InboxVisitor, VisitorContext } from '../../../src/client/types.ts';
import { recordDeletion } from '../analytics/deletions.ts';
import { accountRowKey, Batcher, parseAccountRowKey } from '../db/batcher.ts';
import type { ConversationsTable, Database } from '../db/schema.ts';
import { notFound, ServiceError } from '../http/errors.ts';
import { IDEMPOTENCY_EXPIRED_BEFORE, type IdempotencyTag } from '../http/idempotency.ts';
import { decodeSeqCursor, toPage } from '../http/pagination.ts';
import { newId } from '../ids.ts';
import { updateLabels } from './labels.ts';
import { inboxVisitor, recordVisitor } from './visitor.ts';
import { listConversations, selectConversations, toConversation } from './list.ts';
import { toMessage } from './message-row.ts';
import { MessageWriter, rethrowMissingOwner, type ConversationOwner, type NewMessage } from './message-writer.ts';
import { deleteConversations, forgetStoredAnswers } from './purge.ts';

/** The partial unique index of migration 004 on `messages (account_id, idempotency_key)`. */
const KEYED_MESSAGE_INDEX = 'messages_account_idempotency';

export type ConversationRow = Selectable<ConversationsTable>;

/** A turn stored under an Idempotency-Key: its user message, the reply after it, and the reply's entities. */
export interface KeyedTurn {
  user: Message;
  /** The bot's reply; the user message itself for a held turn. */
  reply: Message;
  entities: Entity[];
  /** A person had the conversation: the message was stored for them, and the bot did not answer. */
  held?: true;
}

/** True when a keyed insert lost to another request with the same Idempotency-Key. */
export function isKeyedTurnConflict(error: unknown): boolean {
  const pgError = error as { code?: string; constraint?: string };
  return pgError.code === '23505' && pgError.constraint === KEYED_MESSAGE_INDEX;
}

export interface HistoryFilter {
  conversationId?: string;
  userId?: string;
  botId?: string;
  limit: number;
  cursor?: string;
}

export class ConversationService {
  /** The one INSERT path of messages; handoff writes through it inside its own transactions. */
  readonly writer: MessageWriter;

  constructor(private readonly db: Kysely<Database>) {
    this.writer = new MessageWriter(db);
  }

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

  /** The conversation's row, or undefined when it is not this account's. */
  async find(accountId: string, conversationId: string): Promise<ConversationRow | undefined> {
    return this.db
      .selectFrom('conversations')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', conversationId)
      .executeTakeFirst();
  }

  /**
   * The open conversation of (account, bot, user): the most recent one, created on first contact.
   * Once it exists (every message but a user's first) one select finds it; only a first contact
   * takes an advisory lock per triple, so two simultaneous first messages share one conversation.
   * `test`: one created here is a test conversation (conversations/test-conversations.ts).
   */
  async openForBotUser(accountId: string, botId: string, userId: string, options: { test?: boolean } = {}): Promise<ConversationRow> {
    const latest = (db: Kysely<Database>) =>
      db
        .selectFrom('conversations')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('bot_id', '=', botId)
        .where('user_id', '=', userId)
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
    const open = await this.openConversations.call(accountRowKey(accountId, botId), userId);
    if (open) return open;
    return this.db.transaction().execute(async (trx) => {
      const lockKey = `conv:${accountId}:${botId}:${userId}`;
      await sql`select pg_advisory_xact_lock(hashtextextended(${lockKey}, 0))`.execute(trx);
      const existing = await latest(trx); // another first message may have created it meanwhile
      if (existing) return existing;
      return trx
        .insertInto('conversations')
        .values({ id: newId('conv'), account_id: accountId, bot_id: botId, user_id: userId, is_test: options.test ?? false })
        .returningAll()
        .executeTakeFirstOrThrow();
    }).catch(rethrowMissingOwner);
  }

  /** The lookup of `openForBotUser`, for all users of one bot asking at once in one select. */
  private readonly openConversations = new Batcher<string, ConversationRow | undefined>(async (key, callers) => {
    const [accountId, botId] = parseAccountRowKey(key);
    const rows = await this.db
      .selectFrom('conversations')
      .selectAll()
      .distinctOn('user_id')
      .where('account_id', '=', accountId)
      .where('bot_id', '=', botId)
      .where('user_id', 'in', [...new Set(callers.map((caller) => caller.input))])
      .orderBy('user_id')
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    const byUser = new Map(rows.map((row) => [row.user_id, row]));
    for (const caller of callers) caller.resolve(byUser.get(caller.input));
  });

  /**
   * Appends messages in order and touches the conversation (or creates it, with `create`), in one
   * statement shared with the account's concurrent turns (message-writer.ts). A keyed user message
   * that another request already stored throws a unique violation (`isKeyedTurnConflict`) and
   * nothing of this call is written. A conversation deleted meanwhile, or a bot or agent deleted
   * before its conversation is created, answers 404.
   */
  append(accountId: string, conversationId: string, messages: NewMessage[], options: { create?: ConversationOwner } = {}): Promise<Message[]> {
    return this.writer.append(accountId, conversationId, messages, options);
  }

  /** Keeps what a turn told about its visitor on the conversation (visitor.ts). */
  recordVisitor(accountId: string, conversationId: string, visitor: VisitorContext): Promise<void> {
    return recordVisitor(this.db, accountId, conversationId, visitor);
  }

  /** The inbox's view of a conversation's visitor, with their other conversations (visitor.ts). */
  visitor(accountId: string, conversationId: string): Promise<InboxVisitor> {
    return inboxVisitor(this.db, accountId, conversationId);
  }

  /**
   * The turn an earlier request with this Idempotency-Key stored (within the key's lifetime), or
   * undefined. The same key with another request answers 409 `idempotency_key_reused`, as the
   * middleware would have while it still remembered the key.
   */
  async findKeyedTurn(accountId: string, tag: IdempotencyTag): Promise<KeyedTurn | undefined> {
    const user = await this.db
      .selectFrom('messages')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('idempotency_key', '=', tag.key)
      .where('created_at', '>=', IDEMPOTENCY_EXPIRED_BEFORE)
      .executeTakeFirst();
    if (!user) return undefined;
    if (user.idempotency_request_hash !== tag.requestHash) {
      throw new ServiceError('idempotency_key_reused', 'This Idempotency-Key was used with a different request.', {
        param: 'Idempotency-Key',
      });
    }
    // `append` stores a turn in one transaction with the conversation row locked: the message right
    // after the user message is the reply of that turn. A message a person answers (held, handoff)
    // has no reply of its own: whatever follows it is not an assistant's, or nothing does.
    const next = await this.db
      .selectFrom('messages')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('conversation_id', '=', user.conversation_id)
      .where('seq', '>', user.seq)
      .orderBy('seq', 'asc')
      .limit(1)
      .executeTakeFirst();
    if (next?.role !== 'assistant') return { user: toMessage(user), reply: toMessage(user), entities: [], held: true };
    return { user: toMessage(user), reply: toMessage(next), entities: (next.entities ?? []) as Entity[] };
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
      .where('c.account_id', '=', accountId)
      .where('m.role', '<>', 'note'); // the team's private notes: read in the inbox only
    if (filter.conversationId) query = query.where('m.conversation_id', '=', filter.conversationId);
    if (filter.userId) query = query.where('c.user_id', '=', filter.userId);
    if (filter.botId) query = query.where('c.bot_id', '=', filter.botId);
    if (filter.cursor) {
      query = query.where('m.seq', '>', decodeSeqCursor(filter.cursor));
    }
    const rows = await query.orderBy('m.seq', 'asc').limit(filter.limit + 1).execute();
    return toPage(rows, filter.limit, toMessage, (row) => ({ seq: row.seq }));
  }

  /** The list of `GET /v1/conversations`, newest first (list.ts). */
  list(accountId: string, query: ConversationListQuery & { limit: number }): Promise<Page<Conversation>> {
    return listConversations(this.db, accountId, query);
  }

  /** The conversation as the API answers it; 404 when it is not this account's. */
  async get(accountId: string, conversationId: string): Promise<Conversation> {
    const row = await selectConversations(this.db, accountId).where('id', '=', conversationId).executeTakeFirst();
    if (!row) throw notFound('conversation_id', 'conversation');
    return toConversation(row);
  }

  /** Adds and removes labels at once (labels.ts); 404 when it is not this account's. */
  updateLabels(accountId: string, conversationId: string, update: LabelsUpdate): Promise<ConversationLabels> {
    return updateLabels(this.db, accountId, conversationId, update);
  }

  /** Deletes the conversation with its messages, and counts the deletion. 404 when it is not this account's. */
  async delete(accountId: string, conversationId: string): Promise<Deletion> {
    return this.db.transaction().execute(async (trx) => {
      await forgetStoredAnswers(trx, accountId, conversationId);
      const removed = await deleteConversations(trx, accountId, { conversationId });
      if (removed.conversations === 0) throw notFound('conversation_id', 'conversation');
      await recordDeletion(trx, accountId, 'conversation', removed);
      return { id: conversationId, deleted: true, ...removed };
    });
  }
}
