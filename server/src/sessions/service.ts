/**
 * Server-side dashboard sessions. The cookie holds a random secret; the database holds only its
 * sha256 (the row id), so a copy of the table signs nobody in. Each session carries its own CSRF
 * token (synchronizer token, sessions/middleware.ts). A session ends at sign-out, after
 * `IDLE_MS` without use, `LIFETIME_MS` after sign-in at the latest, and when its user changes the
 * password or is removed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { withDashboardTables, type DashboardDatabase, type Role } from '../db/dashboard-schema.ts';
import type { Database } from '../db/schema.ts';

export const LIFETIME_MS = 7 * 24 * 3600 * 1000;
export const IDLE_MS = 24 * 3600 * 1000;
/** `last_seen_at` is written at most this often per session (not one UPDATE per request). */
const TOUCH_EVERY_MS = 5 * 60 * 1000;

/** The signed-in user of a request. */
export interface SessionUser {
  sessionId: string;
  csrfToken: string;
  expiresAt: Date;
  userId: string;
  accountId: string;
  email: string;
  role: Role;
  userCreatedAt: Date;
}

export interface NewSession {
  /** The cookie value: the only copy of the secret. */
  token: string;
  csrfToken: string;
  expiresAt: Date;
}

function sessionIdOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export class SessionService {
  private readonly db: Kysely<DashboardDatabase>;

  constructor(db: Kysely<Database>) {
    this.db = withDashboardTables(db);
  }

  /** A new session for the user. Expired sessions of anyone are purged on the way (cheap: indexed). */
  async create(userId: string, trx: Kysely<DashboardDatabase> = this.db): Promise<NewSession> {
    const token = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + LIFETIME_MS);
    await trx.deleteFrom('sessions').where('expires_at', '<', new Date()).execute();
    await trx
      .insertInto('sessions')
      .values({ id: sessionIdOf(token), user_id: userId, csrf_token: csrfToken, expires_at: expiresAt })
      .execute();
    return { token, csrfToken, expiresAt };
  }

  /** The live session behind a cookie value, or null (unknown, expired, idle too long). */
  async lookup(token: string | undefined): Promise<SessionUser | null> {
    if (!token || !TOKEN_SHAPE.test(token)) return null;
    const sessionId = sessionIdOf(token);
    const row = await this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([
        'sessions.csrf_token',
        'sessions.expires_at',
        'sessions.last_seen_at',
        'users.id as user_id',
        'users.account_id',
        'users.email',
        'users.role',
        'users.created_at',
      ])
      .where('sessions.id', '=', sessionId)
      .where('sessions.expires_at', '>', sql<Date>`now()`)
      .where('sessions.last_seen_at', '>', new Date(Date.now() - IDLE_MS))
      .executeTakeFirst();
    if (!row) return null;
    if (Date.now() - row.last_seen_at.getTime() > TOUCH_EVERY_MS) {
      await this.db.updateTable('sessions').set({ last_seen_at: new Date() }).where('id', '=', sessionId).execute();
    }
    return {
      sessionId,
      csrfToken: row.csrf_token,
      expiresAt: row.expires_at,
      userId: row.user_id,
      accountId: row.account_id,
      email: row.email,
      role: row.role,
      userCreatedAt: row.created_at,
    };
  }

  /**
   * Whether a session looked up before is still live (not ended, expired or idle too long), without
   * counting as use: a page left open is no activity that keeps its session from idling out.
   */
  async isLive(sessionId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('sessions')
      .select('id')
      .where('id', '=', sessionId)
      .where('expires_at', '>', sql<Date>`now()`)
      .where('last_seen_at', '>', new Date(Date.now() - IDLE_MS))
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Ends the session behind a cookie value (sign-out, or the old session at sign-in). */
  async end(token: string | undefined): Promise<void> {
    if (!token || !TOKEN_SHAPE.test(token)) return;
    await this.db.deleteFrom('sessions').where('id', '=', sessionIdOf(token)).execute();
  }

  /** Ends every session of a user (password changed). */
  async endAll(userId: string, trx: Kysely<DashboardDatabase> = this.db): Promise<void> {
    await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
  }
}
