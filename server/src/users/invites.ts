/**
 * One-time invite links: an owner creates one for a role; whoever signs up with its token within its
 * lifetime joins the owner's account with that role, and the link is used up. Only the token's
 * sha256 is stored, and an unknown, used, revoked or expired token all get the same answer.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { withDashboardTables, type DashboardDatabase, type Role } from '../db/dashboard-schema.ts';
import type { Database } from '../db/schema.ts';
import { notFound, ServiceError } from '../http/errors.ts';
import { newId } from '../ids.ts';
import type { Invite } from '../../../src/dashboard/types.ts';

/** The JSON shape, shared with the dashboard. */
export type { Invite };

export const DEFAULT_INVITE_HOURS = 72;
/** Pending invites per account: enough for any team, and the list needs no pagination. */
const MAX_PENDING = 100;

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export class InviteService {
  private readonly db: Kysely<DashboardDatabase>;

  constructor(db: Kysely<Database>) {
    this.db = withDashboardTables(db);
  }

  /** A new invite and its token (shown once). */
  async create(accountId: string, createdBy: string, role: Role, hours: number): Promise<{ invite: Invite; token: string }> {
    const pending = await this.pending(accountId);
    if (pending.length >= MAX_PENDING) {
      throw new ServiceError('conflict', `An account can have at most ${MAX_PENDING} pending invites; revoke some first.`);
    }
    const token = `aicw_inv_${randomBytes(32).toString('base64url')}`;
    const row = await this.db
      .insertInto('invites')
      .values({
        id: newId('inv'),
        account_id: accountId,
        token_hash: tokenHash(token),
        role,
        created_by: createdBy,
        expires_at: new Date(Date.now() + hours * 3600 * 1000),
      })
      .returning(['id', 'role', 'created_by', 'created_at', 'expires_at'])
      .executeTakeFirstOrThrow();
    return { invite: toInvite(row), token };
  }

  /** Invites not used yet and not expired, newest first. */
  async pending(accountId: string): Promise<Invite[]> {
    const rows = await this.db
      .selectFrom('invites')
      .select(['id', 'role', 'created_by', 'created_at', 'expires_at'])
      .where('account_id', '=', accountId)
      .where('used_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toInvite);
  }

  async revoke(accountId: string, inviteId: string): Promise<void> {
    const result = await this.db
      .deleteFrom('invites')
      .where('id', '=', inviteId)
      .where('account_id', '=', accountId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (result.numDeletedRows === 0n) throw notFound('invite_id', 'pending invite');
  }

  /** The live invite behind a token, locked for this transaction (used by sign-up). */
  async claim(trx: Transaction<DashboardDatabase>, token: string): Promise<{ id: string; accountId: string; role: Role }> {
    const row = await trx
      .selectFrom('invites')
      .select(['id', 'account_id', 'role'])
      .where('token_hash', '=', tokenHash(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .forUpdate()
      .executeTakeFirst();
    if (!row) {
      throw new ServiceError('invalid_invite', 'This invite link is not valid: it may have expired or been used. Ask an owner for a new one.', {
        param: 'invite',
      });
    }
    return { id: row.id, accountId: row.account_id, role: row.role };
  }

  async markUsed(trx: Transaction<DashboardDatabase>, inviteId: string, userId: string): Promise<void> {
    await trx.updateTable('invites').set({ used_at: new Date(), used_by: userId }).where('id', '=', inviteId).execute();
  }
}

function toInvite(row: { id: string; role: Role; created_by: string | null; created_at: Date; expires_at: Date }): Invite {
  return {
    id: row.id,
    role: row.role,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
  };
}
