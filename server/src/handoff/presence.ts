/**
 * Operator presence: what an operator chose (`online`, `away`, `offline`; default `online`) and what
 * teammates and the handoff see, which is the choice unless it decayed:
 *
 * - `offline` while none of their dashboards is connected. Every dashboard page keeps the inbox's
 *   events stream open (the shell's notifications), which touches `seen_at` on connect and every
 *   heartbeat (15 s); a row not touched for `PRESENCE_TTL_MS`, or whose last stream closed, is no
 *   open dashboard. That is connection liveness, so it runs on the database's real clock.
 * - `away` when they chose `online` but did nothing in the dashboard for `awayAfterMs` (the shell
 *   reports activity; connecting counts too). That is a rule about people, so it runs on the
 *   injected clock tests move.
 *
 * Everything is in the database, so every instance sees the same presence.
 */
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { OperatorPresence, PresenceStatus } from '../../../src/dashboard/types.ts';
import { iso } from '../db/json.ts';
import type { Database } from '../db/schema.ts';
import { withHandoffTables, type HandoffDatabase } from './tables.ts';

/** A stream touches presence every heartbeat (15 s): a row this stale has no open dashboard behind it. */
export const PRESENCE_TTL_MS = 45_000;

export interface PresenceOptions {
  /** Minutes without dashboard activity after which `online` shows as `away` (`AI_CHAT_PRESENCE_AWAY_MINUTES`). Default 10. */
  awayAfterMinutes?: number;
  /** The clock of activity and decay (tests move it instead of waiting). Default `Date.now`. */
  now?: () => number;
}

export const PRESENCE_STATUSES: readonly PresenceStatus[] = ['online', 'away', 'offline'];

interface PresenceRow {
  user_id: string;
  status: PresenceStatus;
  active_at: Date;
  alive: SqlBool;
}

export class OperatorPresences {
  private readonly db: Kysely<HandoffDatabase>;
  private readonly awayAfterMs: number;
  private readonly now: () => number;

  constructor(db: Kysely<Database>, options: PresenceOptions = {}) {
    this.db = withHandoffTables(db);
    this.awayAfterMs = (options.awayAfterMinutes ?? 10) * 60_000;
    this.now = options.now ?? Date.now;
  }

  /** The one rule of what others see. */
  private shown(row: PresenceRow): PresenceStatus {
    if (!row.alive || row.status === 'offline') return 'offline';
    if (row.status === 'online' && this.now() - row.active_at.getTime() >= this.awayAfterMs) return 'away';
    return row.status;
  }

  private rows() {
    const since = sql<Date>`now() - ${sql.lit(PRESENCE_TTL_MS / 1000)} * interval '1 second'`;
    return this.db
      .selectFrom('operator_presence')
      .select(['user_id', 'status', 'active_at'])
      .select((eb) => eb.and([eb('seen_at', 'is not', null), eb('seen_at', '>', since)]).as('alive'));
  }

  async get(userId: string): Promise<OperatorPresence> {
    const row = await this.rows().where('user_id', '=', userId).executeTakeFirst();
    return {
      status: row ? this.shown(row) : 'offline',
      chosen: row?.status ?? 'online',
      active_at: row ? iso(row.active_at) : null,
      away_after_seconds: this.awayAfterMs / 1000,
    };
  }

  /** What each operator of the account shows (absent: offline). */
  async ofAccount(accountId: string): Promise<Map<string, PresenceStatus>> {
    const rows = await this.rows().where('account_id', '=', accountId).execute();
    return new Map(rows.map((row) => [row.user_id, this.shown(row)]));
  }

  /** Whether a visitor may ask for a person: someone of the account shows `online`. */
  async someoneOnline(accountId: string): Promise<boolean> {
    for (const status of (await this.ofAccount(accountId)).values()) if (status === 'online') return true;
    return false;
  }

  /** The operator's choice; choosing is activity. */
  async choose(accountId: string, userId: string, status: PresenceStatus): Promise<OperatorPresence> {
    const activeAt = new Date(this.now());
    await this.db
      .insertInto('operator_presence')
      .values({ user_id: userId, account_id: accountId, status, active_at: activeAt, seen_at: null })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ status, active_at: activeAt, account_id: accountId }))
      .execute();
    return this.get(userId);
  }

  /** The operator did something in the dashboard. */
  async active(accountId: string, userId: string): Promise<OperatorPresence> {
    const activeAt = new Date(this.now());
    await this.db
      .insertInto('operator_presence')
      .values({ user_id: userId, account_id: accountId, active_at: activeAt, seen_at: null })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ active_at: activeAt, account_id: accountId }))
      .execute();
    return this.get(userId);
  }

  /** A dashboard of theirs is connected: on connect (`activity`: opening a page is activity) and every heartbeat. */
  async touch(accountId: string, userId: string, activity: boolean): Promise<void> {
    const activeAt = new Date(this.now());
    await this.db
      .insertInto('operator_presence')
      .values({ user_id: userId, account_id: accountId, active_at: activeAt, seen_at: sql<Date>`now()` })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ seen_at: sql<Date>`now()`, account_id: accountId, ...(activity ? { active_at: activeAt } : {}) }))
      .execute();
  }

  /** Their last connected dashboard went away: offline at once, their choice kept for next time. */
  async leave(userId: string): Promise<void> {
    await this.db.updateTable('operator_presence').set({ seen_at: null }).where('user_id', '=', userId).execute();
  }
}
