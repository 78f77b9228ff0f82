/**
 * Canned replies: texts an account's team shares and inserts in the inbox by shortcut (`/refund`).
 * A shortcut is unique per account (the table's unique key decides between two at once); an
 * account keeps at most `MAX_CANNED_REPLIES`.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { CannedReply, CannedReplyRequest } from '../../../src/client/types.ts';
import { iso } from '../db/json.ts';
import type { Database } from '../db/schema.ts';
import { notFound, ServiceError } from '../http/errors.ts';
import { newId } from '../ids.ts';
import { MAX_CANNED_REPLIES } from './schema.ts';
import { withCannedReplyTables, type CannedRepliesTable, type CannedReplyDatabase } from './tables.ts';

type CannedReplyRow = Selectable<CannedRepliesTable>;

export class CannedReplyService {
  private readonly db: Kysely<CannedReplyDatabase>;

  constructor(db: Kysely<Database>) {
    this.db = withCannedReplyTables(db);
  }

  /** Every reply of the account, by shortcut (at most `MAX_CANNED_REPLIES`). */
  async list(accountId: string): Promise<CannedReply[]> {
    const rows = await this.db.selectFrom('canned_replies').selectAll().where('account_id', '=', accountId).orderBy('shortcut').limit(MAX_CANNED_REPLIES).execute();
    return rows.map(toView);
  }

  async create(accountId: string, input: CannedReplyRequest): Promise<CannedReply> {
    // The count and the insert in one statement, as webhook subscriptions do.
    const result = await sql<CannedReplyRow>`
      insert into canned_replies (id, account_id, shortcut, text)
      select ${newId('cnr')}, ${accountId}, ${input.shortcut}, ${input.text}
      where (select count(*) from canned_replies where account_id = ${accountId}) < ${MAX_CANNED_REPLIES}
      returning *`
      .execute(this.db)
      .catch(rethrowTakenShortcut);
    const row = result.rows[0];
    if (!row) throw new ServiceError('conflict', `An account has at most ${MAX_CANNED_REPLIES} canned replies; delete one first.`);
    return toView(row);
  }

  async update(accountId: string, id: string, input: Partial<CannedReplyRequest>): Promise<CannedReply> {
    const row = await this.db
      .updateTable('canned_replies')
      .set({ ...input, updated_at: sql`now()` })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst()
      .catch(rethrowTakenShortcut);
    if (!row) throw notFound('canned_reply_id', 'canned reply');
    return toView(row);
  }

  async remove(accountId: string, id: string): Promise<{ id: string; deleted: true }> {
    const row = await this.db.deleteFrom('canned_replies').where('account_id', '=', accountId).where('id', '=', id).returning('id').executeTakeFirst();
    if (!row) throw notFound('canned_reply_id', 'canned reply');
    return { id, deleted: true };
  }
}

/** Another reply of the account has the shortcut: 409 naming it, not a 500. */
function rethrowTakenShortcut(error: unknown): never {
  const pgError = error as { code?: string; constraint?: string };
  if (pgError.code === '23505' && pgError.constraint === 'canned_replies_account_id_shortcut_key') {
    throw new ServiceError('conflict', 'Another canned reply has this shortcut.', { param: 'shortcut' });
  }
  throw error;
}

function toView(row: CannedReplyRow): CannedReply {
  return { id: row.id, shortcut: row.shortcut, text: row.text, created_at: iso(row.created_at), updated_at: iso(row.updated_at) };
}
