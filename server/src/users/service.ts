/**
 * People who sign in to the dashboard. Each user belongs to one account with a role: `owner`s manage
 * API keys and teammates, `member`s see them. The first sign-up of an install owns the account that
 * already exists (the development account with the seeded demo bot); later ones follow the sign-up
 * policy (dashboard/options.ts) and invites (users/invites.ts).
 */
import type { Kysely, Transaction } from 'kysely';
import { withDashboardTables, type DashboardDatabase, type Role } from '../db/dashboard-schema.ts';
import type { Database } from '../db/schema.ts';
import { notFound, ServiceError } from '../http/errors.ts';
import { newId } from '../ids.ts';
import type { SignupPolicy } from '../dashboard/options.ts';
import type { InviteService } from './invites.ts';
import { decoyHash, hashPassword, verifyPassword } from './password.ts';
import { normalizeEmail, type SignUpInput } from './schema.ts';
import type { User } from '../../../src/dashboard/types.ts';

/** The JSON shape, shared with the dashboard. */
export type { User };

export interface UserRecord {
  id: string;
  accountId: string;
}

const INVALID_CREDENTIALS = 'The email or password is not correct.';

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

export class UserService {
  private readonly db: Kysely<DashboardDatabase>;

  constructor(
    db: Kysely<Database>,
    private readonly invites: InviteService,
    /** The account the first sign-up owns: the development account (index.ts). */
    private readonly installAccountId: string,
    private readonly policy: SignupPolicy,
  ) {
    this.db = withDashboardTables(db);
    // Ready before the first unknown email arrives, so that one costs no more than any other.
    decoyHash().catch(() => {});
  }

  /** Whether someone has signed up yet (the first sign-up claims the install). */
  async installClaimed(): Promise<boolean> {
    return Boolean(await this.db.selectFrom('users').select('id').limit(1).executeTakeFirst());
  }

  /**
   * Creates the user, deciding the account and role in one transaction. The install account's row
   * is locked first, so two simultaneous first sign-ups cannot both become its owner.
   */
  async signUp(input: SignUpInput, startSession: (trx: Kysely<DashboardDatabase>, userId: string) => Promise<void>): Promise<UserRecord> {
    const email = normalizeEmail(input.email);
    const passwordHash = await hashPassword(input.password); // slow: outside the transaction
    try {
      return await this.db.transaction().execute(async (trx) => {
        await trx.selectFrom('accounts').select('id').where('id', '=', this.installAccountId).forUpdate().execute();
        const claimed = Boolean(await trx.selectFrom('users').select('id').limit(1).executeTakeFirst());
        const placement = claimed ? await this.placeNewcomer(trx, input) : { accountId: this.installAccountId, role: 'owner' as Role };
        // Only after the policy let this sign-up through: a refused one must not reveal who has an account.
        if (await trx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()) {
          throw emailTaken();
        }
        const userId = newId('usr');
        await trx
          .insertInto('users')
          .values({ id: userId, account_id: placement.accountId, email, password_hash: passwordHash, role: placement.role })
          .execute();
        if (placement.inviteId) await this.invites.markUsed(trx, placement.inviteId, userId);
        await startSession(trx, userId);
        return { id: userId, accountId: placement.accountId };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw emailTaken(); // a concurrent sign-up with the same email
      throw error;
    }
  }

  private async placeNewcomer(
    trx: Transaction<DashboardDatabase>,
    input: SignUpInput,
  ): Promise<{ accountId: string; role: Role; inviteId?: string }> {
    if (this.policy === 'closed') {
      throw new ServiceError('signup_not_allowed', 'Sign-up is closed on this service.');
    }
    if (input.invite !== undefined) {
      const invite = await this.invites.claim(trx, input.invite);
      return { accountId: invite.accountId, role: invite.role, inviteId: invite.id };
    }
    if (this.policy === 'invite') {
      throw new ServiceError('signup_not_allowed', 'Sign-up needs an invite link from an owner of an account.', { param: 'invite' });
    }
    const accountId = newId('acct');
    await trx
      .insertInto('accounts')
      .values({ id: accountId, name: input.account_name ?? 'Account', rate_limit_points: null, rate_limit_duration_seconds: null })
      .execute();
    return { accountId, role: 'owner' };
  }

  /**
   * The user with this email and password, or 401 `invalid_credentials` — the same answer, after the
   * same KDF work (a decoy hash), whether the email is unknown or the password wrong.
   */
  async verify(emailInput: string, password: string): Promise<UserRecord> {
    const row = await this.db
      .selectFrom('users')
      .select(['id', 'account_id', 'password_hash'])
      .where('email', '=', normalizeEmail(emailInput))
      .executeTakeFirst();
    const matches = await verifyPassword(password, row?.password_hash ?? (await decoyHash()));
    if (!row || !matches) throw new ServiceError('invalid_credentials', INVALID_CREDENTIALS);
    return { id: row.id, accountId: row.account_id };
  }

  /**
   * What the user's device cookies are signed with (users/devices.ts): its password hash. With
   * `email`, only when that is the user's email (a device is trusted for its own user only).
   */
  async deviceKey(userId: string, email?: string): Promise<string | null> {
    const row = await this.db.selectFrom('users').select(['email', 'password_hash']).where('id', '=', userId).executeTakeFirst();
    if (!row || (email !== undefined && row.email !== normalizeEmail(email))) return null;
    return row.password_hash;
  }

  /** Checks the current password, stores the new one and ends every session of the user. */
  async changePassword(
    userId: string,
    current: string,
    next: string,
    startSession: (trx: Kysely<DashboardDatabase>) => Promise<void>,
    endSessions: (trx: Kysely<DashboardDatabase>) => Promise<void>,
  ): Promise<void> {
    const row = await this.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow();
    if (!(await verifyPassword(current, row.password_hash))) {
      throw new ServiceError('invalid_credentials', 'The current password is not correct.', { param: 'current_password' });
    }
    const passwordHash = await hashPassword(next);
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ password_hash: passwordHash, password_changed_at: new Date() }).where('id', '=', userId).execute();
      await endSessions(trx);
      await startSession(trx);
    });
  }

  async get(userId: string): Promise<User> {
    const row = await this.db.selectFrom('users').select(['id', 'email', 'role', 'created_at']).where('id', '=', userId).executeTakeFirstOrThrow();
    return toUser(row);
  }

  async list(accountId: string): Promise<User[]> {
    const rows = await this.db
      .selectFrom('users')
      .select(['id', 'email', 'role', 'created_at'])
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toUser);
  }

  /** Changes a teammate's role; an account always keeps at least one owner. */
  async setRole(accountId: string, userId: string, role: Role): Promise<User> {
    return this.db.transaction().execute(async (trx) => {
      await this.lockTeam(trx, accountId);
      const user = await this.teammate(trx, accountId, userId);
      if (user.role === 'owner' && role !== 'owner') await this.keepAnOwner(trx, accountId, userId);
      await trx.updateTable('users').set({ role }).where('id', '=', userId).execute();
      return toUser({ ...user, role });
    });
  }

  /** Removes a teammate (and with them their sessions); the last owner cannot be removed. */
  async remove(accountId: string, userId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.lockTeam(trx, accountId);
      const user = await this.teammate(trx, accountId, userId);
      if (user.role === 'owner') await this.keepAnOwner(trx, accountId, userId);
      await trx.deleteFrom('users').where('id', '=', userId).execute();
    });
  }

  /** Serialises role changes of one account, so two owners cannot demote each other at once. */
  private async lockTeam(trx: Transaction<DashboardDatabase>, accountId: string): Promise<void> {
    await trx.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().execute();
  }

  private async teammate(trx: Transaction<DashboardDatabase>, accountId: string, userId: string) {
    const row = await trx
      .selectFrom('users')
      .select(['id', 'email', 'role', 'created_at'])
      .where('id', '=', userId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (!row) throw notFound('user_id', 'teammate');
    return row;
  }

  private async keepAnOwner(trx: Transaction<DashboardDatabase>, accountId: string, leavingId: string): Promise<void> {
    const other = await trx
      .selectFrom('users')
      .select('id')
      .where('account_id', '=', accountId)
      .where('role', '=', 'owner')
      .where('id', '!=', leavingId)
      .limit(1)
      .executeTakeFirst();
    if (!other) throw new ServiceError('conflict', 'An account needs at least one owner: make someone else owner first.');
  }
}

function emailTaken(): ServiceError {
  return new ServiceError('conflict', 'A user with that email already exists; sign in instead.', { param: 'email' });
}

function toUser(row: { id: string; email: string; role: Role; created_at: Date }): User {
  return { id: row.id, email: row.email, role: row.role, created_at: row.created_at.toISOString() };
}
