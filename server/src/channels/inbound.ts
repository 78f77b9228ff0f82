/**
 * The durable inbound queue. A webhook stores each verified event (`record`) and is acknowledged;
 * a worker of any instance claims it (`FOR UPDATE SKIP LOCKED`, with a lease a dead worker's claim
 * outlives), runs it through the turn pipeline as the widget's messages are (intents, knowledge,
 * LLM, handoff, analytics), and queues the reply in the outbox in the transaction that marks the
 * event done. Only the oldest pending event of a chat can be claimed, so a chat's messages are
 * answered in order. The turn is keyed by the event (an Idempotency-Key of the pipeline): a worker
 * that died after storing the turn leaves an event that, claimed again, finds that turn instead of
 * answering twice.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { json } from '../db/json.ts';
import { ServiceError } from '../http/errors.ts';
import type { Logger } from '../logger.ts';
import type { TurnPipeline } from '../turns/pipeline.ts';
import type { StoredTurn } from '../turns/turn.ts';
import type { ChannelAdapter, ChannelType, InboundEvent } from './adapter.ts';
import { forgetFiles, receiveFiles, withRefusals, type ChannelFiles } from './inbound-media.ts';
import { backoffMs, type Outbox } from './outbox.ts';
import { cutChars } from './payload.ts';
import type { ChannelRow, ChannelStore } from './store.ts';

/** Tries of one event before it is given up (`failed`). */
const MAX_ATTEMPTS = 5;
/** How long a claim holds (a turn with an LLM may take a while); then another worker may take it. */
const LEASE_MS = 5 * 60_000;
/** The bot endpoint's limit on a message (bots/schema.ts). */
const MAX_TEXT = 4000;

interface ClaimedEvent {
  id: string;
  channel_id: string;
  external_id: string;
  chat: string;
  event: InboundEvent;
  attempts: number;
}

export class InboundQueue {
  constructor(
    private readonly store: ChannelStore,
    /** The pipeline, built after the services it needs (handoff's writer queues through the outbox). */
    private readonly turns: () => TurnPipeline,
    private readonly outbox: Outbox,
    private readonly adapters: Record<ChannelType, ChannelAdapter>,
    private readonly now: () => number,
    private readonly logger: Logger,
    private readonly files: ChannelFiles,
    /** Events processed at once by this instance, one per chat (`ChannelConfig.concurrency`). */
    private readonly concurrency: number,
  ) {}

  /** Stores a delivery's events; a replayed one is stored once (unique channel + external id). The number new. */
  async record(channel: Pick<ChannelRow, 'id'>, events: InboundEvent[]): Promise<number> {
    if (!events.length) return 0;
    const rows = events.map((event) => ({ channel_id: channel.id, external_id: event.externalMessageId, chat: event.externalConversationId, event: json(event) }));
    const inserted = await this.store.db
      .insertInto('channel_inbound')
      .values(rows)
      .onConflict((oc) => oc.columns(['channel_id', 'external_id']).doNothing())
      .returning('id')
      .execute();
    await this.store.mark(channel.id, { received: new Date(this.now()) });
    return inserted.length;
  }

  /** Claims the head event of each chat that is ready and processes them; the number claimed. */
  async runOnce(): Promise<number> {
    const now = new Date(this.now());
    const claimed = await sql<ClaimedEvent>`
      update channel_inbound set locked_until = ${new Date(now.getTime() + LEASE_MS)}, attempts = attempts + 1
      where id in (
        select i.id from channel_inbound i
        where i.status = 'pending' and (i.locked_until is null or i.locked_until < ${now}) and (i.next_attempt_at is null or i.next_attempt_at <= ${now})
          and not exists (select 1 from channel_inbound j where j.channel_id = i.channel_id and j.chat = i.chat and j.status = 'pending' and j.id < i.id)
        order by i.id limit ${this.concurrency}
        for update skip locked)
      returning id, channel_id, external_id, chat, event, attempts`.execute(this.store.db);
    await Promise.all(claimed.rows.map((row) => this.process(row)));
    return claimed.rows.length;
  }

  private async process(row: ClaimedEvent): Promise<void> {
    const channel = await this.store.db.selectFrom('channels').select(['id', 'account_id', 'bot_id', 'type', 'settings', 'secrets']).where('id', '=', row.channel_id).executeTakeFirst();
    if (!channel) return; // deleted: its events went with it
    // A button press is acknowledged while it is answered, once (a retried event's press has expired).
    const acknowledged = row.event.pressId && row.attempts === 1 ? this.acknowledge(channel, row.event) : undefined;
    try {
      const { turn, refusals } = await this.answer(channel, row);
      await this.store.db.transaction().execute(async (trx) => {
        const conversationId = turn.user.conversation_id;
        // Files not taken are said first: the reply after it may be about the message without them.
        if (refusals.length) await this.outbox.enqueue(trx, { channelId: channel.id, type: channel.type, chat: row.chat, message: { id: `refused:${row.id}`, content: refusals.join('\n') } });
        await trx
          .insertInto('channel_conversations')
          .values({ conversation_id: conversationId, channel_id: channel.id, chat: row.chat })
          .onConflict((oc) => oc.column('conversation_id').doUpdateSet({ channel_id: channel.id, chat: row.chat }))
          .execute();
        // A held turn (a person has the conversation) has no reply: the operator answers from the inbox.
        if (turn.reply.role === 'assistant') await this.outbox.enqueue(trx, { channelId: channel.id, type: channel.type, chat: row.chat, message: turn.reply });
        await trx.updateTable('channel_inbound').set({ status: 'done', locked_until: null, last_error: null }).where('id', '=', row.id).execute();
      });
    } catch (error) {
      await this.failed(row, error);
    }
    await acknowledged;
  }

  /** Best effort: a press not acknowledged only spins a little longer on the person's screen. */
  private async acknowledge(channel: Pick<ChannelRow, 'id' | 'type' | 'settings' | 'secrets'>, event: InboundEvent): Promise<void> {
    try {
      await this.adapters[channel.type].acknowledge?.(this.store.access(channel), event);
    } catch (error) {
      this.logger.error('a button press was not acknowledged', { channel_id: channel.id, error: error instanceof Error ? error.message : String(error) });
    }
  }

  /**
   * The event as a turn of the bot endpoint: the chat's user, its open conversation with the bot,
   * the files it sent (inbound-media.ts) as the message's attachments. The key's hash is over the
   * person's own text, so a try that took fewer files than an earlier one still finds its turn.
   */
  private async answer(channel: Pick<ChannelRow, 'id' | 'account_id' | 'bot_id' | 'type' | 'settings' | 'secrets'>, row: ClaimedEvent): Promise<{ turn: StoredTurn; refusals: string[] }> {
    const userId = cutChars(`${channel.type}:${row.chat}`, 128);
    const access = { ...channel, access: this.store.access(channel) };
    const files = await receiveFiles(this.files, this.adapters[channel.type], access, row.event, userId, row.attempts >= MAX_ATTEMPTS);
    const idempotency = { key: `channel:${channel.id}:${row.external_id}`.slice(0, 255), requestHash: createHash('sha256').update(cutChars(row.event.text, MAX_TEXT)).digest('hex') };
    let stored: StoredTurn | undefined;
    try {
      const message = { role: 'user' as const, content: cutChars(withRefusals(row.event.text, files.refusals), MAX_TEXT) };
      const request = { messages: [message], bot_id: channel.bot_id, user_id: userId, openConversation: true, ...(files.ids.length && { attachments: files.ids }) };
      const prepared = await this.turns().prepare(channel.account_id, request, { idempotency });
      for await (const event of this.turns().run(prepared, new AbortController().signal)) if (event.type === 'done') stored = event.turn;
      if (!stored) throw new Error('the turn ended without a stored reply');
    } finally {
      if (!stored || stored.replayed) await forgetFiles(this.files, channel.account_id, userId, files.ids);
    }
    return { turn: stored, refusals: files.refusals };
  }

  /** A refusal of the turn (its bot is gone, the message is invalid) is final; anything else is retried. */
  private async failed(row: ClaimedEvent, error: unknown): Promise<void> {
    const final = (error instanceof ServiceError && error.status < 500) || row.attempts >= MAX_ATTEMPTS;
    const text = error instanceof ServiceError ? error.message : 'the message could not be answered';
    this.logger.error('a channel message was not answered', { inbound_id: row.id, final, error: error instanceof Error ? error.message : String(error) });
    await this.store.db
      .updateTable('channel_inbound')
      .set(final ? { status: 'failed', locked_until: null, last_error: text } : { locked_until: null, next_attempt_at: new Date(this.now() + backoffMs(row.attempts)), last_error: text })
      .where('id', '=', row.id)
      .execute();
    if (final) await this.store.mark(row.channel_id, { error: { text: `A message was not answered: ${text}`, at: new Date(this.now()) } });
  }
}
