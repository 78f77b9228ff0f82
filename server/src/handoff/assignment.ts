/**
 * Assignment of conversations to operators (the account's dashboard users).
 *
 * By hand: assign a waiting conversation to a teammate, transfer one with a person to another, or
 * unassign it (back to the queue). Each is one conditional UPDATE, stored with its `status` event
 * and published on the conversation's and the account's topics, as every handoff change is
 * (service.ts): the visitor's widget hears the new operator, every inbox who has what.
 *
 * Automatically (`auto`, off by default): whenever the queue or an operator's load may have changed
 * (a conversation starts waiting, one with a person ends or moves, an operator comes online, a
 * setting changes), `drain` gives the waiting conversations, longest wait first, each to the
 * `online` operator with the fewest open (`with_person`) conversations under their capacity, ties
 * to who waited longest since their last assignment ("balanced"). None under capacity: it stays in
 * the queue for the next drain. A drain holds the account's `assignment_settings` row `FOR UPDATE`
 * while it counts and chooses, so drains on any number of instances run one after another and never
 * exceed a capacity; the waiting rows are read `FOR UPDATE SKIP LOCKED` and changed only while still
 * `waiting`, so a conversation an operator takes meanwhile is never given to a second one.
 */
import { sql, type Kysely } from 'kysely';
import type { AssignmentSettings, AssignmentSettingsInput, HandoffAvailability, HandoffState } from '../../../src/client/types.ts';
import { realConversations } from '../conversations/test-conversations.ts';
import { iso } from '../db/json.ts';
import type { Database } from '../db/schema.ts';
import { notFound, ServiceError } from '../http/errors.ts';
import type { Logger } from '../logger.ts';
import type { BusEvent } from './bus.ts';
import type { OperatorPresences } from './presence.ts';
import { assignedNow, HANDOFF_COLUMNS, type HandoffService } from './service.ts';
import { withHandoffTables, type HandoffDatabase } from './tables.ts';
import { operatorName } from './operator.ts';

/** Waiting conversations one drain gives out at most; the next trigger carries on. */
const DRAIN_BATCH = 50;
/** Operators `GET /v1/assignment` lists at most. */
const MAX_OPERATORS = 500;

interface Candidate {
  id: string;
  capacity: number;
  open: number;
  /** Last assignment before this drain (ms; -Infinity: never), then the order of this drain's. */
  since: number;
  given: number;
}

export class Assignments {
  private readonly db: Kysely<HandoffDatabase>;

  constructor(
    db: Kysely<Database>,
    private readonly handoff: HandoffService,
    private readonly presences: OperatorPresences,
    private readonly logger: Logger,
  ) {
    this.db = withHandoffTables(db);
  }

  async settings(accountId: string): Promise<AssignmentSettings> {
    const settings = await this.db.selectFrom('assignment_settings').select('auto').where('account_id', '=', accountId).executeTakeFirst();
    const presence = await this.presences.ofAccount(accountId);
    const rows = await this.db
      .selectFrom('users')
      .select(['id', 'email', 'display_name', 'avatar_url', 'assign_capacity', 'last_assigned_at'])
      .select(openOf(accountId).as('open'))
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .orderBy('id')
      .limit(MAX_OPERATORS)
      .execute();
    return {
      auto: settings?.auto ?? false,
      operators: rows.map((row) => ({
        id: row.id,
        name: operatorName(row),
        avatar_url: row.avatar_url,
        capacity: row.assign_capacity,
        open: Number(row.open),
        presence: presence.get(row.id) ?? 'offline',
        last_assigned_at: row.last_assigned_at ? iso(row.last_assigned_at) : null,
      })),
    };
  }

  /** Turns automatic assignment on or off and sets capacities; an unknown operator is 404 and changes nothing. */
  async update(accountId: string, input: AssignmentSettingsInput): Promise<AssignmentSettings> {
    const capacities = input.capacities ?? [];
    for (const { operator_id } of capacities) await this.member(accountId, operator_id);
    await this.db.transaction().execute(async (trx) => {
      if (input.auto !== undefined) {
        await trx
          .insertInto('assignment_settings')
          .values({ account_id: accountId, auto: input.auto })
          .onConflict((oc) => oc.column('account_id').doUpdateSet({ auto: input.auto!, updated_at: new Date() }))
          .execute();
      }
      for (const { operator_id, capacity } of capacities) {
        await trx.updateTable('users').set({ assign_capacity: capacity }).where('account_id', '=', accountId).where('id', '=', operator_id).execute();
      }
    });
    await this.drain(accountId);
    return this.settings(accountId);
  }

  /**
   * Gives a waiting conversation to `operatorId`, or moves one with a person to them (a transfer).
   * By hand, so their presence and capacity do not matter. Already theirs: no change, no event.
   */
  async assign(accountId: string, conversationId: string, operatorId: string): Promise<HandoffState> {
    await this.member(accountId, operatorId);
    const conversation = await this.handoff.conversation(accountId, conversationId);
    const availability = await this.handoff.settings.availability(accountId, conversation.bot_id);
    const changed = await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('conversations')
        .set({ status: 'with_person', operator_id: operatorId })
        .where('account_id', '=', accountId)
        .where('id', '=', conversationId)
        .where('status', 'in', ['waiting', 'with_person'])
        .where(sql<boolean>`operator_id is distinct from ${operatorId}`)
        .returning(HANDOFF_COLUMNS)
        .executeTakeFirst();
      if (!row) return null;
      await assignedNow(trx, operatorId);
      return this.handoff.storeStatus(trx, row, availability);
    });
    if (!changed) return this.unchanged(accountId, conversationId, (row) => row.status === 'with_person' && row.operator_id === operatorId, 'Only a conversation waiting for a person or with one can be assigned.');
    this.handoff.publish(accountId, conversationId, changed.event);
    await this.drain(accountId); // a transfer leaves the previous operator a place
    return changed.state;
  }

  /** Puts a conversation with a person back in the queue (`waiting`, a new wait from now). Waiting already: no change. */
  async unassign(accountId: string, conversationId: string): Promise<HandoffState> {
    const conversation = await this.handoff.conversation(accountId, conversationId);
    const availability = await this.handoff.settings.availability(accountId, conversation.bot_id);
    const changed = await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('conversations')
        .set({ status: 'waiting', operator_id: null, waiting_since: sql<Date>`now()` })
        .where('account_id', '=', accountId)
        .where('id', '=', conversationId)
        .where('status', '=', 'with_person')
        .returning(HANDOFF_COLUMNS)
        .executeTakeFirst();
      return row ? { ...(await this.handoff.storeStatus(trx, row, availability)), from: conversation.operator_id } : null;
    });
    if (!changed) return this.unchanged(accountId, conversationId, (row) => row.status === 'waiting', 'Only a conversation with a person can be unassigned.');
    this.handoff.publish(accountId, conversationId, changed.event);
    // Given out again by the rule, but not straight back to whom it was taken from.
    await this.drain(accountId, changed.from ? { conversationId, operatorId: changed.from } : undefined);
    return this.handoff.state(accountId, conversationId);
  }

  /**
   * Gives out what waits, as the module comment says; resolves with how many were assigned. Never
   * throws: its callers' own change is done, and the next trigger tries again.
   */
  async drain(accountId: string, avoid?: { conversationId: string; operatorId: string }): Promise<number> {
    try {
      return await this.drainOnce(accountId, avoid);
    } catch (error) {
      this.logger.error('waiting conversations not assigned until the next change', { error: error instanceof Error ? error.message : String(error) });
      return 0;
    }
  }

  private async drainOnce(accountId: string, avoid?: { conversationId: string; operatorId: string }): Promise<number> {
    const settings = await this.db.selectFrom('assignment_settings').select('auto').where('account_id', '=', accountId).executeTakeFirst();
    if (!settings?.auto) return 0;
    const online = [...(await this.presences.ofAccount(accountId))].filter(([, status]) => status === 'online').map(([id]) => id);
    if (online.length === 0) return 0;
    // Read before the transaction (PGlite has one connection, which the transaction holds). A bot
    // whose first conversation starts waiting after this read waits for that conversation's own drain.
    const bots = await this.db.selectFrom('conversations').select('bot_id').distinct().where('account_id', '=', accountId).where(realConversations('conversations')).where('status', '=', 'waiting').execute();
    const availability = new Map<string | null, HandoffAvailability>();
    for (const { bot_id } of bots) availability.set(bot_id, await this.handoff.settings.availability(accountId, bot_id));
    if (availability.size === 0) return 0;

    const changes = await this.db.transaction().execute(async (trx) => {
      const lock = await trx.selectFrom('assignment_settings').select('auto').where('account_id', '=', accountId).forUpdate().executeTakeFirst();
      if (!lock?.auto) return [];
      const waiting = await trx
        .selectFrom('conversations')
        .select(['id', 'bot_id'])
        .where('account_id', '=', accountId)
        .where(realConversations('conversations'))
        .where('status', '=', 'waiting')
        .orderBy('waiting_since')
        .orderBy('id')
        .limit(DRAIN_BATCH)
        .forUpdate()
        .skipLocked()
        .execute();
      if (waiting.length === 0) return [];
      const operators: Candidate[] = (
        await trx
          .selectFrom('users')
          .select(['id', 'assign_capacity', 'last_assigned_at'])
          .select(openOf(accountId).as('open'))
          .where('account_id', '=', accountId)
          .where('id', 'in', online)
          .execute()
      ).map((row) => ({ id: row.id, capacity: row.assign_capacity, open: Number(row.open), since: row.last_assigned_at?.getTime() ?? -Infinity, given: 0 }));
      const changes: { conversationId: string; event: BusEvent }[] = [];
      for (const conversation of waiting) {
        const known = availability.get(conversation.bot_id);
        if (!known) continue;
        const skip = avoid?.conversationId === conversation.id ? avoid.operatorId : undefined;
        const operator = balanced(operators.filter((o) => o.id !== skip));
        if (!operator) {
          if (!balanced(operators)) break; // everyone is full
          continue;
        }
        const row = await trx
          .updateTable('conversations')
          .set({ status: 'with_person', operator_id: operator.id })
          .where('id', '=', conversation.id)
          .where('status', '=', 'waiting')
          .returning(HANDOFF_COLUMNS)
          .executeTakeFirst();
        if (!row) continue;
        operator.open += 1;
        operator.given = changes.length + 1;
        await assignedNow(trx, operator.id);
        changes.push({ conversationId: row.id, event: (await this.handoff.storeStatus(trx, row, known)).event });
      }
      return changes;
    });
    for (const { conversationId, event } of changes) this.handoff.publish(accountId, conversationId, event);
    return changes.length;
  }

  /** 404 `resource_not_found` (`operator_id`) unless `operatorId` is a dashboard user of the account. */
  private async member(accountId: string, operatorId: string): Promise<void> {
    const user = await this.db.selectFrom('users').select('id').where('account_id', '=', accountId).where('id', '=', operatorId).executeTakeFirst();
    if (!user) throw notFound('operator_id', 'operator');
  }

  /** A change that matched no row: the state when `same` says it is what was asked, else 409. */
  private async unchanged(accountId: string, conversationId: string, same: (row: { status: string; operator_id: string | null }) => boolean, why: string): Promise<HandoffState> {
    const row = await this.handoff.conversation(accountId, conversationId);
    if (same(row)) return this.handoff.state(accountId, conversationId);
    throw new ServiceError('invalid_status_transition', `${why} This one is ${row.status}.`, { param: 'conversation_id' });
  }
}

/** The operator "balanced" assignment picks among `operators`: under capacity, fewest open, then longest since their last one. */
export function balanced<T extends Candidate>(operators: T[]): T | undefined {
  let best: T | undefined;
  for (const operator of operators) {
    if (operator.open >= operator.capacity) continue;
    if (!best || before(operator, best)) best = operator;
  }
  return best;
}

function before(a: Candidate, b: Candidate): boolean {
  if (a.open !== b.open) return a.open < b.open;
  // one given a conversation in this drain waited less than any who was not, and than one given one earlier in it
  if (a.given !== b.given) return a.given === 0 || (b.given !== 0 && a.given < b.given);
  if (a.since !== b.since) return a.since < b.since;
  return a.id < b.id;
}

/** The `with_person` conversations an operator holds. */
function openOf(accountId: string) {
  return sql<string>`(select count(*) from conversations oc where oc.account_id = ${accountId} and oc.status = 'with_person' and oc.operator_id = users.id)`;
}
