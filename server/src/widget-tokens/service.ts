/**
 * Visitor tokens the service mints itself (`POST /v1/widget/tokens`) for a bot whose website
 * channel lists the page's origin: the one-snippet install, with no token proxy of the site's own.
 *
 * They are the token proxy's widget tokens (`src/proxy/tokens.ts`: HS256 with jose, the claims
 * `sub`, `bot`, `scp`, `org`), under the service's own issuer, so a proxy's token is never taken
 * here. HS256 rather than EdDSA: the service alone signs and verifies them, so a public key would
 * serve nobody. The secret is configured (`AI_CHAT_WIDGET_TOKEN_SECRET`) or generated at the first
 * start and kept in the database, so every instance on that database shares it.
 */
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { ALL_SCOPES } from '../../../src/proxy/options.ts';
import { TokenService, type TokenGrant } from '../../../src/proxy/tokens.ts';
import type { Database } from '../db/schema.ts';

/** `iss` of the service's own widget tokens (a proxy's are `ai-chat-widget-proxy`). */
export const WIDGET_TOKEN_ISSUER = 'ai-chat-service';
export const WIDGET_TOKEN_TTL_SECONDS = 600;
/** How long a bot's website origins are remembered: removing one ends its tokens' use within this. */
const BOT_CACHE_MS = 10_000;
const BOT_CACHE_MAX = 1000;
const SECRET_NAME = 'widget_tokens';

export interface WidgetTokenOptions {
  /** The signing secret, ≥ 32 bytes (`AI_CHAT_WIDGET_TOKEN_SECRET`); default: generated once, kept in the database. */
  secret?: string;
  /** The clock, epoch ms (tests). */
  now?: () => number;
}

/** The bot a token is minted for: its account and the origins its website channels list. */
export interface WidgetBot {
  accountId: string;
  origins: string[];
}

/**
 * What the service's own widget call carries into the app once its token checked out: it travels
 * in the app's `env` (never a header, which a browser could write), keyed by this symbol.
 */
export const WIDGET_CALL = Symbol('widget call');

export interface WidgetCall {
  accountId: string;
  visitor: string;
}

export function widgetCallOf(env: unknown): WidgetCall | undefined {
  return (env as { [WIDGET_CALL]?: WidgetCall } | undefined)?.[WIDGET_CALL];
}

/** The origins a bot's website channels list (`channels[].allowed_origins`). */
function websiteOrigins(channels: unknown): string[] {
  if (!Array.isArray(channels)) return [];
  return channels.flatMap((channel: { type?: unknown; allowed_origins?: unknown }) =>
    channel?.type === 'website' && Array.isArray(channel.allowed_origins) ? channel.allowed_origins.filter((o): o is string => typeof o === 'string') : [],
  );
}

async function sharedSecret(db: Kysely<Database>): Promise<Uint8Array> {
  // Several instances may start at once: the first insert wins and every one reads the winner.
  const fresh = randomBytes(32).toString('base64url');
  await sql`insert into service_secrets (name, value) values (${SECRET_NAME}, ${fresh}) on conflict (name) do nothing`.execute(db);
  const row = await sql<{ value: string }>`select value from service_secrets where name = ${SECRET_NAME}`.execute(db);
  return Buffer.from(row.rows[0]!.value, 'base64url');
}

export class WidgetTokens {
  private readonly bots = new Map<string, { bot: WidgetBot | null; at: number }>();

  private constructor(
    private readonly db: Kysely<Database>,
    private readonly tokens: TokenService,
    /** The clock, epoch ms. */
    readonly now: () => number,
  ) {}

  static async open(db: Kysely<Database>, options: WidgetTokenOptions = {}): Promise<WidgetTokens> {
    const configured = options.secret ? new TextEncoder().encode(options.secret) : null;
    if (configured && configured.length < 32) throw new RangeError('AI_CHAT_WIDGET_TOKEN_SECRET must be at least 32 bytes');
    const now = options.now ?? (() => Date.now());
    const tokens = new TokenService([configured ?? (await sharedSecret(db))], WIDGET_TOKEN_ISSUER, 'ai-chat-widget', WIDGET_TOKEN_TTL_SECONDS, now);
    return new WidgetTokens(db, tokens, now);
  }

  /** The bot `botId` with its website origins, or null when there is none (remembered briefly). */
  async bot(botId: string): Promise<WidgetBot | null> {
    const hit = this.bots.get(botId);
    if (hit && this.now() - hit.at < BOT_CACHE_MS) return hit.bot;
    const row = await this.db.selectFrom('bots').select(['account_id', 'channels']).where('id', '=', botId).executeTakeFirst();
    const bot = row ? { accountId: row.account_id, origins: websiteOrigins(row.channels) } : null;
    if (this.bots.size >= BOT_CACHE_MAX) this.bots.clear();
    this.bots.set(botId, { bot, at: this.now() });
    return bot;
  }

  /** A token for `userId` chatting with `botId` from pages on `origin`: every widget scope, 10 minutes. */
  mint(userId: string, botId: string, origin: string): Promise<{ token: string; expiresAt: number }> {
    return this.tokens.mint({ userId, botId, agentId: null, scopes: [...ALL_SCOPES], origin, ttlSeconds: WIDGET_TOKEN_TTL_SECONDS });
  }

  /** The token's grant, or a `ProxyError` (`invalid_token`, `token_expired`). */
  verify(token: string): Promise<TokenGrant> {
    return this.tokens.verify(token);
  }
}
