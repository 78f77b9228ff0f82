/**
 * Channels: a bot answering on messaging platforms. Connecting stores the platform's credentials
 * sealed and registers the webhook where the platform has an API for it; a webhook delivery is
 * verified, stored and acknowledged (`receive`); the worker turns stored events into turns and
 * sends the outbox, on every instance, woken by new work and by a timer for work other instances
 * stored and retries that came due.
 */
import type { Kysely } from 'kysely';
import type { ChannelTestMessage } from '../../../src/client/types.ts';
import type { BotService } from '../bots/service.ts';
import { iso } from '../db/json.ts';
import type { Database } from '../db/schema.ts';
import { invalid, notFound, ServiceError } from '../http/errors.ts';
import { newId } from '../ids.ts';
import { QueueWorker } from '../jobs/queue-worker.ts';
import type { Logger } from '../logger.ts';
import type { TurnPipeline } from '../turns/pipeline.ts';
import type { ChannelType } from './adapter.ts';
import { createAdapters } from './adapters.ts';
import { InboundQueue } from './inbound.ts';
import type { ChannelFiles } from './inbound-media.ts';
import type { ChannelConfig } from './options.ts';
import { Outbox } from './outbox.ts';
import type { SecretBox } from '../db/secrets.ts';
import { ChannelStore, webhookUrlOf, type ChannelRow, type ChannelView } from './store.ts';
import { TelegramAdapter } from './telegram/adapter.ts';

export interface ChannelDeps {
  db: Kysely<Database>;
  logger: Logger;
  config: ChannelConfig;
  /** The turn pipeline, read when the first event is answered (it is built after this service). */
  turns: () => TurnPipeline;
  bots: BotService;
  /** Where files a person sends on a platform are stored, and an operator's are read from (attachments/). */
  files: ChannelFiles;
  /** No other process uses the database (embedded PGlite): every `sending` row at start was interrupted. */
  singleProcess: boolean;
  /** Seals credentials at rest under `config.secretsKey` (one box for the service: webhooks' secrets too). */
  box: SecretBox;
}

/** PostgreSQL's foreign_key_violation: a delivery for a channel removed since it was read. */
const FOREIGN_KEY_VIOLATION = '23503';
/** A row `sending` this long after its request's time limit belongs to a dead process. */
const STALE_SENDING_MS = 60_000;
/** Polls between checks for rows dead processes left `sending`. */
const RECOVER_EVERY = 30;

export class ChannelService {
  readonly adapters;
  readonly store: ChannelStore;
  readonly outbox: Outbox;
  readonly inbound: InboundQueue;
  private readonly box: SecretBox;
  private readonly worker: QueueWorker;
  private polls = 0;

  constructor(private readonly deps: ChannelDeps) {
    const { config, logger } = deps;
    this.adapters = createAdapters(config);
    this.box = deps.box;
    this.store = new ChannelStore(deps.db, this.box);
    this.outbox = new Outbox(this.store, this.adapters, config.now, logger, (accountId, ids) => deps.files.bytesOf(accountId, ids));
    this.inbound = new InboundQueue(this.store, deps.turns, this.outbox, this.adapters, config.now, logger, deps.files, config.concurrency);
    this.worker = new QueueWorker(
      () => this.step(),
      (error) => logger.error('channel worker stopped until its next wake-up', { error: error instanceof Error ? error.message : String(error) }),
    );
  }

  get config(): ChannelConfig {
    return this.deps.config;
  }

  /** Recovers interrupted sends, seals credentials of an old key again, and starts the worker. */
  async start(): Promise<void> {
    await this.recover(this.deps.singleProcess);
    await this.store.reseal(this.deps.logger);
    this.worker.start(this.deps.config.pollMs, () => {
      if (++this.polls % RECOVER_EVERY === 0) void this.recover(false).catch(() => {});
    });
  }

  /** Wakes the worker (new events or replies); a run already going runs once more. */
  kick(): void {
    this.worker.kick();
  }

  /** Resolves once no event or reply is ready now (tests move the clock, then drain). */
  drain(): Promise<void> {
    return this.worker.drain();
  }

  async close(): Promise<void> {
    this.outbox.close();
    await this.worker.close();
  }

  // --- connecting ------------------------------------------------------------------------------

  async read(accountId: string, botId: string, type: ChannelType, baseUrl: string): Promise<ChannelView> {
    await this.deps.bots.getRow(accountId, botId);
    return this.viewOf(await this.store.get(accountId, botId, type), baseUrl);
  }

  /** The bot's channels, and the platforms this service speaks (those a bot may connect). */
  async list(accountId: string, botId: string, baseUrl: string): Promise<{ items: ChannelView[]; platforms: ChannelType[] }> {
    await this.deps.bots.getRow(accountId, botId);
    const rows = await this.store.list(accountId, botId);
    const pending = await this.store.pendingReplies(rows.map((row) => row.id));
    return { items: rows.map((row) => this.store.view(row, this.adapters[row.type], baseUrl, pending.get(row.id) ?? 0)), platforms: this.platforms };
  }

  get platforms(): ChannelType[] {
    return Object.keys(this.adapters) as ChannelType[];
  }

  /**
   * Creates or updates the bot's channel: credentials merged with the stored ones (a WhatsApp
   * update may send only what changes), sealed, and the webhook registered (Telegram) before the
   * row is written, so a token the platform refuses is never stored.
   */
  async connect(accountId: string, botId: string, type: ChannelType, input: Record<string, string>, baseUrl: string): Promise<ChannelView> {
    await this.deps.bots.getRow(accountId, botId);
    const adapter = this.adapters[type];
    const existing = await this.store.find(accountId, botId, type);
    const id = existing?.id ?? this.store.newId();
    const before = existing ? this.store.access(existing) : { settings: {}, secrets: {} };
    const pick = (fields: readonly string[]) => Object.fromEntries(fields.filter((field) => input[field] !== undefined).map((field) => [field, input[field]!]));
    const settings = { ...before.settings, ...pick(adapter.settingFields) };
    const secrets = { ...before.secrets, ...pick(adapter.secretFields) };
    const missing = [...adapter.settingFields.filter((f) => !settings[f]), ...adapter.secretFields.filter((f) => !secrets[f])];
    if (missing.length) throw invalid(missing[0]!, `A new ${type} channel needs ${missing.join(', ')}.`);
    this.box.seal({}, id); // refuses (secrets_key_missing) before the platform is called
    const webhookUrl = webhookUrlOf(baseUrl, type, id);
    if (adapter instanceof TelegramAdapter) {
      secrets.webhook_secret = TelegramAdapter.newWebhookSecret();
      await adapter.connect({ id, settings, secrets }, webhookUrl);
    }
    const row = await this.store.save(accountId, botId, type, id, settings, secrets);
    return this.viewOf(row, baseUrl);
  }

  /** Deletes the channel; the platform's webhook is removed first where it has an API for it (best effort). */
  async disconnect(accountId: string, botId: string, type: ChannelType): Promise<string> {
    await this.deps.bots.getRow(accountId, botId);
    const row = await this.store.get(accountId, botId, type);
    const adapter = this.adapters[type];
    try {
      await adapter.disconnect?.(this.store.access(row));
    } catch (error) {
      this.deps.logger.error('the platform kept its webhook; deliveries to a removed channel answer 404', { channel_id: row.id, error: error instanceof Error ? error.message : String(error) });
    }
    await this.store.remove(accountId, row);
    return row.id;
  }

  /**
   * Registers the channel's webhook with the platform again (Telegram `setWebhook`, with the stored
   * secret token), e.g. after it was removed or another service took the bot over.
   */
  async registerWebhook(accountId: string, botId: string, type: ChannelType, baseUrl: string): Promise<ChannelView> {
    await this.deps.bots.getRow(accountId, botId);
    const row = await this.store.get(accountId, botId, type);
    await this.adapters[type].connect?.(this.store.access(row), webhookUrlOf(baseUrl, type, row.id));
    return this.viewOf(row, baseUrl);
  }

  /** Removes the webhook at the platform (Telegram `deleteWebhook`); the channel stays, silent until registered again. */
  async removeWebhook(accountId: string, botId: string, type: ChannelType, baseUrl: string): Promise<ChannelView> {
    await this.deps.bots.getRow(accountId, botId);
    const row = await this.store.get(accountId, botId, type);
    await this.adapters[type].disconnect?.(this.store.access(row));
    return this.viewOf(row, baseUrl);
  }

  /**
   * Queues a test message to `chat` (default: whoever wrote last) through the outbox, as a reply
   * goes, and wakes the worker; `testMessage` then says how it went.
   */
  async sendTest(accountId: string, botId: string, type: ChannelType, input: { chat?: string; text?: string }): Promise<ChannelTestMessage> {
    const bot = await this.deps.bots.getRow(accountId, botId);
    const row = await this.store.get(accountId, botId, type);
    const chat = input.chat ?? (await this.store.lastChat(row.id));
    if (!chat) throw invalid('chat', 'Nobody has written to this channel yet: give the chat to send the test message to.');
    const message = { id: newId('msg'), content: input.text ?? `A test message from ${bot.name}: this channel works.`, suggestions: [], citations: [] };
    await this.outbox.enqueue(this.store.db, { channelId: row.id, type, chat, message });
    this.kick();
    return this.testMessage(accountId, botId, type, message.id);
  }

  /** Where a test message is: queued, being sent, sent, or why it was not. */
  async testMessage(accountId: string, botId: string, type: ChannelType, testId: string): Promise<ChannelTestMessage> {
    await this.deps.bots.getRow(accountId, botId);
    const channel = await this.store.get(accountId, botId, type);
    const row = await this.store.db
      .selectFrom('channel_outbox')
      .select(['chat', 'status', 'last_error', 'sent_at', 'created_at'])
      .where('channel_id', '=', channel.id)
      .where('message_id', '=', `${testId}#0`)
      .executeTakeFirst();
    if (!row) throw notFound('test_id', 'test message');
    return { id: testId, chat: row.chat, status: row.status, error: row.status === 'sent' ? null : row.last_error, sent_at: iso(row.sent_at), created_at: iso(row.created_at) };
  }

  private async viewOf(row: ChannelRow, baseUrl: string): Promise<ChannelView> {
    const pending = await this.store.pendingReplies([row.id]);
    return this.store.view(row, this.adapters[row.type], baseUrl, pending.get(row.id) ?? 0);
  }

  // --- webhooks --------------------------------------------------------------------------------

  /**
   * A delivery: verified before anything is parsed, its events stored, the worker woken. `received`
   * counts the new ones (a replay, a Slack retry: 0); `challenge` is a handshake's text to echo.
   */
  async receive(type: ChannelType, channelId: string, rawBody: Uint8Array, headers: Headers): Promise<{ received: number; challenge?: string }> {
    const adapter = this.adapters[type];
    const now = this.deps.config.now();
    let channel = await this.store.forDelivery(channelId, type, now);
    if (channel && !adapter.verify(rawBody, headers, channel.access)) {
      // The credentials may have changed on another instance since they were read: read them again.
      this.store.forget(channelId);
      channel = await this.store.forDelivery(channelId, type, now);
      if (channel && !adapter.verify(rawBody, headers, channel.access)) {
        throw new ServiceError('invalid_signature', 'The delivery is not signed by the platform with this channel\'s secret.');
      }
    }
    if (!channel) throw notFound('channel_id', 'channel');
    const { row } = channel;
    const delivery = adapter.parse(rawBody);
    for (const status of delivery.statuses) await this.outbox.delivered(row.id, status.externalMessageId, status.status, status.error);
    let received: number;
    try {
      received = await this.inbound.record(row, delivery.events);
    } catch (error) {
      if ((error as { code?: unknown }).code !== FOREIGN_KEY_VIOLATION) throw error;
      this.store.forget(row.id); // removed by another instance since it was read
      throw notFound('channel_id', 'channel');
    }
    if (received) this.kick();
    return { received, ...(delivery.challenge !== undefined && { challenge: delivery.challenge }) };
  }

  /** WhatsApp's GET verification: the challenge to echo; 403 when it is not our verify token. */
  async handshake(channelId: string, query: Record<string, string | undefined>): Promise<string> {
    const row = await this.store.byId(channelId, 'whatsapp');
    if (!row) throw notFound('channel_id', 'channel');
    const challenge = this.adapters.whatsapp.handshake(query, this.store.access(row));
    if (challenge === undefined) throw new ServiceError('permission_denied', 'hub.mode must be subscribe and hub.verify_token this channel\'s verify token.', { param: 'hub.verify_token' });
    return challenge;
  }

  // --- the worker ------------------------------------------------------------------------------

  /** One pass: events, then replies (those events queued included). True when anything was claimed. */
  private async step(): Promise<boolean> {
    const events = await this.inbound.runOnce();
    const replies = await this.outbox.runOnce();
    return events + replies > 0;
  }

  private recover(singleProcess: boolean): Promise<number> {
    return this.outbox.recover({ singleProcess, staleMs: this.deps.config.requestTimeoutMs + STALE_SENDING_MS });
  }
}
