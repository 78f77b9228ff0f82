/** Service configuration: explicit options win, then environment variables, then defaults. */
import type { RateLimitPlan } from './rate-limit/limiter.ts';
import { resolveAttachmentQuotas, type AttachmentQuotas } from './attachments/quotas.ts';
import { channelOptionsFromEnv, type ChannelOptions } from './channels/options.ts';
import { signupPolicyFromEnv, type DashboardOptions } from './dashboard/options.ts';
import { embeddingsOptionsFromEnv, type EmbeddingsOptions } from './embeddings/options.ts';
import { importOptionsFromEnv, resolveImportConfig, type ImportConfig, type ImportOptions } from './knowledge/import/options.ts';
import { publicHost } from './http/allowed-hosts.ts';
import type { PresenceOptions } from './handoff/presence.ts';
import type { WaitingEmailOptions } from './handoff/waiting-email.ts';
import type { LlmOptions } from './llm/index.ts';
import type { LogLevel } from './logger.ts';
import type { WidgetTokenOptions } from './widget-tokens/service.ts';
import { webhookOptionsFromEnv, type WebhookOptions } from './webhooks/options.ts';

export interface ServiceOptions {
  /** PGlite data directory, or `memory://`. Default `AI_CHAT_DATA_DIR` or `./.data`. */
  dataDir?: string;
  /** PostgreSQL connection string (`DATABASE_URL`); wins over `dataDir`. */
  databaseUrl?: string;
  /** Tests only: a new PGlite database starts from this migrated dump (see `DatabaseOptions`). */
  pgliteTemplate?: Blob;
  /** Redis for shared rate-limit counters (`REDIS_URL`). */
  redisUrl?: string;
  /** The development API key (`AI_CHAT_API_KEY`); otherwise one is generated on first start. */
  apiKey?: string;
  /** Seed the development account with a demo bot and knowledge on first start. Default true. */
  seed?: boolean;
  logLevel?: LogLevel;
  /** Default plan for accounts without their own (`AI_CHAT_RATE_LIMIT`, `AI_CHAT_RATE_WINDOW`). */
  rateLimit?: RateLimitPlan;
  /** Largest accepted request body in bytes (`AI_CHAT_MAX_BODY_BYTES`). Default 512 KiB. */
  maxBodyBytes?: number;
  /** Browser origins always allowed by CORS, besides bots' website channels (`AI_CHAT_CORS_ORIGINS`). */
  corsOrigins?: string[];
  /**
   * How many reverse proxies of your own stand in front of the service (`AI_CHAT_TRUSTED_PROXIES`).
   * Default 0: per-IP limits count the socket address and `X-Forwarded-For` is ignored (anyone can
   * write it). With n, the client is the n-th `X-Forwarded-For` entry from the right.
   */
  trustedProxies?: number;
  /**
   * The service's own public URLs (`AI_CHAT_PUBLIC_URL`, comma-separated), e.g.
   * `https://chat.example.com`: their hosts are served besides loopback names; any other `Host`
   * answers 421 `host_not_allowed` (DNS rebinding, http/allowed-hosts.ts).
   */
  publicUrls?: string[];
  /** More host names served on any port (IP literals; IPv6 in brackets). `startServer` adds the bind address when there is no public URL. */
  hostNames?: string[];
  /** The OpenAI-compatible provider (`AI_CHAT_LLM_BASE_URL`, `_API_KEY`, `_MODEL`, `_TIMEOUT_MS`). */
  llm?: LlmOptions;
  /** An OpenAI-compatible embeddings endpoint for semantic knowledge search and intents (`AI_CHAT_EMBEDDINGS_*`, docs/embeddings.md). */
  embeddings?: EmbeddingsOptions;
  /** Dashboard sign-up policy (`AI_CHAT_SIGNUP`: open, invite, closed) and sign-in limits. */
  dashboard?: DashboardOptions;
  /** Knowledge imports: private hosts, upload and page sizes, page count, timeout (`AI_CHAT_IMPORT_*`). */
  imports?: ImportOptions;
  /** The largest attachment in bytes, over every bot's own limit (`AI_CHAT_MAX_ATTACHMENT_BYTES`). Default 10 MiB. */
  maxAttachmentBytes?: number;
  /** Bytes of unsent uploads per visitor, address and bot, of all files per account, and how long unsent ones are kept (`AI_CHAT_UPLOAD_*`, `AI_CHAT_STORAGE_QUOTA_BYTES`). */
  attachmentQuotas?: Partial<AttachmentQuotas>;
  /** Messaging platforms: API URLs, the credentials key, webhook limits (`AI_CHAT_TELEGRAM_API_URL`, `AI_CHAT_SECRETS_KEY`…; channels/options.ts). */
  channels?: ChannelOptions;
  /** Outgoing webhooks: private targets for tests (`AI_CHAT_WEBHOOKS_ALLOW_PRIVATE`), limits, timing (webhooks/options.ts). */
  webhooks?: WebhookOptions;
  /** Visitor tokens the service mints itself: the signing secret (`AI_CHAT_WIDGET_TOKEN_SECRET`, else generated once and kept in the database). */
  widgetTokens?: WidgetTokenOptions;
  /** Operator presence: minutes without dashboard activity before `online` shows as `away` (`AI_CHAT_PRESENCE_AWAY_MINUTES`), and its clock. */
  presence?: PresenceOptions;
  /** The clock of API key expiry (tests move it instead of waiting for a key to expire). Default `Date.now`. */
  keyClock?: () => number;
  /**
   * How often an event stream (a conversation's, the inbox's) sends its keep-alive comment and checks
   * its session and the store again. Default 15 s (tests shorten it instead of waiting for a beat).
   */
  streamHeartbeatMs?: number;
  /** Email the team about a conversation nobody took within minutes: SMTP server, sender, minutes (`AI_CHAT_SMTP_URL`, `AI_CHAT_SMTP_FROM`, `AI_CHAT_WAITING_EMAIL_MINUTES`). */
  waitingEmail?: WaitingEmailOptions;
}

export type ServiceConfig = Required<Omit<ServiceOptions, 'databaseUrl' | 'pgliteTemplate' | 'redisUrl' | 'apiKey' | 'llm' | 'embeddings' | 'imports' | 'attachmentQuotas'>> &
  Pick<ServiceOptions, 'databaseUrl' | 'pgliteTemplate' | 'redisUrl' | 'apiKey' | 'llm' | 'embeddings'> & { imports: ImportConfig; attachmentQuotas: AttachmentQuotas };

const LOG_LEVELS: readonly LogLevel[] = ['silent', 'error', 'info', 'debug'];

function int(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/** A comma-separated list; unset: undefined (the default applies). */
function list(value: string | undefined): string[] | undefined {
  return value?.split(',').map((item) => item.trim()).filter(Boolean);
}

/** Options from `process.env` (used by `main.ts`; tests pass options directly). */
export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): ServiceOptions {
  const points = int(env.AI_CHAT_RATE_LIMIT);
  return {
    dataDir: env.AI_CHAT_DATA_DIR || undefined,
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    apiKey: env.AI_CHAT_API_KEY || undefined,
    // An unknown level (e.g. "warn") would silence nothing and log debug lines: use the default.
    logLevel: LOG_LEVELS.find((level) => level === env.AI_CHAT_LOG_LEVEL),
    rateLimit: points ? { points, durationSeconds: int(env.AI_CHAT_RATE_WINDOW) ?? 60 } : undefined,
    maxBodyBytes: int(env.AI_CHAT_MAX_BODY_BYTES),
    corsOrigins: list(env.AI_CHAT_CORS_ORIGINS),
    trustedProxies: int(env.AI_CHAT_TRUSTED_PROXIES),
    publicUrls: list(env.AI_CHAT_PUBLIC_URL),
    dashboard: { signup: signupPolicyFromEnv(env.AI_CHAT_SIGNUP) },
    imports: importOptionsFromEnv(env),
    channels: channelOptionsFromEnv(env),
    webhooks: webhookOptionsFromEnv(env),
    maxAttachmentBytes: int(env.AI_CHAT_MAX_ATTACHMENT_BYTES),
    attachmentQuotas: {
      pendingBytesPerVisitor: int(env.AI_CHAT_UPLOAD_QUOTA_VISITOR_BYTES),
      pendingBytesPerIp: int(env.AI_CHAT_UPLOAD_QUOTA_IP_BYTES),
      pendingBytesPerBot: int(env.AI_CHAT_UPLOAD_QUOTA_BOT_BYTES),
      storageBytesPerAccount: int(env.AI_CHAT_STORAGE_QUOTA_BYTES),
      pendingRetentionSeconds: int(env.AI_CHAT_UPLOAD_RETENTION_SECONDS),
    },
    llm: env.AI_CHAT_LLM_BASE_URL
      ? {
          baseUrl: env.AI_CHAT_LLM_BASE_URL,
          apiKey: env.AI_CHAT_LLM_API_KEY || undefined,
          model: env.AI_CHAT_LLM_MODEL || undefined,
          timeoutMs: int(env.AI_CHAT_LLM_TIMEOUT_MS),
          images: env.AI_CHAT_LLM_IMAGES === 'true' || env.AI_CHAT_LLM_IMAGES === '1',
        }
      : undefined,
    embeddings: embeddingsOptionsFromEnv(env),
    widgetTokens: { secret: env.AI_CHAT_WIDGET_TOKEN_SECRET || undefined },
    presence: { awayAfterMinutes: int(env.AI_CHAT_PRESENCE_AWAY_MINUTES) },
    waitingEmail: { smtpUrl: env.AI_CHAT_SMTP_URL || undefined, from: env.AI_CHAT_SMTP_FROM || undefined, afterMinutes: int(env.AI_CHAT_WAITING_EMAIL_MINUTES) },
  };
}

export function resolveConfig(options: ServiceOptions): ServiceConfig {
  return {
    dataDir: options.dataDir ?? './.data',
    databaseUrl: options.databaseUrl,
    pgliteTemplate: options.pgliteTemplate,
    redisUrl: options.redisUrl,
    apiKey: options.apiKey,
    seed: options.seed ?? true,
    logLevel: options.logLevel ?? 'info',
    rateLimit: options.rateLimit ?? { points: 120, durationSeconds: 60 },
    maxBodyBytes: options.maxBodyBytes ?? 512 * 1024,
    corsOrigins: options.corsOrigins ?? [],
    trustedProxies: options.trustedProxies ?? 0,
    // Checked here: a mistyped AI_CHAT_PUBLIC_URL stops the start instead of refusing every request.
    publicUrls: (options.publicUrls ?? []).filter((url) => publicHost(url)),
    hostNames: options.hostNames ?? [],
    llm: options.llm,
    embeddings: options.embeddings,
    dashboard: options.dashboard ?? {},
    imports: resolveImportConfig(options.imports),
    maxAttachmentBytes: options.maxAttachmentBytes ?? 10 * 1024 * 1024,
    attachmentQuotas: resolveAttachmentQuotas(options.attachmentQuotas),
    channels: options.channels ?? {},
    webhooks: options.webhooks ?? {},
    widgetTokens: options.widgetTokens ?? {},
    presence: options.presence ?? {},
    keyClock: options.keyClock ?? Date.now,
    streamHeartbeatMs: options.streamHeartbeatMs ?? 15_000,
    waitingEmail: options.waitingEmail ?? {},
  };
}
