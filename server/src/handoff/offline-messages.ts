/**
 * The messages visitors left while nobody could take their conversation, as the inbox reads them,
 * and their answers by email: an operator writes one from the inbox and it goes out over SMTP
 * (mailer.ts) From the configured sender, Reply-To the operator, To the address the visitor left.
 *
 * An answer is claimed before it is sent: setting `answered_by`/`answered_at` where still unset
 * (migration 035). Of two teammates answering one message, exactly one sends; the other gets 409
 * `offline_message_answered`. A send that fails gives the claim back (502 `email_not_sent`), and
 * without an SMTP server nothing is claimed (503 `email_not_configured`; the inbox offers a mailto:
 * link instead).
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Transporter } from 'nodemailer';
import type { OfflineMessage, OfflineReplyRequest } from '../../../src/client/types.ts';
import { iso } from '../db/json.ts';
import type { Database } from '../db/schema.ts';
import { notFound, ServiceError } from '../http/errors.ts';
import { DEFAULT_SENDER, smtpTransport, type MailOptions } from './mailer.ts';
import { operatorName, type Operator } from './operator.ts';
import { withHandoffTables, type HandoffDatabase, type OfflineMessagesTable } from './tables.ts';

type OfflineRow = Selectable<OfflineMessagesTable>;
type Answerer = { email: string; display_name: string | null } | undefined;

export function toOfflineMessage(row: OfflineRow, answerer?: Answerer): OfflineMessage {
  return {
    id: row.id,
    conversation_id: row.conversation_id,
    bot_id: row.bot_id,
    user_id: row.user_id,
    email: row.email,
    message: row.message,
    created_at: iso(row.created_at),
    answered_at: row.answered_at ? iso(row.answered_at) : null,
    // a teammate removed since is no one: the answer stays, by nobody named
    answered_by: row.answered_by && answerer ? { id: row.answered_by, name: operatorName(answerer) } : null,
  };
}

export class OfflineMessages {
  private readonly db: Kysely<HandoffDatabase>;
  private readonly transport: Transporter | null;

  constructor(
    db: Kysely<Database>,
    private readonly options: MailOptions = {},
  ) {
    this.db = withHandoffTables(db);
    this.transport = smtpTransport(options);
  }

  /** The account's newest first, with who answered each. */
  async list(accountId: string, limit = 100): Promise<OfflineMessage[]> {
    const rows = await this.db
      .selectFrom('offline_messages as o')
      .leftJoin('users as u', 'u.id', 'o.answered_by')
      .selectAll('o')
      .select(['u.email as answerer_email', 'u.display_name as answerer_name'])
      .where('o.account_id', '=', accountId)
      .orderBy('o.created_at', 'desc')
      .orderBy('o.id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => toOfflineMessage(row, row.answerer_email ? { email: row.answerer_email, display_name: row.answerer_name } : undefined));
  }

  /** Emails the visitor the operator's answer and marks the message answered by them. */
  async answer(operator: Operator, id: string, input: OfflineReplyRequest): Promise<OfflineMessage> {
    if (!this.transport) throw new ServiceError('email_not_configured', 'This service sends no email: it has no SMTP server (AI_CHAT_SMTP_URL). Answer from your own mail client.');
    const me = await this.db.selectFrom('users').select(['email', 'display_name']).where('id', '=', operator.userId).executeTakeFirstOrThrow();
    const claimed = await this.db
      .updateTable('offline_messages')
      .set({ answered_by: operator.userId, answered_at: sql<Date>`now()` })
      .where('id', '=', id)
      .where('account_id', '=', operator.accountId)
      .where('answered_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!claimed) {
      const exists = await this.db.selectFrom('offline_messages').select('id').where('id', '=', id).where('account_id', '=', operator.accountId).executeTakeFirst();
      if (!exists) throw notFound('offline_message_id', 'offline message');
      throw new ServiceError('offline_message_answered', 'A teammate has answered this message already.', { param: 'offline_message_id' });
    }
    try {
      await this.transport.sendMail({
        from: this.options.from ?? DEFAULT_SENDER,
        replyTo: { name: operatorName(me), address: me.email },
        to: { name: '', address: claimed.email }, // one address as stored, never parsed as a list
        subject: input.subject,
        text: input.text,
      });
    } catch (error) {
      await this.db.updateTable('offline_messages').set({ answered_by: null, answered_at: null }).where('id', '=', id).where('answered_by', '=', operator.userId).execute();
      throw new ServiceError('email_not_sent', 'The mail server did not take the email; nothing was sent. Try again.', { cause: error });
    }
    return toOfflineMessage(claimed, me);
  }

  close(): void {
    this.transport?.close();
  }
}
