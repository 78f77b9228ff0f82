/**
 * What handoff changes in a chat turn (called by the turn pipeline, turns/pipeline.ts):
 *
 * - `waiting` / `with_person`: the bot does not answer; the visitor's message is stored and goes
 *   to the operator live (`hold`);
 * - `closed`: the conversation ended; a new message starts a new conversation (bot endpoint), or is
 *   refused with 409 when it names the closed one;
 * - after a bot reply: the bot's settings hand off on a trained intent or after N fallbacks in a row
 *   (`afterReply`): the conversation becomes `waiting` when someone can answer, else the reply says
 *   a person is unavailable (so the widget can offer to leave an email). Every reply of a bot with
 *   handoff on carries the state.
 */
import type { Attachment, HandoffState, Message, OpeningHours } from '../../../src/client/types.ts';
import { withPerson, type ConversationStatus } from '../conversations/status.ts';
import { ServiceError } from '../http/errors.ts';
import type { IdempotencyTag } from '../http/idempotency.ts';
import type { HandoffService } from './service.ts';

export type TurnHandoff = HandoffState & { held?: true };

export class HandoffTurns {
  constructor(private readonly handoff: HandoffService) {}

  /** True when a person is involved, so the bot must not answer. */
  holds(conversation: { status: ConversationStatus } | undefined): boolean {
    return conversation !== undefined && withPerson(conversation.status);
  }

  /** 409 for a turn that names a closed conversation. */
  refuseClosed(): ServiceError {
    return new ServiceError('invalid_status_transition', 'This conversation is closed; start a new one (send no conversation_id).', { param: 'conversation_id' });
  }

  /** Stores the visitor's message for the person; the bot stays quiet. */
  async hold(accountId: string, conversationId: string, content: string, extra: { idempotency?: IdempotencyTag; attachments?: Attachment[] } = {}): Promise<{ message: Message; handoff: TurnHandoff }> {
    const { message, state } = await this.handoff.visitorMessage(accountId, conversationId, content, extra);
    return { message, handoff: { ...state, held: true } };
  }

  /** The handoff of a held turn answered again (its Idempotency-Key came back): the state now. */
  async heldAgain(accountId: string, conversationId: string): Promise<TurnHandoff> {
    return { ...(await this.handoff.state(accountId, conversationId)), held: true };
  }

  /**
   * After a stored bot reply, for a bot with handoff on: hand off when its settings say so (see the
   * file comment); else the state as it is, so a client learns from the reply itself that a person
   * can be asked for (the widget loads its handoff code on it, with no request of its own).
   */
  async afterReply(accountId: string, conversationId: string, botId: string | null, reply: { source?: string; intent?: string | null }): Promise<TurnHandoff | undefined> {
    if (!botId) return undefined;
    const settings = await this.handoff.settings.row(accountId, botId);
    if (!settings?.enabled) return undefined;
    const byIntent = reply.intent != null && settings.intents.includes(reply.intent);
    const byFallbacks = settings.after_fallbacks !== null && reply.source === 'fallback' && (await this.fallbacksInARow(accountId, conversationId, settings.after_fallbacks));
    // the settings are read: only who is online is left to ask (every turn of such a bot comes here)
    const availability = () => this.handoff.settings.availabilityOf(accountId, { enabled: true, hours: settings.hours as OpeningHours | null });
    if (!byIntent && !byFallbacks) return this.handoff.state(accountId, conversationId, {}, await availability());
    try {
      return await this.handoff.request(accountId, conversationId);
    } catch (error) {
      // Nobody can answer now: the reply says so instead (the conversation stays with the bot).
      if (error instanceof ServiceError && (error.code === 'handoff_unavailable' || error.code === 'invalid_status_transition')) {
        return this.handoff.state(accountId, conversationId, {}, await availability());
      }
      throw error;
    }
  }

  /**
   * True when the last `count` bot replies of the conversation were all fallbacks, counting only
   * replies since its last handoff change: a conversation an operator gave back to the bot starts
   * counting again.
   */
  private async fallbacksInARow(accountId: string, conversationId: string, count: number): Promise<boolean> {
    const db = this.handoff.db;
    const lastChange = await db
      .selectFrom('handoff_events')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('conversation_id', '=', conversationId)
      .where('type', '=', 'status')
      .executeTakeFirst();
    let query = db
      .selectFrom('messages')
      .select('source')
      .where('account_id', '=', accountId)
      .where('conversation_id', '=', conversationId)
      .where('role', '=', 'assistant');
    if (lastChange?.seq) {
      const changedAt = db.selectFrom('handoff_events').select('created_at').where('seq', '=', String(lastChange.seq));
      query = query.where('created_at', '>', changedAt);
    }
    const rows = await query.orderBy('seq', 'desc').limit(count).execute();
    return rows.length === count && rows.every((row) => row.source === 'fallback');
  }
}
