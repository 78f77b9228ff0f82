/** The platforms the service speaks, by channel type: a new platform is one adapter here. */
import type { ChannelAdapter, ChannelType } from './adapter.ts';
import type { ChannelConfig } from './options.ts';
import { SlackAdapter } from './slack/adapter.ts';
import { TelegramAdapter } from './telegram/adapter.ts';
import { WhatsAppAdapter } from './whatsapp/adapter.ts';

export const CHANNEL_TYPES: readonly ChannelType[] = ['telegram', 'whatsapp', 'slack'];

export interface Adapters {
  telegram: TelegramAdapter;
  whatsapp: WhatsAppAdapter;
  slack: SlackAdapter;
}

export function createAdapters(config: ChannelConfig): Adapters & Record<ChannelType, ChannelAdapter> {
  return {
    telegram: new TelegramAdapter({ apiUrl: config.telegramApiUrl, timeoutMs: config.requestTimeoutMs }),
    whatsapp: new WhatsAppAdapter({ apiUrl: config.whatsappApiUrl, apiVersion: config.whatsappApiVersion, timeoutMs: config.requestTimeoutMs }),
    slack: new SlackAdapter({ apiUrl: config.slackApiUrl, timeoutMs: config.requestTimeoutMs, now: config.now }),
  };
}
