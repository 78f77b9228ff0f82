/**
 * Email to the team about a conversation that waited for a person `afterMinutes` and nobody took:
 * every teammate of the account gets one email per waiting spell, over SMTP (nodemailer). Off
 * unless `AI_CHAT_SMTP_URL` is set.
 *
 * Every `pollMs` the worker claims the spells that came due in one statement: inserting their
 * `waiting_emails` rows (migration 030) claims them, so of several instances exactly one sends
 * each. An email that fails gives its claim back and is tried again at the next poll. The clock of
 * "due" is injected: tests move it instead of waiting.
 */
import { sql, type Kysely } from 'kysely';
import type { Transporter } from 'nodemailer';
import { realConversations } from '../conversations/test-conversations.ts';
import type { Database } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import { DEFAULT_SENDER, smtpTransport, type MailOptions } from './mailer.ts';
import { withHandoffTables, type HandoffDatabase, type WaitingEmailsTable } from './tables.ts';

export interface WaitingEmailOptions extends MailOptions {
  /** Minutes a conversation waits untaken before the team is emailed (`AI_CHAT_WAITING_EMAIL_MINUTES`). Default 5. */
  afterMinutes?: number;
  /** How often the worker looks for spells that came due. Default 30 s. */
  pollMs?: number;
  /** The clock of "due" (tests move it). Default `Date.now`. */
  now?: () => number;
}

/** Spells claimed per poll: a backlog goes out over the next polls, not in one burst. */
const BATCH = 50;

type WaitingEmailsDatabase = HandoffDatabase & { waiting_emails: WaitingEmailsTable };

export class WaitingEmails {
  private readonly db: Kysely<WaitingEmailsDatabase>;
  private readonly transport: Transporter | null;
  private readonly afterMs: number;
  private readonly now: () => number;
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<number> | null = null;

  constructor(
    db: Kysely<Database>,
    private readonly logger: Logger,
    private readonly options: WaitingEmailOptions = {},
    /** Where the dashboard is (the first `AI_CHAT_PUBLIC_URL`), for a link to the Inbox; none: no link. */
    private readonly publicUrl?: string,
  ) {
    this.db = withHandoffTables(db) as Kysely<WaitingEmailsDatabase>;
    this.afterMs = (options.afterMinutes ?? 5) * 60_000;
    this.now = options.now ?? Date.now;
    this.transport = smtpTransport(options);
  }

  /** Polls in the background (nothing without an SMTP server). */
  start(): void {
    if (!this.transport || this.timer) return;
    this.timer = setInterval(() => void this.runOnce().catch((error: unknown) => this.fail('waiting conversations not emailed until the next poll', error)), this.options.pollMs ?? 30_000);
    this.timer.unref();
  }

  /** Emails every spell due now; resolves with how many emails went out. One poll at a time. */
  runOnce(): Promise<number> {
    if (!this.transport) return Promise.resolve(0);
    this.running ??= this.poll().finally(() => (this.running = null));
    return this.running;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => {});
    this.transport?.close();
  }

  private async poll(): Promise<number> {
    const due = new Date(this.now() - this.afterMs);
    const claimed = await this.db
      .insertInto('waiting_emails')
      .columns(['conversation_id', 'waiting_since', 'account_id'])
      .expression((eb) =>
        eb
          .selectFrom('conversations as c')
          .select(['c.id', 'c.waiting_since', 'c.account_id'])
          .where('c.status', '=', 'waiting')
          .where('c.waiting_since', '<=', due)
          .where(realConversations('c'))
          .where(({ not, exists, selectFrom }) =>
            not(exists(selectFrom('waiting_emails as w').select('w.conversation_id').whereRef('w.conversation_id', '=', 'c.id').whereRef('w.waiting_since', '=', 'c.waiting_since'))),
          )
          .orderBy('c.waiting_since')
          .limit(BATCH),
      )
      .onConflict((oc) => oc.doNothing())
      // as text: a timestamp through a JS Date loses its microseconds, and the claim is found by it
      .returning(['conversation_id', 'account_id', sql<string>`waiting_since::text`.as('since')])
      .execute();
    let sent = 0;
    for (const spell of claimed) {
      try {
        if (await this.send(spell.account_id, spell.conversation_id, spell.since)) sent++;
      } catch (error) {
        this.fail('a waiting conversation not emailed; tried again at the next poll', error);
        await this.db.deleteFrom('waiting_emails').where('conversation_id', '=', spell.conversation_id).where('waiting_since', '=', sql<Date>`${spell.since}::timestamptz`).execute();
      }
    }
    return sent;
  }

  private async send(accountId: string, conversationId: string, since: string): Promise<boolean> {
    const team = await this.db.selectFrom('users').select('email').where('account_id', '=', accountId).orderBy('created_at').execute();
    if (team.length === 0) return false;
    const minutes = Math.round(this.afterMs / 60_000);
    const inbox = this.publicUrl ? `\n\nOpen the Inbox: ${this.publicUrl.replace(/\/+$/, '')}/dashboard/#/inbox` : '';
    await this.transport!.sendMail({
      from: this.options.from ?? DEFAULT_SENDER,
      to: team.map((user) => user.email),
      subject: `A visitor has waited ${minutes} min for a person`,
      text: `A visitor asked for a person at ${new Date(since).toISOString()} and nobody has taken the conversation (${conversationId}) yet.${inbox}`,
    });
    return true;
  }

  private fail(message: string, error: unknown): void {
    this.logger.error(message, { error: error instanceof Error ? error.message : String(error) });
  }
}
