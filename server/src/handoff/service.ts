/**
 * Human handoff: a conversation's status (`bot` → `waiting` → `with_person` → `closed`), the
 * messages written while a person is involved, and the events a live stream delivers.
 *
 * Every status change is ONE conditional update (`where status in (allowed sources)`): of two
 * operators taking one conversation, the database lets exactly one update match; the other sees no
 * row and gets 409 `invalid_status_transition`. Every change and message is stored together with its
 * event (`handoff_events`, in one transaction) before the event is published (bus.ts), so a stream
 * that reconnects with `Last-Event-ID` reads from the store what it missed, and nothing twice.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Attachment, HandoffAvailability, HandoffState, Message, OfflineMessage, OfflineMessageRequest, OperatorProfile } from '../../../src/client/types.ts';
import type { AttachmentService } from '../attachments/service.ts';
import type { MessageWriter, NewMessage } from '../conversations/message-writer.ts';
import { toMessage } from '../conversations/message-row.ts';
import type { ConversationRow } from '../conversations/service.ts';
import { statusesBefore, type ConversationStatus } from '../conversations/status.ts';
import { iso, json } from '../db/json.ts';
import type { Database } from '../db/schema.ts';
import { invalid, notFound, ServiceError } from '../http/errors.ts';
import type { IdempotencyTag } from '../http/idempotency.ts';
import { newId } from '../ids.ts';
import { accountTopic, conversationTopic, type BusEvent, type HandoffBus } from './bus.ts';
import type { HandoffSettingsService } from './settings.ts';
import { ClosingStreams } from './closing-streams.ts';
import { withHandoffTables, type HandoffDatabase } from './tables.ts';
import { MAX_NOTES } from './schema.ts';
import { toOfflineMessage } from './offline-messages.ts';
import { operatorName, type Operator } from './operator.ts';

export { operatorName, type Operator };

/** Who may see a conversation: the visitor's own (`userId`, and `botId` when a token is bound to one). */
export interface Visitor {
  userId?: string;
  botId?: string;
}


/** The columns of a conversation its handoff reads. */
export type HandoffRow = Pick<ConversationRow, 'id' | 'account_id' | 'bot_id' | 'user_id' | 'status' | 'waiting_since' | 'operator_id'>;
/** The columns of `HandoffRow`, for selects and `returning`. */
export const HANDOFF_COLUMNS = ['id', 'account_id', 'bot_id', 'user_id', 'status', 'waiting_since', 'operator_id'] as const;

export class HandoffService {
  readonly db: Kysely<HandoffDatabase>;
  /** Event streams of this process still cleaning up after their client went away (stream.ts). */
  readonly closingStreams = new ClosingStreams();

  constructor(
    db: Kysely<Database>,
    /** The one INSERT path of messages (conversations/message-writer.ts). */
    private readonly messages: Pick<MessageWriter, 'appendIn'>,
    readonly bus: HandoffBus,
    readonly settings: HandoffSettingsService,
    /** Files an operator sends; without it a reply naming files is refused. */
    readonly attachments: AttachmentService | undefined,
    /** How often each event stream beats (stream.ts; `ServiceOptions.streamHeartbeatMs`): its keep-alive, and its session and store checked again. */
    readonly streamHeartbeatMs: number,
  ) {
    this.db = withHandoffTables(db);
  }

  /**
   * Automatic assignment (assignment.ts), told whenever the queue or an operator's load may have
   * changed; set by services.ts (it needs this service to store its changes).
   */
  assigner?: { drain(accountId: string): Promise<unknown> };

  /** The conversation as `visitor` may see it; 404 for anyone else's (ids cannot be probed). */
  async conversation(accountId: string, conversationId: string, visitor: Visitor = {}): Promise<HandoffRow> {
    const row = await this.db
      .selectFrom('conversations')
      .select(HANDOFF_COLUMNS)
      .where('account_id', '=', accountId)
      .where('id', '=', conversationId)
      .executeTakeFirst();
    if (!row) throw notFound('conversation_id', 'conversation');
    if (visitor.userId !== undefined && row.user_id !== visitor.userId) throw notFound('conversation_id', 'conversation');
    if (visitor.botId !== undefined && row.bot_id !== visitor.botId) throw notFound('conversation_id', 'conversation');
    return row;
  }

  /** `availability`: when the caller has it at hand (a turn that read the bot's settings already). */
  async state(accountId: string, conversationId: string, visitor: Visitor = {}, availability?: HandoffAvailability): Promise<HandoffState> {
    return this.stateOf(await this.conversation(accountId, conversationId, visitor), { availability });
  }

  /** The visitor asks for a person: `bot` → `waiting`, when the bot hands off and someone can answer. */
  async request(accountId: string, conversationId: string, visitor: Visitor = {}): Promise<HandoffState> {
    const conversation = await this.conversation(accountId, conversationId, visitor);
    if (conversation.status === 'waiting' || conversation.status === 'with_person') return this.stateOf(conversation); // asked twice: no change
    const availability = await this.settings.availability(accountId, conversation.bot_id);
    if (!availability.available) {
      throw new ServiceError('handoff_unavailable', unavailableMessage(availability.unavailable_reason), { param: 'conversation_id' });
    }
    return this.transition(accountId, conversationId, 'waiting');
  }

  /**
   * Changes the status if the current one allows it, atomically, and stores + publishes the change.
   * `operatorId`: the operator taking it (`with_person`); `onlyOperator`: the change is refused unless
   * this operator holds the conversation (an operator's close).
   */
  async transition(accountId: string, conversationId: string, to: ConversationStatus, options: { operatorId?: string; onlyOperator?: string } = {}): Promise<HandoffState> {
    const from = statusesBefore(to);
    // Read before the transaction: PGlite has one connection, which the transaction holds.
    const botId = (await this.conversation(accountId, conversationId)).bot_id;
    const availability = await this.settings.availability(accountId, botId);
    const { state, event } = await this.db.transaction().execute(async (trx) => {
      let update = trx
        .updateTable('conversations')
        .set({
          status: to,
          waiting_since: to === 'waiting' ? sql`now()` : to === 'with_person' ? sql`waiting_since` : null,
          operator_id: to === 'with_person' ? (options.operatorId ?? null) : null,
        })
        .where('account_id', '=', accountId)
        .where('id', '=', conversationId)
        .where('status', 'in', from);
      if (options.onlyOperator) update = update.where((eb) => eb.or([eb('operator_id', '=', options.onlyOperator!), eb('status', '=', 'waiting')]));
      const row = await update.returning(HANDOFF_COLUMNS).executeTakeFirst();
      if (!row) throw await this.refusal(trx, accountId, conversationId, to);
      if (to === 'with_person' && options.operatorId) await assignedNow(trx, options.operatorId);
      return this.storeStatus(trx, row, availability);
    });
    this.publish(accountId, conversationId, event);
    // a new waiting conversation, or an operator with one less: the queue may move
    if (to !== 'with_person') await this.assigner?.drain(accountId);
    return state;
  }

  /** Stores a status change made in `trx` with its event; the caller publishes the event once committed. */
  async storeStatus(trx: Transaction<HandoffDatabase>, row: HandoffRow, availability: HandoffAvailability): Promise<{ state: HandoffState; event: BusEvent }> {
    const state = await this.stateOf(row, { db: trx, availability });
    return { state, event: await this.storeEvent(trx, row.account_id, row.id, 'status', state) };
  }

  /** Why a transition matched no row: 404, or 409 with what the status is now. */
  private async refusal(trx: Transaction<HandoffDatabase>, accountId: string, conversationId: string, to: ConversationStatus): Promise<ServiceError> {
    const current = await trx.selectFrom('conversations').select(['status', 'operator_id']).where('account_id', '=', accountId).where('id', '=', conversationId).executeTakeFirst();
    if (!current) return notFound('conversation_id', 'conversation');
    const why =
      current.status === 'with_person' && to === 'with_person'
        ? 'Another operator already took this conversation.'
        : current.status === 'with_person'
          ? `The conversation is with another operator; it cannot become ${to}.`
          : `A ${current.status} conversation cannot become ${to}.`;
    return new ServiceError('invalid_status_transition', why, { param: 'conversation_id' });
  }

  /** An operator takes a waiting conversation; of two at once, exactly one wins. */
  take(operator: Operator, conversationId: string): Promise<HandoffState> {
    return this.transition(operator.accountId, conversationId, 'with_person', { operatorId: operator.userId });
  }

  /** An operator ends their part: back to the bot, or the conversation ends. */
  close(operator: Operator, conversationId: string, to: 'bot' | 'closed'): Promise<HandoffState> {
    return this.transition(operator.accountId, conversationId, to, { onlyOperator: operator.userId });
  }

  /** An operator's reply, in a conversation they hold. */
  async reply(operator: Operator, conversationId: string, content: string, attachmentIds: string[] = []): Promise<Message> {
    const conversation = await this.conversation(operator.accountId, conversationId);
    if (conversation.status !== 'with_person' || conversation.operator_id !== operator.userId) {
      throw new ServiceError('invalid_status_transition', 'Take the conversation before replying to it.', { param: 'conversation_id' });
    }
    if (!content.trim() && !attachmentIds.length) throw invalid('content', 'Write a reply or attach a file.');
    if (attachmentIds.length && !this.attachments) throw new ServiceError('permission_denied', 'This service takes no attachments.', { param: 'attachments' });
    const attachments = (await this.attachments?.forMessage(operator.accountId, attachmentIds, { botId: conversation.bot_id, userId: null, conversationId })) ?? [];
    const author = await this.operatorProfile(operator.userId);
    return this.storeMessage(operator.accountId, conversationId, { role: 'operator', content: content.trim() ? content : '', author, attachments });
  }

  /**
   * A private note of the team on any conversation of the account: stored with its messages, and
   * published to the inbox only (`storeMessage`); nothing a visitor reaches reads it.
   */
  async note(operator: Operator, conversationId: string, content: string): Promise<Message> {
    await this.conversation(operator.accountId, conversationId);
    if (!content.trim()) throw invalid('content', 'Write the note.');
    return this.storeMessage(operator.accountId, conversationId, { role: 'note', content, author: await this.operatorProfile(operator.userId) });
  }

  /** The conversation's notes, oldest first: the newest `MAX_NOTES` (the inbox shows them in its transcript). */
  async notes(accountId: string, conversationId: string): Promise<Message[]> {
    await this.conversation(accountId, conversationId);
    const rows = await this.db
      .selectFrom('messages')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('conversation_id', '=', conversationId)
      .where('role', '=', 'note')
      .orderBy('seq', 'desc')
      .limit(MAX_NOTES)
      .execute();
    return rows.reverse().map(toMessage);
  }

  /** A visitor message while a person is involved: stored, not answered by the bot. */
  async visitorMessage(accountId: string, conversationId: string, content: string, extra: { idempotency?: IdempotencyTag; attachments?: Attachment[] } = {}): Promise<{ message: Message; state: HandoffState }> {
    const message = await this.storeMessage(accountId, conversationId, { role: 'user', content, ...extra });
    return { message, state: await this.state(accountId, conversationId) };
  }

  /** "Typing…" for a few seconds; published only (a reconnect has no use for an old one). */
  async typing(operator: Operator, conversationId: string): Promise<void> {
    const conversation = await this.conversation(operator.accountId, conversationId);
    if (conversation.status !== 'with_person' || conversation.operator_id !== operator.userId) {
      throw new ServiceError('invalid_status_transition', 'Take the conversation before typing in it.', { param: 'conversation_id' });
    }
    const data = { conversation_id: conversationId, from: 'operator', operator: await this.operatorProfile(operator.userId) };
    this.publish(operator.accountId, conversationId, { type: 'typing', id: null, data });
  }

  /** The visitor is typing (a person is involved): published to the operator, not stored. */
  async visitorTyping(accountId: string, conversationId: string, visitor: Visitor = {}): Promise<void> {
    const conversation = await this.conversation(accountId, conversationId, visitor);
    if (conversation.status !== 'waiting' && conversation.status !== 'with_person') {
      throw new ServiceError('invalid_status_transition', 'Typing is shared only while a person is asked for or involved.', { param: 'conversation_id' });
    }
    this.publish(accountId, conversationId, { type: 'typing', id: null, data: { conversation_id: conversationId, from: 'visitor', operator: null } });
  }

  async leaveOfflineMessage(accountId: string, conversationId: string, input: OfflineMessageRequest, visitor: Visitor = {}): Promise<OfflineMessage> {
    const conversation = await this.conversation(accountId, conversationId, visitor);
    const row = await this.db
      .insertInto('offline_messages')
      .values({ id: newId('ofm'), account_id: accountId, conversation_id: conversationId, bot_id: conversation.bot_id, user_id: conversation.user_id, email: input.email.trim(), message: input.message })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toOfflineMessage(row);
  }

  /** Stored events after `afterSeq`, oldest first: one conversation's, or a whole account's (the inbox). */
  async eventsAfter(scope: { accountId: string; conversationId?: string }, afterSeq: string, limit = 500): Promise<BusEvent[]> {
    let query = this.db.selectFrom('handoff_events').select(['seq', 'type', 'data']).where('account_id', '=', scope.accountId).where('seq', '>', afterSeq);
    // A conversation's stream is the visitor's: the team's notes are on the account's (the inbox) only.
    if (scope.conversationId) query = query.where('conversation_id', '=', scope.conversationId).where('type', '<>', 'note');
    const rows = await query.orderBy('seq').limit(limit).execute();
    return rows.map((row) => ({ type: row.type, id: String(row.seq), data: row.data }));
  }

  /** The newest stored event id of a scope ('0' for none): where a stream without Last-Event-ID starts. */
  async lastEventId(scope: { accountId: string; conversationId?: string }): Promise<string> {
    let query = this.db.selectFrom('handoff_events').select((eb) => eb.fn.max('seq').as('seq')).where('account_id', '=', scope.accountId);
    if (scope.conversationId) query = query.where('conversation_id', '=', scope.conversationId);
    const row = await query.executeTakeFirst();
    return row?.seq ? String(row.seq) : '0';
  }

  /** How a dashboard user appears to visitors: their display name, else their email's local part. */
  operatorProfile(userId: string): Promise<OperatorProfile> {
    return profileIn(this.db, userId);
  }

  /** `known`: what the caller has read already (inside a transaction: its connection, and availability read before it). */
  async stateOf(row: HandoffRow, known: { db?: Kysely<HandoffDatabase>; availability?: HandoffAvailability } = {}): Promise<HandoffState> {
    const availability = known.availability ?? (await this.settings.availability(row.account_id, row.bot_id));
    const operator = row.operator_id ? await profileIn(known.db ?? this.db, row.operator_id) : null;
    const involved = row.status === 'waiting' || row.status === 'with_person';
    return {
      conversation_id: row.id,
      status: row.status,
      operator,
      waiting_since: involved && row.waiting_since ? iso(row.waiting_since) : null,
      ...availability,
    };
  }

  /**
   * Stores a message written while a person is involved, with its event, through the one message
   * writer. A visitor's message keeps its Idempotency-Key, as a bot turn's does: a retry finds it
   * (`ConversationService.findKeyedTurn`, held) instead of storing it twice; one running alongside
   * hits the unique key.
   */
  private async storeMessage(accountId: string, conversationId: string, input: Exclude<NewMessage, { role: 'assistant' }>): Promise<Message> {
    const note = input.role === 'note';
    const { message, event } = await this.db.transaction().execute(async (trx) => {
      const [message] = await this.messages.appendIn(trx, accountId, conversationId, [input]);
      return { message: message!, event: await this.storeEvent(trx, accountId, conversationId, note ? 'note' : 'message', message) };
    });
    if (note) this.bus.publish([accountTopic(accountId)], event);
    else this.publish(accountId, conversationId, event);
    return message;
  }

  private async storeEvent(trx: Transaction<HandoffDatabase>, accountId: string, conversationId: string, type: string, data: unknown): Promise<BusEvent> {
    const row = await trx.insertInto('handoff_events').values({ account_id: accountId, conversation_id: conversationId, type, data: json(data) }).returning('seq').executeTakeFirstOrThrow();
    return { type, id: String(row.seq), data };
  }

  /** To the conversation's stream (the visitor) and the account's (every inbox), on every instance. */
  publish(accountId: string, conversationId: string, event: BusEvent): void {
    this.bus.publish([conversationTopic(conversationId), accountTopic(accountId)], event);
  }
}

/** An operator was given a conversation (taken or assigned): ties in automatic assignment go to who waited longest since. */
export async function assignedNow(db: Kysely<HandoffDatabase>, operatorId: string): Promise<void> {
  // clock_timestamp, not now(): several assignments in one transaction keep their order
  await db.updateTable('users').set({ last_assigned_at: sql<Date>`clock_timestamp()` }).where('id', '=', operatorId).execute();
}

async function profileIn(db: Kysely<HandoffDatabase>, userId: string): Promise<OperatorProfile> {
  const user = await db.selectFrom('users').select(['id', 'email', 'display_name', 'avatar_url']).where('id', '=', userId).executeTakeFirst();
  if (!user) return { id: userId, name: 'Operator', avatar_url: null };
  return { id: user.id, name: operatorName(user), avatar_url: user.avatar_url };
}


function unavailableMessage(reason: string | null): string {
  if (reason === 'outside_hours') return 'Nobody answers outside the opening hours; leave an email for a reply.';
  if (reason === 'nobody_online') return 'Nobody is online to answer; leave an email for a reply.';
  return 'This bot does not hand conversations to a person.';
}
