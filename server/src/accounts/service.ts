/**
 * Accounts (tenants) and their API keys. Keys are random, shown once, stored only as sha256 hashes;
 * every other table is keyed by account id, so nothing of one account is visible to another.
 * Keys can be revoked, expire, and be read-only (dashboard, keys/service.ts); authentication goes
 * through a short-lived cache (keys/cache.ts) so that a revocation takes effect within 1 second.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { withDashboardTables, type DashboardDatabase, type KeyScope } from '../db/dashboard-schema.ts';
import type { Database } from '../db/schema.ts';
import { newId } from '../ids.ts';
import { SharedRead } from '../db/batcher.ts';
import { KeyCache } from '../keys/cache.ts';
import { createLogger } from '../logger.ts';
import type { RateLimitPlan } from '../rate-limit/limiter.ts';

export interface Account {
  id: string;
  name: string;
  rateLimit: RateLimitPlan | null;
}

/** The account a request's API key belongs to, with what that key may do. */
export interface AuthenticatedKey extends Account {
  keyId: string;
  scope: KeyScope;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function generateApiKey(): string {
  return `aicw_sk_${randomBytes(24).toString('base64url')}`;
}

/** What a key list shows to tell keys apart: the first characters of the secret. */
export function keyPrefix(apiKey: string): string {
  return apiKey.slice(0, 12);
}

/** `last_used_at` is written at most this often per key and process: one UPDATE a minute, not per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

export class AccountService {
  private readonly tables: Kysely<DashboardDatabase>;

  /** `keys`: the shared authentication cache (index.ts gives it Redis); a private one by default. */
  constructor(
    private readonly db: Kysely<Database>,
    readonly keys: KeyCache<AuthenticatedKey> = new KeyCache(createLogger('silent')),
  ) {
    this.tables = withDashboardTables(db);
  }

  /** Creates an account with one API key (a given one, e.g. from `AI_CHAT_API_KEY`, or a new one). */
  async create(options: { name?: string; apiKey?: string; rateLimit?: RateLimitPlan } = {}) {
    const accountId = newId('acct');
    const apiKey = options.apiKey ?? generateApiKey();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('accounts')
        .values({
          id: accountId,
          name: options.name ?? 'Account',
          rate_limit_points: options.rateLimit?.points ?? null,
          rate_limit_duration_seconds: options.rateLimit?.durationSeconds ?? null,
        })
        .execute();
      await trx
        .insertInto('api_keys')
        .values({
          id: newId('key'),
          account_id: accountId,
          key_hash: hashKey(apiKey),
          prefix: keyPrefix(apiKey),
          label: null,
        })
        .execute();
    });
    return { accountId, apiKey };
  }

  /** The account owning this key and the key's scope, or null for an unknown, revoked or expired key. */
  async authenticate(apiKey: string): Promise<AuthenticatedKey | null> {
    const keyHash = hashKey(apiKey);
    return this.keys.get(keyHash) ?? this.lookups.get(keyHash);
  }

  /**
   * When a busy key's cache entry goes stale, every request in flight misses at once: they share
   * one read (and the ones arriving during it the next; db/batcher.ts), not one read each.
   */
  private readonly lookups = new SharedRead((keyHash) => this.lookUp(keyHash));

  private async lookUp(keyHash: string): Promise<AuthenticatedKey | null> {
    const readStartedAt = this.keys.readStarted();
    const row = await this.tables
      .selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
      .select([
        'accounts.id',
        'accounts.name',
        'accounts.rate_limit_points',
        'accounts.rate_limit_duration_seconds',
        'api_keys.id as key_id',
        'api_keys.scope',
        'api_keys.expires_at',
        'api_keys.last_used_at',
      ])
      .where('api_keys.key_hash', '=', keyHash)
      .where('api_keys.revoked_at', 'is', null)
      .where((eb) => eb.or([eb('api_keys.expires_at', 'is', null), eb('api_keys.expires_at', '>', new Date(this.keys.now()))]))
      .executeTakeFirst();
    if (!row) return null;
    if (!row.last_used_at || Date.now() - row.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS) {
      await this.tables.updateTable('api_keys').set({ last_used_at: sql<Date>`now()` }).where('id', '=', row.key_id).execute();
    }
    const key: AuthenticatedKey = {
      id: row.id,
      name: row.name,
      rateLimit:
        row.rate_limit_points && row.rate_limit_duration_seconds
          ? { points: row.rate_limit_points, durationSeconds: row.rate_limit_duration_seconds }
          : null,
      keyId: row.key_id,
      scope: row.scope,
    };
    this.keys.set(keyHash, key, readStartedAt, row.expires_at);
    return key;
  }

  /**
   * Issues a fresh labelled key for the service's own use and revokes earlier keys with that label,
   * so each start holds exactly one live key per label.
   */
  async issueLabelledKey(accountId: string, label: string): Promise<string> {
    const apiKey = generateApiKey();
    const revoked = await this.tables.transaction().execute(async (trx) => {
      const earlier = await trx
        .updateTable('api_keys')
        .set({ revoked_at: new Date() })
        .where('account_id', '=', accountId)
        .where('label', '=', label)
        .where('managed', '=', true)
        .where('revoked_at', 'is', null)
        .returning('key_hash')
        .execute();
      await trx
        .insertInto('api_keys')
        .values({ id: newId('key'), account_id: accountId, key_hash: hashKey(apiKey), prefix: keyPrefix(apiKey), label, managed: true })
        .execute();
      return earlier.map((row) => row.key_hash);
    });
    await this.keys.revoked(revoked); // a revoked key must stop working at once
    return apiKey;
  }

  /**
   * The account a key was registered to, live or not: a configured dev key that an owner revoked in
   * the dashboard must neither be registered again (its hash is unique) nor come back to life.
   */
  async accountOfKey(apiKey: string): Promise<{ accountId: string; live: boolean } | null> {
    const row = await this.tables
      .selectFrom('api_keys')
      .select(['account_id', 'revoked_at', 'expires_at'])
      .where('key_hash', '=', hashKey(apiKey))
      .executeTakeFirst();
    if (!row) return null;
    const live = !row.revoked_at && (!row.expires_at || row.expires_at.getTime() > this.keys.now());
    return { accountId: row.account_id, live };
  }

  /** The account's own rate limit, or null when the service default applies (also for an unknown id). */
  async rateLimitOf(accountId: string): Promise<RateLimitPlan | null> {
    const row = await this.db
      .selectFrom('accounts')
      .select(['rate_limit_points', 'rate_limit_duration_seconds'])
      .where('id', '=', accountId)
      .executeTakeFirst();
    return row?.rate_limit_points && row.rate_limit_duration_seconds
      ? { points: row.rate_limit_points, durationSeconds: row.rate_limit_duration_seconds }
      : null;
  }

  async firstAccountId(): Promise<string | null> {
    const row = await this.db.selectFrom('accounts').select('id').orderBy('created_at').limit(1).executeTakeFirst();
    return row?.id ?? null;
  }
}
