/**
 * Channel rows: one per bot and platform, credentials sealed (secrets.ts). Reads for the API give
 * only which credentials are set; only the worker and the webhook check open them.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { ChannelConnection } from '../../../src/client/types.ts';
import { iso, json } from '../db/json.ts';
import type { Database } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { newId } from '../ids.ts';
import type { Logger } from '../logger.ts';
import type { ChannelAccess, ChannelAdapter, ChannelType } from './adapter.ts';
import type { SecretBox } from '../db/secrets.ts';
import { withChannelTables, type ChannelDatabase, type ChannelsTable } from './tables.ts';

export type ChannelRow = Selectable<ChannelsTable>;

/** A channel as the API answers it (the client's `ChannelConnection`): never a credential, only whether each is set. */
export type ChannelView = ChannelConnection;

/** Where the platform delivers a channel's messages (webhooks.ts). */
export function webhookUrlOf(baseUrl: string, type: ChannelType, channelId: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/v1/channels/${type}/${channelId}`;
}

/** How finely a channel's last delivery and last reply are kept (`mark`). */
const HEALTH_RESOLUTION_MS = 1000;
/** Channels whose health times, and whose rows for deliveries, one instance remembers. */
const MARKED_CAP = 10_000;
/** How long a webhook trusts a channel row it read (`forDelivery`). */
const DELIVERY_CACHE_MS = 5_000;

export class ChannelStore {
  readonly db: Kysely<ChannelDatabase>;
  /** When this instance last wrote each channel's times, by `${channel id} received|sent`. */
  private readonly marked = new Map<string, number>();
  /** `forDelivery`'s rows, by channel id. */
  private readonly deliveryRows = new Map<string, { row: ChannelRow; access: ChannelAccess; until: number }>();

  constructor(
    db: Kysely<Database>,
    private readonly box: SecretBox,
  ) {
    this.db = withChannelTables(db);
  }

  async find(accountId: string, botId: string, type: ChannelType): Promise<ChannelRow | undefined> {
    return this.db.selectFrom('channels').selectAll().where('account_id', '=', accountId).where('bot_id', '=', botId).where('type', '=', type).executeTakeFirst();
  }

  async get(accountId: string, botId: string, type: ChannelType): Promise<ChannelRow> {
    const row = await this.find(accountId, botId, type);
    if (!row) throw notFound('type', 'channel');
    return row;
  }

  /** The channel a webhook names; undefined for an unknown id or another platform's. */
  byId(channelId: string, type: ChannelType): Promise<ChannelRow | undefined> {
    return this.db.selectFrom('channels').selectAll().where('id', '=', channelId).where('type', '=', type).executeTakeFirst();
  }

  /**
   * `byId` for a delivery, with its credentials opened, read at most once per DELIVERY_CACHE_MS by
   * this instance: at 200 deliveries a second the read was half of each acknowledgement's database
   * work, and it queued behind the turns'. What can be stale, and why that is safe: credentials
   * changed on another instance (the caller forgets the entry and reads again when a signature fails
   * against them), a channel removed there (the delivery's insert fails on the foreign key). Saving
   * or removing a channel on this instance forgets it at once.
   */
  async forDelivery(channelId: string, type: ChannelType, now: number): Promise<{ row: ChannelRow; access: ChannelAccess } | undefined> {
    const cached = this.deliveryRows.get(channelId);
    if (cached && cached.until > now && cached.row.type === type) return cached;
    const row = await this.byId(channelId, type);
    if (!row) return undefined;
    const entry = { row, access: this.access(row), until: now + DELIVERY_CACHE_MS };
    if (this.deliveryRows.size >= MARKED_CAP) this.deliveryRows.clear();
    this.deliveryRows.set(channelId, entry);
    return entry;
  }

  /** Drops what `forDelivery` remembers of a channel. */
  forget(channelId: string): void {
    this.deliveryRows.delete(channelId);
  }

  /** Credentials opened: for the platform, never for an answer. */
  access(row: Pick<ChannelRow, 'id' | 'settings' | 'secrets'>): ChannelAccess {
    return { id: row.id, settings: row.settings, secrets: this.box.open(row.secrets, row.id) };
  }

  /** The id a new channel will have (the webhook URL names it before the row exists). */
  newId(): string {
    return newId('chn');
  }

  /** Creates or replaces the bot's channel of `type`, credentials sealed under the current key. */
  async save(accountId: string, botId: string, type: ChannelType, id: string, settings: Record<string, string>, secrets: Record<string, string>): Promise<ChannelRow> {
    const sealed = json(this.box.seal(secrets, id));
    const row = await this.db
      .insertInto('channels')
      .values({ id, account_id: accountId, bot_id: botId, type, settings: json(settings), secrets: sealed })
      .onConflict((oc) => oc.columns(['bot_id', 'type']).doUpdateSet({ settings: json(settings), secrets: sealed, updated_at: sql`now()`, last_error: null, last_error_at: null }))
      .returningAll()
      .executeTakeFirstOrThrow();
    // Forgotten once written (a replaced channel keeps the id it had): a delivery cannot read the old row back meanwhile.
    this.forget(row.id);
    return row;
  }

  /** The bot's channels, oldest first. */
  list(accountId: string, botId: string): Promise<ChannelRow[]> {
    return this.db.selectFrom('channels').selectAll().where('account_id', '=', accountId).where('bot_id', '=', botId).orderBy('created_at').orderBy('id').execute();
  }

  /** Replies queued or being sent, per channel (channels with none are absent). */
  async pendingReplies(channelIds: readonly string[]): Promise<Map<string, number>> {
    if (!channelIds.length) return new Map();
    const rows = await this.db
      .selectFrom('channel_outbox')
      .select((eb) => ['channel_id', eb.fn.countAll<string>().as('n')])
      .where('channel_id', 'in', channelIds)
      .where('status', 'in', ['pending', 'sending'])
      .groupBy('channel_id')
      .execute();
    return new Map(rows.map((row) => [row.channel_id, Number(row.n)]));
  }

  /** The chat of the latest message a person sent on the channel; undefined before the first. */
  async lastChat(channelId: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('channel_inbound').select('chat').where('channel_id', '=', channelId).orderBy('id', 'desc').limit(1).executeTakeFirst();
    return row?.chat;
  }

  async remove(accountId: string, row: ChannelRow): Promise<void> {
    await this.db.deleteFrom('channels').where('account_id', '=', accountId).where('id', '=', row.id).execute();
    this.forget(row.id);
  }

  /**
   * Health: a delivery came, a reply went, or one failed for good (`error`: never a credential).
   * The two times are kept to the second: every delivery and reply of a busy channel would otherwise
   * update its one row, each waiting for the commit of the one before, and a webhook's acknowledgement
   * waits behind that queue. An instance skips a time it wrote less than a second ago, and the row
   * skips one another instance wrote; an error is always written.
   */
  async mark(channelId: string, what: { received?: Date; sent?: Date; error?: { text: string; at: Date } }): Promise<void> {
    const received = what.received && this.due(`${channelId} received`, what.received) ? what.received : undefined;
    const sent = what.sent && this.due(`${channelId} sent`, what.sent) ? what.sent : undefined;
    if (!received && !sent && !what.error) return;
    const fresh = (column: 'last_received_at' | 'last_sent_at', at: Date) => sql<boolean>`(${sql.ref(column)} is null or ${sql.ref(column)} <= ${new Date(at.getTime() - HEALTH_RESOLUTION_MS)})`;
    await this.db
      .updateTable('channels')
      .set({
        ...(received && { last_received_at: received }),
        ...(sent && { last_sent_at: sent }),
        ...(what.error && { last_error: what.error.text, last_error_at: what.error.at }),
      })
      .where('id', '=', channelId)
      // With only a time to write, a row already that recent is left alone (and unlocked).
      .$if(!what.error && Boolean(received) !== Boolean(sent), (qb) => qb.where(received ? fresh('last_received_at', received) : fresh('last_sent_at', sent!)))
      .execute();
  }

  /** Whether this instance last wrote `key`'s time at least HEALTH_RESOLUTION_MS before `at` (and it now will). */
  private due(key: string, at: Date): boolean {
    const last = this.marked.get(key);
    if (last !== undefined && at.getTime() - last < HEALTH_RESOLUTION_MS && at.getTime() >= last) return false;
    // Bounded: a map of every channel this instance served, dropped whole when it grows past the cap.
    if (this.marked.size >= MARKED_CAP) this.marked.clear();
    this.marked.set(key, at.getTime());
    return true;
  }

  /** `pendingReplies`: the channel's count from `pendingReplies()`. */
  view(row: ChannelRow, adapter: ChannelAdapter, baseUrl: string, pendingReplies: number): ChannelView {
    const secrets = this.safeOpen(row);
    return {
      id: row.id,
      bot_id: row.bot_id,
      type: row.type,
      webhook_url: webhookUrlOf(baseUrl, row.type, row.id),
      settings: Object.fromEntries(adapter.settingFields.map((field) => [field, row.settings[field] ?? ''])),
      secrets_set: Object.fromEntries(adapter.secretFields.map((field) => [field, Boolean(secrets?.[field])])),
      health: { last_received_at: iso(row.last_received_at), last_sent_at: iso(row.last_sent_at), last_error: row.last_error, last_error_at: iso(row.last_error_at), pending_replies: pendingReplies },
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
    };
  }

  /** Seals every row again under the current key (after a rotation); rows of unknown keys are left. */
  async reseal(logger: Logger): Promise<number> {
    if (!this.box.currentKeyId) return 0;
    const rows = await this.db.selectFrom('channels').select(['id', 'secrets']).where(sql<boolean>`secrets->>'key_id' <> ${this.box.currentKeyId}`).execute();
    let resealed = 0;
    for (const row of rows) {
      if (!this.box.stale(row.secrets)) continue;
      const secrets = json(this.box.seal(this.box.open(row.secrets, row.id), row.id));
      await this.db.updateTable('channels').set({ secrets }).where('id', '=', row.id).where(sql<boolean>`secrets->>'key_id' = ${row.secrets.key_id}`).execute();
      resealed++;
    }
    if (rows.length > resealed) logger.error('channel credentials sealed by a key that is not configured cannot be read', { channels: rows.length - resealed });
    return resealed;
  }

  /** Which credentials a row holds, or null when they cannot be opened (its key is gone). */
  private safeOpen(row: ChannelRow): Record<string, string> | null {
    try {
      return this.box.open(row.secrets, row.id);
    } catch {
      return null;
    }
  }
}
