/**
 * A bot's handoff settings (`/v1/bots/{bot_id}/handoff`) and whether a person can be asked for now:
 * handoff on, inside the opening hours (if any), and an operator online (an open inbox stream
 * touched `operator_presence` within `PRESENCE_TTL_MS`, on any instance).
 */
import { sql, type Kysely } from 'kysely';
import type { HandoffAvailability, HandoffSettings, HandoffSettingsInput, OpeningHours } from '../../../src/client/types.ts';
import type { BotService } from '../bots/service.ts';
import { SharedRowRead } from '../db/batcher.ts';
import { json } from '../db/json.ts';
import type { Database } from '../db/schema.ts';
import { invalid } from '../http/errors.ts';
import { isTimeZone } from '../time-zones.ts';
import { isOpen, minutesOf } from './hours.ts';
import { withHandoffTables, type HandoffDatabase } from './tables.ts';

/** An inbox stream touches presence every heartbeat (15 s); a stale row means that operator left. */
export const PRESENCE_TTL_MS = 45_000;

export class HandoffSettingsService {
  private readonly db: Kysely<HandoffDatabase>;

  constructor(
    db: Kysely<Database>,
    private readonly bots: BotService,
  ) {
    this.db = withHandoffTables(db);
  }

  async get(accountId: string, botId: string): Promise<HandoffSettings> {
    await this.bots.getRow(accountId, botId); // 404 for another account's bot
    const row = await this.row(accountId, botId);
    const settings = {
      bot_id: botId,
      enabled: row?.enabled ?? false,
      after_fallbacks: row?.after_fallbacks ?? null,
      intents: row?.intents ?? [],
      hours: (row?.hours as OpeningHours | null) ?? null,
    };
    return { ...settings, ...(await this.availabilityOf(accountId, settings)) };
  }

  async put(accountId: string, botId: string, input: HandoffSettingsInput): Promise<HandoffSettings> {
    checkHours(input.hours ?? null);
    await this.bots.getRow(accountId, botId);
    const values = {
      enabled: input.enabled,
      after_fallbacks: input.after_fallbacks ?? null,
      intents: json([...new Set(input.intents ?? [])]),
      hours: input.hours ? json(input.hours) : null,
      updated_at: new Date(),
    };
    await this.db
      .insertInto('bot_handoff')
      .values({ bot_id: botId, account_id: accountId, ...values })
      .onConflict((oc) => oc.column('bot_id').doUpdateSet(values))
      .execute();
    return this.get(accountId, botId);
  }

  /** The settings row of a bot, or undefined (handoff off); read on every turn of a bot, shared by concurrent turns (read only). */
  row(accountId: string, botId: string) {
    return this.rows.get(accountId, botId);
  }

  private readonly rows = new SharedRowRead((accountId, botId) =>
    this.db.selectFrom('bot_handoff').selectAll().where('account_id', '=', accountId).where('bot_id', '=', botId).executeTakeFirst(),
  );

  /** Whether a person can be asked for now in a conversation with `botId` (none: no handoff). */
  async availability(accountId: string, botId: string | null): Promise<HandoffAvailability> {
    const row = botId ? await this.row(accountId, botId) : undefined;
    return this.availabilityOf(accountId, { enabled: row?.enabled ?? false, hours: (row?.hours as OpeningHours | null) ?? null });
  }

  async availabilityOf(accountId: string, settings: { enabled: boolean; hours: OpeningHours | null }): Promise<HandoffAvailability> {
    if (!settings.enabled) return { available: false, unavailable_reason: 'disabled' };
    if (settings.hours && !isOpen(settings.hours)) return { available: false, unavailable_reason: 'outside_hours' };
    if (!(await this.someoneOnline(accountId))) return { available: false, unavailable_reason: 'nobody_online' };
    return { available: true, unavailable_reason: null };
  }

  async someoneOnline(accountId: string): Promise<boolean> {
    const since = new Date(Date.now() - PRESENCE_TTL_MS);
    const row = await this.db
      .selectFrom('operator_presence')
      .select('user_id')
      .where('account_id', '=', accountId)
      .where('seen_at', '>', since)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** An operator's inbox stream is open: they count as online for `PRESENCE_TTL_MS`. */
  async touchPresence(accountId: string, userId: string): Promise<void> {
    await this.db
      .insertInto('operator_presence')
      .values({ user_id: userId, account_id: accountId })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ seen_at: sql`now()`, account_id: accountId }))
      .execute();
  }

  /** The inbox stream closed: that operator is offline at once (unless another of their streams touches again). */
  async leave(userId: string): Promise<void> {
    await this.db.deleteFrom('operator_presence').where('user_id', '=', userId).execute();
  }
}

/** What JSON Schema cannot say about opening hours: a known time zone, ranges that end after they start. */
function checkHours(hours: OpeningHours | null): void {
  if (!hours) return;
  if (!isTimeZone(hours.time_zone)) throw invalid('hours.time_zone', 'hours.time_zone must be an IANA time zone, e.g. "Europe/Berlin".');
  hours.weekly.forEach((range, index) => {
    if (minutesOf(range.to) <= minutesOf(range.from)) {
      throw invalid(`hours.weekly.${index}.to`, `hours.weekly[${index}].to must be after its from.`);
    }
  });
}
