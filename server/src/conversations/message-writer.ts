/**
 * The one INSERT path of messages: a bot's turn, a visitor's message a person answers, an
 * operator's reply. Each write touches its conversation (or creates it), lets go of an expired
 * Idempotency-Key, links the files the message sends, and inserts the messages, in one statement.
 * Concurrent turns of an account share that statement (group commit, db/batcher.ts); each still
 * gets its own messages or its own error: a statement that fails writes nothing, and its turns are
 * then written one by one.
 */
import { sql, type Kysely, type QueryExecutorProvider, type RawBuilder } from 'kysely';
import type { Attachment, Citation, Entity, Message, OperatorProfile, ReplySource } from '../../../src/client/types.ts';
import { linkAttachments } from '../attachments/tables.ts';
import { Batcher, type BatchItem } from '../db/batcher.ts';
import { json } from '../db/json.ts';
import type { Database } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { IDEMPOTENCY_EXPIRED_BEFORE, type IdempotencyTag } from '../http/idempotency.ts';
import { newId } from '../ids.ts';
import { toMessage, type MessageRow } from './message-row.ts';

export interface NewUserMessage {
  role: 'user';
  content: string;
  /** The request's Idempotency-Key: at most one stored user message per key and account. */
  idempotency?: IdempotencyTag;
  /** Files it sends, checked (`AttachmentService.forMessage`); they join the message in the same statement. */
  attachments?: Attachment[];
}

/** A bot's reply (a responder's, turns/responders/) as it is stored. */
export interface NewAssistantMessage {
  role: 'assistant';
  content: string;
  source: ReplySource;
  intent: string | null;
  confidence: number | null;
  citations: Citation[];
  suggestions: string[];
  /** The entities the intent model found in the question (bot replies show them; replays too). */
  entities?: Entity[];
  /** The user stopped the reply while it streamed: `content` is what was sent before the stop. */
  stopped?: boolean;
  /** Time to produce the reply, for performance analytics. */
  latencyMs: number;
}

/** A person's reply (human handoff), under the name visitors see. */
export interface NewOperatorMessage {
  role: 'operator';
  content: string;
  author: OperatorProfile;
  attachments?: Attachment[];
}

/**
 * A private note of the team (the inbox): stored with the messages so it sits in the transcript, but
 * never read by anything a visitor reaches (history, the conversation list, the visitor's stream,
 * channel outboxes, `message.created` webhooks: migration 025).
 */
export interface NewNoteMessage {
  role: 'note';
  content: string;
  author: OperatorProfile;
}

export type NewMessage = NewUserMessage | NewAssistantMessage | NewOperatorMessage | NewNoteMessage;

/** Who a conversation belongs to, when `append` creates it together with the messages. */
export interface ConversationOwner {
  id: string;
  botId?: string | null;
  agentId?: string | null;
  userId?: string | null;
  /** A test conversation (conversations/test-conversations.ts): it counts nowhere. */
  test?: boolean;
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
export function rethrowMissingOwner(error: unknown): never {
  const pgError = error as { code?: string; constraint?: string };
  const owner = pgError.code === '23503' && pgError.constraint ? OWNER_KEYS[pgError.constraint] : undefined;
  if (owner) throw notFound(...owner);
  throw error;
}

/** A turn waiting to be written by `append`. */
interface PendingTurn {
  conversationId: string;
  messages: NewMessage[];
  create?: ConversationOwner;
}

/** A message as `insertMessages` sends it, named by the columns of `messages`. */
type MessageRowInput = ReturnType<typeof messageRow>;

/** The files a message sends, or null. */
const filesOf = (m: NewMessage): Attachment[] | null => ((m.role === 'user' || m.role === 'operator') && m.attachments?.length ? m.attachments : null);

function messageRow(m: NewMessage, conversationId: string) {
  const assistant = m.role === 'assistant' ? m : undefined;
  const keyed = m.role === 'user' ? m.idempotency : undefined;
  const author = m.role === 'operator' || m.role === 'note' ? m.author : undefined;
  return {
    id: newId('msg'),
    conversation_id: conversationId,
    attachments: filesOf(m),
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
    author_id: author?.id ?? null,
    author_name: author?.name ?? null,
    author_avatar_url: author?.avatar_url ?? null,
  };
}

const inSeqOrder = (rows: MessageRow[]): Message[] => rows.sort((a, b) => Number(BigInt(a.seq) - BigInt(b.seq))).map(toMessage);

/** Where a write runs: the service's connection, or a transaction that stores more with it. */
type Executor = QueryExecutorProvider;

export class MessageWriter {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Appends messages in order and touches the conversation (or creates it, with `create`), in ONE
   * statement: a turn is one round trip and one implicit transaction, so the row locks it takes (the
   * conversation's, and the analytics rollup rows its triggers update) are held for that statement
   * and its commit only, not across several round trips. A keyed user message that another request
   * already stored throws a unique violation (`isKeyedTurnConflict`) and nothing of this call is
   * written. A conversation deleted meanwhile, or a bot or agent deleted before its conversation is
   * created, answers 404.
   *
   * Concurrent turns of an account share that statement (group commit, `appendBatch`); a turn that
   * sends files is written alone.
   */
  async append(accountId: string, conversationId: string, messages: NewMessage[], options: { create?: ConversationOwner } = {}): Promise<Message[]> {
    if (options.create && options.create.id !== conversationId) throw new Error('append: create.id must be the conversation id');
    const turn: PendingTurn = { conversationId, messages, create: options.create };
    if (messages.some(filesOf)) return this.appendAlone(this.db, accountId, turn);
    return this.turns.call(accountId, turn);
  }

  /**
   * Appends messages to an existing conversation in one statement run by `trx`, alone (not batched):
   * for a caller that stores more in the same transaction (handoff/service.ts stores the event).
   */
  async appendIn(trx: Executor, accountId: string, conversationId: string, messages: NewMessage[]): Promise<Message[]> {
    return this.appendAlone(trx, accountId, { conversationId, messages });
  }

  private readonly turns = new Batcher<PendingTurn, Message[]>((accountId, items) => this.appendBatch(accountId, items));

  /**
   * Several accounts' worth of turns is never one statement; several turns of one account are, one
   * turn per conversation (a second turn of a conversation goes in a statement after it, so its
   * messages follow the first's in `seq`). Should the statement fail (another request's
   * Idempotency-Key, a bot deleted meanwhile) nothing of it is written, and each turn is written
   * alone, to get its own answer or its own error; so is a turn whose conversation is gone.
   */
  private async appendBatch(accountId: string, items: BatchItem<PendingTurn, Message[]>[]): Promise<void> {
    const settleAlone = (item: BatchItem<PendingTurn, Message[]>) => this.appendAlone(this.db, accountId, item.input).then(item.resolve, item.reject);
    if (items.length === 1) return settleAlone(items[0]!);
    const seen = new Set<string>();
    const now: typeof items = [];
    const after: typeof items = [];
    for (const item of items) (seen.has(item.input.conversationId) ? after : (seen.add(item.input.conversationId), now)).push(item);
    let stored: MessageRow[] | undefined;
    try {
      stored = await this.insertTurns(accountId, now.map((item) => item.input));
    } catch {
      await Promise.all(now.map(settleAlone));
    }
    if (stored) {
      const byConversation = new Map<string, MessageRow[]>();
      for (const row of stored) {
        const rows = byConversation.get(row.conversation_id);
        if (rows) rows.push(row);
        else byConversation.set(row.conversation_id, [row]);
      }
      await Promise.all(
        now.map((item) => {
          const rows = byConversation.get(item.input.conversationId);
          return rows ? item.resolve(inSeqOrder(rows)) : settleAlone(item);
        }),
      );
    }
    if (after.length) await this.appendBatch(accountId, after);
  }

  /** One turn in one statement (see `append`). */
  private async appendAlone(db: Executor, accountId: string, turn: PendingTurn): Promise<Message[]> {
    const { conversationId, messages, create: owner } = turn;
    // Touching first takes the row lock that makes concurrent appends to one conversation take turns,
    // so a turn's messages are adjacent in `seq` and "the reply after a user message" is its reply
    // (the messages are only produced once `conversation` has its row).
    const conversation = owner
      ? sql`insert into conversations (id, account_id, bot_id, agent_id, user_id, is_test)
            values (${conversationId}, ${accountId}, ${owner.botId ?? null}, ${owner.agentId ?? null}, ${owner.userId ?? null}, ${owner.test ?? false}) returning id`
      : sql`update conversations set updated_at = now() where account_id = ${accountId} and id = ${conversationId} returning id`;
    const links: ReturnType<typeof sql>[] = [];
    const rows = messages.map((m) => {
      const row = messageRow(m, conversationId);
      const files = filesOf(m);
      if (files) links.push(sql`, ${sql.raw(`linked${links.length}`)} as (${linkAttachments(accountId, row.id, conversationId, files.map((f) => f.id))} and exists (select 1 from conversation) returning 1)`);
      return row;
    });
    const inserted = await this.insertMessages(db, accountId, sql`with conversation as (${conversation})`, sql.join(links, sql``), rows);
    if (inserted.length === 0) throw notFound('conversation_id', 'conversation');
    return inSeqOrder(inserted);
  }

  /**
   * The turns of `appendBatch` in one statement: their conversations locked in id order (two
   * instances batching the same conversations never wait for each other crosswise) and touched, the
   * new ones created, then every message in the turns' order.
   */
  private async insertTurns(accountId: string, turns: PendingTurn[]): Promise<MessageRow[]> {
    const conversations = turns.map(({ conversationId, create }) => ({
      id: conversationId,
      is_new: create !== undefined,
      bot_id: create?.botId ?? null,
      agent_id: create?.agentId ?? null,
      user_id: create?.userId ?? null,
      is_test: create?.test ?? false,
    }));
    // The existing conversations are found by their keys (`id = any(…)`), not by joining `turns`: the
    // planner knows nothing of a JSON recordset's rows and, with an account's statistics stale (PGlite
    // never analyzes by itself), it hashed all of the account's conversations for every batch.
    const existing = turns.filter((turn) => turn.create === undefined).map((turn) => turn.conversationId);
    const conversation = sql`with turns as (
        select * from jsonb_to_recordset(${json(conversations)}::jsonb) as t(id text, is_new boolean, bot_id text, agent_id text, user_id text, is_test boolean)),
      locked as (
        select c.id from conversations c
        where c.id = any(${existing}::text[]) and c.account_id = ${accountId} order by c.id for update of c),
      touched as (update conversations c set updated_at = now() where c.id = any(array(select id from locked)) returning c.id),
      created as (
        insert into conversations (id, account_id, bot_id, agent_id, user_id, is_test)
        select id, ${accountId}, bot_id, agent_id, user_id, is_test from turns where is_new returning id),
      conversation as (select id from touched union all select id from created)`;
    const rows = turns.flatMap(({ conversationId, messages }) => messages.map((m) => messageRow(m, conversationId)));
    return this.insertMessages(this.db, accountId, conversation, sql``, rows);
  }

  /**
   * Inserts `rows` after the CTEs that produce `conversation` (the ids the messages may go to). The
   * rows travel as one JSON parameter, typed by the table itself (jsonb_populate_recordset), and are
   * inserted in their given order (`ordinality`), which is the order of `seq`.
   */
  private async insertMessages(db: Executor, accountId: string, conversation: RawBuilder<unknown>, links: RawBuilder<unknown>, rows: MessageRowInput[]): Promise<MessageRow[]> {
    const keys = rows.flatMap((row) => (row.idempotency_key ? [row.idempotency_key] : []));
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
    const inserted = await sql<MessageRow>`
      ${conversation}${freed}${links}
      insert into messages (id, account_id, conversation_id, role, content, source, intent, confidence, citations,
                            suggestions, latency_ms, entities, stopped, idempotency_key, idempotency_request_hash, attachments,
                            author_id, author_name, author_avatar_url)
      select m.id, ${accountId}, conversation.id, m.role, m.content, m.source, m.intent, m.confidence, m.citations,
             m.suggestions, m.latency_ms, m.entities, coalesce(m.stopped, false), m.idempotency_key, m.idempotency_request_hash,
             m.attachments, m.author_id, m.author_name, m.author_avatar_url
      from jsonb_populate_recordset(null::messages, ${json(rows)}::jsonb) with ordinality as m
      join conversation on conversation.id = m.conversation_id
      ${keys.length ? sql`where (select count(*) from freed) >= 0` : sql``}
      order by m.ordinality
      returning *`
      .execute(db)
      .catch(rethrowMissingOwner);
    return inserted.rows;
  }
}
