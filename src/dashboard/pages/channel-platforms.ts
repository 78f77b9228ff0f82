/**
 * What the Channels page knows of each messaging platform, in one table keyed by platform: its
 * name, the fields connecting it takes (the service's `PUT …/channels/{platform}` body), where its
 * steps are documented, and whether the service registers its webhook through an API. The page
 * offers the platforms the service lists (`GET …/channels` → `platforms`) that have an entry here,
 * so a platform appears once both the service speaks it and it is described below. Its texts are
 * catalog keys (i18n/en/admin.ts): the page reads them in the dashboard's language.
 */
import type { ChannelPlatform } from '../../client/index.js';
import type { MessageKey } from '../i18n/catalog.js';

export interface PlatformField {
  /** The body field's name, as the service takes it. */
  name: string;
  label: MessageKey;
  hint: MessageKey;
  /** Write-only: stored encrypted, never shown again; editing means typing a new one. */
  secret: boolean;
}

export interface PlatformInfo {
  label: string;
  fields: readonly PlatformField[];
  /** The steps on the platform's side, a file of the repository's `docs/`. */
  docs: string;
  /** What to do with the webhook URL once connected. */
  webhookStep: MessageKey;
  /** The service registers (and removes) the webhook through the platform's API. */
  webhookApi: boolean;
  /** What a test message's recipient is on this platform. */
  chatHint: MessageKey;
}

export const PLATFORMS: Readonly<Record<ChannelPlatform, PlatformInfo>> = {
  telegram: {
    label: 'Telegram',
    fields: [{ name: 'bot_token', label: 'ch.botToken', hint: 'ch.tgTokenHint', secret: true }],
    docs: 'docs/channels/telegram.md',
    webhookStep: 'ch.tgWebhook',
    webhookApi: true,
    chatHint: 'ch.tgChat',
  },
  whatsapp: {
    label: 'WhatsApp',
    fields: [
      { name: 'phone_number_id', label: 'ch.phoneId', hint: 'ch.phoneIdHint', secret: false },
      { name: 'access_token', label: 'ch.accessToken', hint: 'ch.accessTokenHint', secret: true },
      { name: 'app_secret', label: 'ch.appSecret', hint: 'ch.appSecretHint', secret: true },
      { name: 'verify_token', label: 'ch.verifyToken', hint: 'ch.verifyTokenHint', secret: true },
    ],
    docs: 'docs/channels/whatsapp.md',
    webhookStep: 'ch.waWebhook',
    webhookApi: false,
    chatHint: 'ch.waChat',
  },
  slack: {
    label: 'Slack',
    fields: [
      { name: 'bot_token', label: 'ch.botToken', hint: 'ch.slackTokenHint', secret: true },
      { name: 'signing_secret', label: 'ch.signingSecret', hint: 'ch.signingSecretHint', secret: true },
    ],
    docs: 'docs/channels/slack.md',
    webhookStep: 'ch.slackWebhook',
    webhookApi: false,
    chatHint: 'ch.slackChat',
  },
};

/** The platforms to offer: those the service speaks that this table describes, in the service's order. */
export function offeredPlatforms(served: readonly string[]): ChannelPlatform[] {
  return served.filter((platform): platform is ChannelPlatform => Object.hasOwn(PLATFORMS, platform));
}
