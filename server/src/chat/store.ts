/**
 * Conversations and their messages: the one place that writes them (bots and chat both use it) and
 * the history query. Every read and write is scoped by account id: no method takes an id alone.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Attachment, Citation, Entity, Message, Page, ReplySource, Role } from '../../../src/client/types.ts';
import { linkAttachments } from '../attachments/service.ts';
import { iso, json } from '../db/json.ts';
import type { ConversationsTable, Database, MessagesTable } from '../db/schema.ts';
import { notFound, ServiceError } from '../http/errors.ts';
import { IDEMPOTENCY_EXPIRED_BEFORE, type IdempotencyTag } from '../http/idempotency.ts';
import { decodeSeqCursor, toPage } from '../http/pagination.ts';
import { newId } from '../ids.ts';
import type { ResponderReply } from './responder.ts';

/** The partial unique index of migration 004 on `messages (account_id, idempotency_key)`. */
const KEYED_MESSAGE_INDEX = 'messages_account_idempotency';

export type ConversationRow = Selectable<ConversationsTable>;
type MessageRow = Selectable<MessagesTable>;

export interface NewUserMessage {
  role: 'user';
  content: string;
  /** The request's Idempotency-Key: at most one stored user message per key and account. */
  idempotency?: IdempotencyTag;
  /** Files it sends, checked (`AttachmentService.forMessage`); they join the message in the same statement. */
  attachments?: Attachment[];
}

/** A responder's reply as it is stored. */
export interface NewAssistantMessage extends ResponderReply {
  role: 'assistant';
  /** Time to produce the reply, for performance analytics. */
  latencyMs: number;
}

/** A turn stored under an Idempotency-Key: its user message, the reply after it, and the reply's entities. */
export interface KeyedTurn {
  user: Message;
  /** The bot's reply; the user message itself for a held turn. */
  reply: Message;
  entities: Entity[];
  /** A person had the conversation: the message was stored for them, and the bot did not answer. */
  held?: true;
}

/** Who a conversation belongs to, when `append` creates it together with the messages. */
export interface ConversationOwner {
  id: string;
  botId?: string | null;
  agentId?: string | null;
  userId?: string | null;
}

/** The foreign keys of migration 007 from a conversation to its bot and agent. */
const OWNER_KEYS: Record<string, [param: string, what: string]> = {
  conversations_bot_fk: ['bot_id', 'bot'],
  conversations_agent_fk: ['agent_id', 'agent'],
};

/**
 * A conversation written for a bot or agent that was deleted meanwhile (the delete won the race for
 * the row) answers 404 for that id, like a request that came after the delete.
 */
function rethrowMissingOwner(error: unknown): never {
  const pgError = error as { code?: string; constraint?: string };
  const owner = pgError.code === '23503' && pgError.constraint ? OWNER_KEYS[pgError.constraint] : undefined;
  if (owner) throw notFound(...owner);
  throw error;
}

/** True when a keyed insert lost to another request with the same Idempotency-Key. */
export function isKeyedTurnConflict(error: unknown): boolean {
  const pgError = error as { code?: string; constraint?: string };
  return pgError.code === '23505' && pgError.constraint === KEYED_MESSAGE_INDEX;
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
    if (row.stopped) message.stopped = true;
  }
  if (row.role === 'operator') message.author = operatorOf(row as MessageRow & OperatorColumns);
  if (row.attachments?.length) message.attachments = row.attachments as Attachment[];
  return message;
}

/** The author columns of an operator message (migration 016, handoff/tables.ts). */
interface OperatorColumns {
  author_id: string | null;
  author_name: string | null;
  author_avatar_url: string | null;
}

function operatorOf(row: OperatorColumns): NonNullable<Message['author']> {
  return { id: row.author_id ?? '', name: row.author_name ?? 'Operator', avatar_url: row.author_avatar_url };
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
   * Once it exists (every message but a user's first) one select finds it; only a first contact
   * takes an advisory lock per triple, so two simultaneous first messages share one conversation.
   */
  async openForBotUser(accountId: string, botId: string, userId: string): Promise<ConversationRow> {
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
    const open = await latest(this.db);
    if (open) return open;
    return this.db.transaction().execute(async (trx) => {
      const lockKey = `conv:${accountId}:${botId}:${userId}`;
      await sql`select pg_advisory_xact_lock(hashtextextended(${lockKey}, 0))`.execute(trx);
      const existing = await latest(trx); // another first message may have created it meanwhile
      if (existing) return existing;
      return trx
        .insertInto('conversations')
        .values({ id: newId('conv'), account_id: accountId, bot_id: botId, user_id: userId })
        .returningAll()
        .executeTakeFirstOrThrow();
    }).catch(rethrowMissingOwner);
  }

  /**
   * Appends messages in order and touches the conversation (or creates it, with `create`), in ONE
   * statement: a turn is one round trip and one implicit transaction, so the row locks it takes (the
   * conversation's, and the analytics rollup rows its triggers update) are held for that statement
   * and its commit only, not across several round trips. A keyed user message that another request
   * already stored throws a unique violation (`isKeyedTurnConflict`) and nothing of this call is
   * written. A conversation deleted meanwhile, or a bot or agent deleted before its conversation is
   * created, answers 404.
   */
  async append(accountId: string, conversationId: string, messages: NewMessage[], options: { create?: ConversationOwner } = {}): Promise<Message[]> {
    if (options.create && options.create.id !== conversationId) throw new Error('append: create.id must be the conversation id');
    const owner = options.create;
    // Touching first takes the row lock that makes concurrent appends to one conversation take turns,
    // so a turn's messages are adjacent in `seq` and "the reply after a user message" is its reply
    // (the messages are only produced once `conversation` has its row).
    const conversation = owner
      ? sql`insert into conversations (id, account_id, bot_id, agent_id, user_id)
            values (${conversationId}, ${accountId}, ${owner.botId ?? null}, ${owner.agentId ?? null}, ${owner.userId ?? null}) returning id`
      : sql`update conversations set updated_at = now() where account_id = ${accountId} and id = ${conversationId} returning id`;
    const keys = messages.flatMap((m) => (m.role === 'user' && m.idempotency ? [m.idempotency.key] : []));
    // An expired key is free again, like in `idempotency_keys`: its old message lets go of it. The
    // insert reads `freed` first (its count), so the key is released before the new row claims it.
    const freed = keys.length
      ? sql`, freed as (
          update messages set idempotency_key = null, idempotency_request_hash = null
          where account_id = ${accountId} and idempotency_key = any(${keys}::text[])
            and created_at < ${IDEMPOTENCY_EXPIRED_BEFORE}
            and exists (select 1 from conversation)
          returning 1)`
      : sql``;
    const links: ReturnType<typeof sql>[] = [];
    const rows = messages.map((m) => {
      const assistant = m.role === 'assistant' ? m : undefined;
      const keyed = m.role === 'user' ? m.idempotency : undefined;
      const files = m.role === 'user' && m.attachments?.length ? m.attachments : null;
      const id = newId('msg');
      if (files) links.push(sql`, ${sql.raw(`linked${links.length}`)} as (${linkAttachments(accountId, id, conversationId, files.map((f) => f.id))} and exists (select 1 from conversation) returning 1)`);
      return {
        id,
        attachments: files,
        role: m.role,
        content: m.content,
        source: assistant?.source ?? null,
        intent: assistant?.intent ?? null,
        confidence: assistant?.confidence ?? null,
        citations: assistant ? assistant.citations : null,
        suggestions: assistant ? assistant.suggestions : null,
        latency_ms: assistant ? Math.round(assistant.latencyMs) : null,
        entities: assistant?.entities ?? null,
        stopped: assistant?.stopped ?? false,
        idempotency_key: keyed?.key ?? null,
        idempotency_request_hash: keyed?.requestHash ?? null,
      };
    });
    // The rows travel as one JSON parameter, typed by the table itself (jsonb_populate_recordset), and
    // are inserted in their given order (`ordinality`), which is the order of `seq`.
    const inserted = await sql<MessageRow>`
      with conversation as (${conversation})${freed}${sql.join(links, sql``)}
      insert into messages (id, account_id, conversation_id, role, content, source, intent, confidence, citations,
                            suggestions, latency_ms, entities, stopped, idempotency_key, idempotency_request_hash, attachments)
      select m.id, ${accountId}, conversation.id, m.role, m.content, m.source, m.intent, m.confidence, m.citations,
             m.suggestions, m.latency_ms, m.entities, coalesce(m.stopped, false), m.idempotency_key, m.idempotency_request_hash,
             m.attachments
      from jsonb_populate_recordset(null::messages, ${json(rows)}::jsonb) with ordinality as m
      cross join conversation
      ${keys.length ? sql`where (select count(*) from freed) >= 0` : sql``}
      order by m.ordinality
      returning *`
      .execute(this.db)
      .catch(rethrowMissingOwner);
    if (inserted.rows.length === 0) throw notFound('conversation_id', 'conversation');
    return inserted.rows.sort((a, b) => Number(BigInt(a.seq) - BigInt(b.seq))).map(toMessage);
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
      .where('c.account_id', '=', accountId);
    if (filter.conversationId) query = query.where('m.conversation_id', '=', filter.conversationId);
    if (filter.userId) query = query.where('c.user_id', '=', filter.userId);
    if (filter.botId) query = query.where('c.bot_id', '=', filter.botId);
    if (filter.cursor) {
      query = query.where('m.seq', '>', decodeSeqCursor(filter.cursor));
    }
    const rows = await query.orderBy('m.seq', 'asc').limit(filter.limit + 1).execute();
    return toPage(rows, filter.limit, toMessage, (row) => ({ seq: row.seq }));
  }
}
