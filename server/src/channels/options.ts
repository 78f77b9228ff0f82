/** Channel options (`ServiceOptions.channels`): platform API URLs, the secrets key, and the worker's timing. */
import { parseKey } from '../db/secrets.ts';

export interface ChannelOptions {
  /** Telegram Bot API base (`AI_CHAT_TELEGRAM_API_URL`). Default `https://api.telegram.org`. */
  telegramApiUrl?: string;
  /** Graph API base (`AI_CHAT_WHATSAPP_API_URL`). Default `https://graph.facebook.com`. */
  whatsappApiUrl?: string;
  /** Graph API version in the path (`AI_CHAT_WHATSAPP_API_VERSION`). Default `v19.0`. */
  whatsappApiVersion?: string;
  /** Slack Web API base (`AI_CHAT_SLACK_API_URL`). Default `https://slack.com/api`. */
  slackApiUrl?: string;
  /** 32 bytes in base64 (`AI_CHAT_SECRETS_KEY`): seals channel credentials. Without it none can be saved. */
  secretsKey?: string;
  /** Earlier keys, still opening what they sealed until it is sealed again (`AI_CHAT_SECRETS_PREVIOUS_KEYS`, comma-separated). */
  previousSecretsKeys?: string[];
  /** Webhook deliveries one channel may make per minute (`AI_CHAT_CHANNEL_WEBHOOK_RATE`). Default 6000. */
  webhookRatePerMinute?: number;
  /** Largest webhook body in bytes. Default 256 KiB. */
  maxWebhookBytes?: number;
  /** A platform request's time limit. Default 10 s. */
  requestTimeoutMs?: number;
  /** How often the worker looks for work other instances stored or retries that came due. Default 1 s. */
  pollMs?: number;
  /**
   * Messages one instance answers at once, each of another chat (`AI_CHAT_CHANNEL_CONCURRENCY`).
   * Default 4: the built-in NLU's turns are CPU work, and more of them at once on two cores only make
   * the webhooks' acknowledgements wait. Raise it when an LLM answers: its turns mostly wait on the network.
   */
  concurrency?: number;
  /** The clock of retries, claims and Slack's signature timestamps (tests move it instead of waiting). Default `Date.now`. */
  now?: () => number;
}

export interface ChannelConfig {
  telegramApiUrl: string;
  whatsappApiUrl: string;
  whatsappApiVersion: string;
  slackApiUrl: string;
  secretsKey?: Buffer;
  previousSecretsKeys: Buffer[];
  webhookRatePerMinute: number;
  maxWebhookBytes: number;
  requestTimeoutMs: number;
  pollMs: number;
  concurrency: number;
  now: () => number;
}

const int = (value: string | undefined) => (value && Number.isInteger(Number(value)) && Number(value) > 0 ? Number(value) : undefined);

export function channelOptionsFromEnv(env: NodeJS.ProcessEnv): ChannelOptions {
  return {
    telegramApiUrl: env.AI_CHAT_TELEGRAM_API_URL || undefined,
    whatsappApiUrl: env.AI_CHAT_WHATSAPP_API_URL || undefined,
    whatsappApiVersion: env.AI_CHAT_WHATSAPP_API_VERSION || undefined,
    slackApiUrl: env.AI_CHAT_SLACK_API_URL || undefined,
    secretsKey: env.AI_CHAT_SECRETS_KEY || undefined,
    previousSecretsKeys: env.AI_CHAT_SECRETS_PREVIOUS_KEYS?.split(',').map((key) => key.trim()).filter(Boolean),
    webhookRatePerMinute: int(env.AI_CHAT_CHANNEL_WEBHOOK_RATE),
    concurrency: int(env.AI_CHAT_CHANNEL_CONCURRENCY),
  };
}

/** Checked at start: a mistyped key stops the service instead of refusing every save. */
export function resolveChannelConfig(options: ChannelOptions = {}): ChannelConfig {
  const trim = (url: string) => url.replace(/\/+$/, '');
  return {
    telegramApiUrl: trim(options.telegramApiUrl ?? 'https://api.telegram.org'),
    whatsappApiUrl: trim(options.whatsappApiUrl ?? 'https://graph.facebook.com'),
    whatsappApiVersion: options.whatsappApiVersion ?? 'v19.0',
    slackApiUrl: trim(options.slackApiUrl ?? 'https://slack.com/api'),
    secretsKey: options.secretsKey ? parseKey(options.secretsKey, 'AI_CHAT_SECRETS_KEY') : undefined,
    previousSecretsKeys: (options.previousSecretsKeys ?? []).map((key) => parseKey(key, 'AI_CHAT_SECRETS_PREVIOUS_KEYS')),
    webhookRatePerMinute: options.webhookRatePerMinute ?? 6000,
    maxWebhookBytes: options.maxWebhookBytes ?? 256 * 1024,
    requestTimeoutMs: options.requestTimeoutMs ?? 10_000,
    pollMs: options.pollMs ?? 1000,
    concurrency: options.concurrency ?? 4,
    now: options.now ?? Date.now,
  };
}
