/**
 * A bot's handoff settings (`/v1/bots/{bot_id}/handoff`) and whether a person can be asked for now:
 * handoff on, inside the opening hours (if any), and an operator showing `online` (presence.ts).
 */
import type { Kysely } from 'kysely';
import type { HandoffAvailability, HandoffSettings, HandoffSettingsInput, OpeningHours } from '../../../src/client/types.ts';
import type { BotService } from '../bots/service.ts';
import { SharedRowRead } from '../db/batcher.ts';
import { json } from '../db/json.ts';
import type { Database } from '../db/schema.ts';
import { invalid } from '../http/errors.ts';
import { isTimeZone } from '../time-zones.ts';
import { isOpen, minutesOf } from './hours.ts';
import type { OperatorPresences } from './presence.ts';
import { withHandoffTables, type HandoffDatabase } from './tables.ts';

export class HandoffSettingsService {
  private readonly db: Kysely<HandoffDatabase>;

  constructor(
    db: Kysely<Database>,
    private readonly bots: BotService,
    /** Who is online (presence.ts): no operator online, no handoff. */
    readonly presences: OperatorPresences,
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
    if (!(await this.presences.someoneOnline(accountId))) return { available: false, unavailable_reason: 'nobody_online' };
    return { available: true, unavailable_reason: null };
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
