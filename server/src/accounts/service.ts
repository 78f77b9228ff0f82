/**
 * Accounts (tenants) and their API keys. Keys are random, shown once, stored only as sha256 hashes;
 * every other table is keyed by account id, so nothing of one account is visible to another.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { newId } from '../ids.ts';

export interface RateLimitPlan {
  points: number;
  durationSeconds: number;
}

export interface Account {
  id: string;
  name: string;
  rateLimit: RateLimitPlan | null;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function generateApiKey(): string {
  return `aicw_sk_${randomBytes(24).toString('base64url')}`;
}

export class AccountService {
  // Authentication runs on every request: a small cache saves a query; revocation is not an
  // operation of v1, so entries only expire with the process.
  private readonly byKeyHash = new Map<string, Account>();

  constructor(private readonly db: Kysely<Database>) {}

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
          prefix: apiKey.slice(0, 12),
          label: null,
        })
        .execute();
    });
    return { accountId, apiKey };
  }

  /** The account owning this key, or null for an unknown or revoked key. */
  async authenticate(apiKey: string): Promise<Account | null> {
    const keyHash = hashKey(apiKey);
    const cached = this.byKeyHash.get(keyHash);
    if (cached) return cached;
    const row = await this.db
      .selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
      .select(['accounts.id', 'accounts.name', 'accounts.rate_limit_points', 'accounts.rate_limit_duration_seconds'])
      .where('api_keys.key_hash', '=', keyHash)
      .where('api_keys.revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row) return null;
    const account: Account = {
      id: row.id,
      name: row.name,
      rateLimit:
        row.rate_limit_points && row.rate_limit_duration_seconds
          ? { points: row.rate_limit_points, durationSeconds: row.rate_limit_duration_seconds }
          : null,
    };
    this.byKeyHash.set(keyHash, account);
    return account;
  }

  /**
   * Issues a fresh labelled key for the service's own use and revokes earlier keys with that label,
   * so each start holds exactly one live key per label.
   */
  async issueLabelledKey(accountId: string, label: string): Promise<string> {
    const apiKey = generateApiKey();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('api_keys')
        .set({ revoked_at: new Date() })
        .where('account_id', '=', accountId)
        .where('label', '=', label)
        .where('revoked_at', 'is', null)
        .execute();
      await trx
        .insertInto('api_keys')
        .values({ id: newId('key'), account_id: accountId, key_hash: hashKey(apiKey), prefix: apiKey.slice(0, 12), label })
        .execute();
    });
    this.byKeyHash.clear(); // a revoked key must stop working at once
    return apiKey;
  }

  /** Whether a key (hash) is already registered, so a configured dev key is not added twice. */
  async keyExists(apiKey: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('api_keys')
      .select('id')
      .where('key_hash', '=', hashKey(apiKey))
      .executeTakeFirst();
    return Boolean(row);
  }

  async firstAccountId(): Promise<string | null> {
    const row = await this.db.selectFrom('accounts').select('id').orderBy('created_at').limit(1).executeTakeFirst();
    return row?.id ?? null;
  }
}
