/**
 * API keys as the dashboard manages them: create (the secret is returned once, only its hash is
 * kept), list, revoke. A revocation is pushed to the authentication cache of this and every other
 * instance (keys/cache.ts), so the key stops working within 1 second everywhere.
 */
import type { Kysely } from 'kysely';
import { generateApiKey, hashKey, keyPrefix, type AuthenticatedKey } from '../accounts/service.ts';
import { withDashboardTables, type DashboardDatabase, type KeyScope } from '../db/dashboard-schema.ts';
import type { Database } from '../db/schema.ts';
import { invalid, notFound, ServiceError } from '../http/errors.ts';
import { newId } from '../ids.ts';
import type { KeyCache } from './cache.ts';
import type { CreateKeyInput } from './schema.ts';
import type { ApiKey } from '../../../src/dashboard/types.ts';

/** The JSON shape, shared with the dashboard. */
export type { ApiKey };

/** Live keys per account: plenty, and the list needs no pagination. */
const MAX_LIVE_KEYS = 100;
const MAX_LIFETIME_MS = 10 * 365 * 24 * 3600 * 1000;

const COLUMNS = ['id', 'prefix', 'label', 'scope', 'created_at', 'expires_at', 'last_used_at', 'created_by', 'managed'] as const;

export class ApiKeyService {
  private readonly db: Kysely<DashboardDatabase>;

  constructor(
    db: Kysely<Database>,
    private readonly cache: KeyCache<AuthenticatedKey>,
  ) {
    this.db = withDashboardTables(db);
  }

  async create(accountId: string, createdBy: string, input: CreateKeyInput): Promise<{ key: ApiKey; secret: string }> {
    const expiresAt = input.expires_at ? parseExpiry(input.expires_at, this.cache.now()) : null;
    const live = await this.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(live.count) >= MAX_LIVE_KEYS) {
      throw new ServiceError('conflict', `An account can have at most ${MAX_LIVE_KEYS} live keys; revoke some first.`);
    }
    const secret = generateApiKey();
    const row = await this.db
      .insertInto('api_keys')
      .values({
        id: newId('key'),
        account_id: accountId,
        key_hash: hashKey(secret),
        prefix: keyPrefix(secret),
        label: input.label,
        scope: input.scope ?? 'full',
        expires_at: expiresAt,
        created_by: createdBy,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return { key: toApiKey(row, this.cache.now()), secret };
  }

  /** The account's keys that are not revoked, newest first. */
  async list(accountId: string): Promise<ApiKey[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .select(COLUMNS)
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map((row) => toApiKey(row, this.cache.now()));
  }

  async revoke(accountId: string, keyId: string): Promise<{ id: string; revoked_at: string }> {
    const row = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: new Date() })
      .where('id', '=', keyId)
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .returning(['id', 'key_hash', 'revoked_at'])
      .executeTakeFirst();
    if (!row) throw notFound('key_id', 'API key');
    await this.cache.revoked([row.key_hash]);
    return { id: row.id, revoked_at: row.revoked_at!.toISOString() };
  }
}

function parseExpiry(value: string, now: number): Date {
  const at = new Date(value);
  const inMs = at.getTime() - now;
  if (Number.isNaN(inMs)) throw invalid('expires_at', 'expires_at is not a valid date-time.');
  if (inMs <= 0) throw invalid('expires_at', 'expires_at must be in the future.');
  if (inMs > MAX_LIFETIME_MS) throw invalid('expires_at', 'expires_at must be within 10 years.');
  return at;
}

type KeyRow = {
  id: string;
  prefix: string;
  label: string | null;
  scope: KeyScope;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  created_by: string | null;
  managed: boolean;
};

function toApiKey(row: KeyRow, now: number): ApiKey {
  return {
    id: row.id,
    prefix: row.prefix,
    label: row.label,
    scope: row.scope,
    status: row.expires_at && row.expires_at.getTime() <= now ? 'expired' : 'active',
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at?.toISOString() ?? null,
    last_used_at: row.last_used_at?.toISOString() ?? null,
    created_by: row.created_by,
    managed: row.managed,
  };
}
