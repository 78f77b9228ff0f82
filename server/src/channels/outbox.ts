/**
 * The durable outbox: every reply for a platform (the bot's, an operator's) is a row, written in
 * the same transaction as what caused it, and sent by whichever instance claims it
 * (`FOR UPDATE SKIP LOCKED`), in id order per chat (a row waits while an earlier one of its chat is
 * pending or being sent). `sending` is committed before the request leaves and `sent` after the
 * platform's answer: a row still `sending` after a restart may have reached the platform and is
 * never sent again (`unconfirmed`, shown in the channel's health). 429 and 5xx are retried after
 * the wait the platform asked for (`retry_after`, `Retry-After`), else with exponential backoff.
 *
 * A reply is stored as the platform's messages (format.ts: its markup, split at its limit), one row
 * per piece keyed `message_id#n` and inserted in order, so each piece is sent, retried and
 * confirmed on its own, the pieces go out in order before the chat's next reply, and a restart
 * between pieces sends only the rest. Quick replies go with the last piece of text; each file of the
 * message (an operator's attachment) is a piece of its own, its bytes read when it is sent.
 */
import type { Kysely, Transaction, Updateable } from 'kysely';
import { sql } from 'kysely';
import type { Message } from '../../../src/client/types.ts';
import { json } from '../db/json.ts';
import type { Database } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import type { ChannelAccess, ChannelAdapter, ChannelType, OutboundReply, SendResult } from './adapter.ts';
import { formatReply } from './format.ts';
import type { ChannelStore } from './store.ts';
import { withChannelTables, type ChannelDatabase, type ChannelOutboxTable } from './tables.ts';

/** Tries of one reply, the first included, before it is given up (`failed`). */
export const MAX_SEND_ATTEMPTS = 8;
const MAX_BACKOFF_MS = 5 * 60_000;
/** Rows sent at once by one instance. */
const BATCH = 16;

/** Exponential backoff after the `attempts`-th failed try: 1 s, 2 s, 4 s… up to 5 minutes. */
export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.max(0, attempts - 1));
}

export type OutboxMessage = Pick<Message, 'id' | 'content' | 'suggestions' | 'citations' | 'attachments'>;

/** The bytes of stored files by id (`AttachmentService.bytesOf`); a file deleted since is missing. */
export type FileBytes = (accountId: string, ids: readonly string[]) => Promise<Map<string, Buffer>>;

export interface OutboxItem {
  channelId: string;
  type: ChannelType;
  chat: string;
  message: OutboxMessage;
}

/**
 * The message as the platform's messages, in order: its text (quick replies on the last piece; an
 * empty message is one empty piece), then one media message per file. A text that fits one
 * caption and has no buttons is the first file's caption instead of a message of its own.
 */
export function piecesOf(message: OutboxMessage, adapter: Pick<ChannelAdapter, 'type' | 'limits'>): OutboundReply[] {
  const texts = formatReply(message.content, adapter.type, message.citations ?? []);
  const files = (message.attachments ?? []).map((file) => ({ id: file.id, name: file.filename, contentType: file.content_type, size: file.size }));
  const suggestions = message.suggestions ?? [];
  const captioned = files.length > 0 && texts.length === 1 && !suggestions.length && [...texts[0]!].length <= adapter.limits.maxCaptionChars;
  const caption = captioned ? texts.pop()! : '';
  if (!texts.length && !files.length) texts.push('');
  const pieces: OutboundReply[] = texts.map((text, i) => ({ text, quickReplies: i === texts.length - 1 ? suggestions : [], files: [] }));
  return [...pieces, ...files.map((file, i) => ({ text: i === 0 ? caption : '', quickReplies: [], files: [file] }))];
}

interface ClaimedRow {
  id: string;
  channel_id: string;
  chat: string;
  reply: OutboundReply;
  attempts: number;
}

export class Outbox {
  private readonly inFlight = new AbortController();

  constructor(
    private readonly store: ChannelStore,
    private readonly adapters: Record<ChannelType, ChannelAdapter>,
    private readonly now: () => number,
    private readonly logger: Logger,
    private readonly files: FileBytes,
  ) {}

  private get db(): Kysely<ChannelDatabase> {
    return this.store.db;
  }

  /**
   * Adds a reply's pieces in the caller's transaction, one insert each so their ids follow their
   * order; a message already queued is not queued twice.
   */
  async enqueue(trx: Kysely<ChannelDatabase>, item: OutboxItem): Promise<void> {
    const pieces = piecesOf(item.message, this.adapters[item.type]);
    for (const [n, reply] of pieces.entries()) {
      await trx
        .insertInto('channel_outbox')
        .values({ channel_id: item.channelId, chat: item.chat, message_id: `${item.message.id}#${n}`, reply: json(reply), next_attempt_at: new Date(this.now()) })
        .onConflict((oc) => oc.columns(['channel_id', 'message_id']).doNothing())
        .execute();
    }
  }

  /**
   * The handoff hook: an operator's message in a conversation that is on a platform is queued in
   * the transaction that stores it (a conversation of the widget has no `channel_conversations` row: no-op).
   */
  readonly operatorMessage = async (trx: Transaction<object>, message: Message): Promise<void> => {
    const db = withChannelTables(trx as unknown as Kysely<Database>);
    const chats = await db
      .selectFrom('channel_conversations')
      .innerJoin('channels', 'channels.id', 'channel_conversations.channel_id')
      .select(['channel_conversations.channel_id', 'channel_conversations.chat', 'channels.type'])
      .where('channel_conversations.conversation_id', '=', message.conversation_id)
      .execute();
    for (const { channel_id, chat, type } of chats) await this.enqueue(db, { channelId: channel_id, type, chat, message });
  };

  /**
   * Rows a dead process left `sending`: every one when the database is this process's alone, else
   * those older than `staleMs`. They may have reached the platform, so they are not sent again.
   */
  async recover(options: { singleProcess: boolean; staleMs: number }): Promise<number> {
    let query = this.db.updateTable('channel_outbox').set({ status: 'unconfirmed', last_error: 'interrupted while sending: the reply may or may not have arrived' }).where('status', '=', 'sending');
    if (!options.singleProcess) query = query.where('sending_since', '<', new Date(this.now() - options.staleMs));
    const rows = await query.returning('channel_id').execute();
    for (const channelId of new Set(rows.map((row) => row.channel_id))) {
      await this.store.mark(channelId, { error: { text: 'A reply was interrupted while sending and may not have arrived.', at: new Date(this.now()) } });
    }
    return rows.length;
  }

  /** Claims the due rows at the head of their chats and sends them; the number claimed. */
  async runOnce(): Promise<number> {
    const now = new Date(this.now());
    const claimed = await sql<ClaimedRow>`
      update channel_outbox set status = 'sending', attempts = attempts + 1, sending_since = ${now}
      where id in (
        select o.id from channel_outbox o
        where o.status = 'pending' and o.next_attempt_at <= ${now}
          and not exists (select 1 from channel_outbox p where p.channel_id = o.channel_id and p.chat = o.chat and p.status in ('pending', 'sending') and p.id < o.id)
        order by o.id limit ${BATCH}
        for update skip locked)
      returning id, channel_id, chat, reply, attempts`.execute(this.db);
    await Promise.all(claimed.rows.map((row) => this.send(row)));
    return claimed.rows.length;
  }

  /** Stops: a request in flight is abandoned (and stays `sending`: it may have arrived). */
  close(): void {
    this.inFlight.abort();
  }

  private async send(row: ClaimedRow): Promise<void> {
    try {
      const channel = await this.db.selectFrom('channels').select(['id', 'account_id', 'type', 'settings', 'secrets']).where('id', '=', row.channel_id).executeTakeFirst();
      if (!channel) return; // deleted: its rows went with it
      const result = await this.sendPiece(this.adapters[channel.type], { ...channel, access: this.store.access(channel) }, row);
      if (this.inFlight.signal.aborted) return;
      const at = new Date(this.now());
      if (result.ok) {
        await this.update(row, { status: 'sent', external_id: result.externalId, sent_at: at, last_error: null });
        await this.store.mark(row.channel_id, { sent: at });
      } else if (result.retryable && row.attempts < MAX_SEND_ATTEMPTS) {
        await this.update(row, { status: 'pending', next_attempt_at: new Date(at.getTime() + (result.retryAfterMs ?? backoffMs(row.attempts))), last_error: result.error });
      } else {
        await this.update(row, { status: result.uncertain ? 'unconfirmed' : 'failed', last_error: result.error });
        await this.store.mark(row.channel_id, { error: { text: `A reply was not delivered: ${result.error}.`, at } });
      }
    } catch (error) {
      // Not the platform's answer (a closed database, credentials whose key is gone): the row stays
      // `sending` and is recovered as unconfirmed, which is the safe side.
      this.logger.error('a channel reply was not sent', { outbox_id: row.id, error: error instanceof Error ? error.message : String(error) });
    }
  }

  /** A text piece, or a file piece with its stored bytes (a file deleted since, with its conversation, is not sent). */
  private async sendPiece(adapter: ChannelAdapter, channel: { account_id: string; access: ChannelAccess }, row: ClaimedRow): Promise<SendResult> {
    const [file] = row.reply.files ?? [];
    if (!file) return adapter.send(channel.access, row.chat, row.reply, this.inFlight.signal);
    const data = (await this.files(channel.account_id, [file.id])).get(file.id);
    if (!data) return { ok: false, retryable: false, error: `the file ${file.name} was deleted` };
    return adapter.sendFile(channel.access, row.chat, { ...file, data }, row.reply.text, this.inFlight.signal);
  }

  private async update(row: ClaimedRow, values: Updateable<ChannelOutboxTable>): Promise<void> {
    await this.db.updateTable('channel_outbox').set(values).where('id', '=', row.id).where('status', '=', 'sending').execute();
  }

  /** Records what the platform said about a reply it had taken (WhatsApp statuses). */
  async delivered(channelId: string, externalId: string, status: string, error?: string): Promise<void> {
    await this.db.updateTable('channel_outbox').set({ delivery_status: status, ...(error && { last_error: error }) }).where('channel_id', '=', channelId).where('external_id', '=', externalId).execute();
    if (status === 'failed') await this.store.mark(channelId, { error: { text: `The platform did not deliver a reply${error ? `: ${error}` : ''}.`, at: new Date(this.now()) } });
  }
}

/**
 * The message writer handoff stores operator replies with, queuing each operator reply of a
 * platform conversation in the same transaction (`Outbox.operatorMessage`): the one hook between
 * the inbox and the platforms.
 */
export function queueOperatorReplies<E, R extends unknown[]>(
  writer: { appendIn(trx: E, ...rest: R): Promise<Message[]> },
  outbox: Outbox,
): { appendIn(trx: E, ...rest: R): Promise<Message[]> } {
  return {
    async appendIn(trx, ...rest) {
      const messages = await writer.appendIn(trx, ...rest);
      for (const message of messages) if (message.role === 'operator') await outbox.operatorMessage(trx as Transaction<object>, message);
      return messages;
    },
  };
}
