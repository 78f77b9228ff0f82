/**
 * JSON Schemas of the channel routes: the routes validate with them and the OpenAPI document
 * embeds the same objects (components: `channelComponents`).
 */
import type { JsonSchema } from '../http/validate.ts';
import { CHANNEL_TYPES } from './adapters.ts';

const dateTime: JsonSchema = { type: ['string', 'null'], format: 'date-time' };

export const telegramChannelInputSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['bot_token'],
  properties: {
    bot_token: { type: 'string', pattern: '^[0-9]{1,20}:[A-Za-z0-9_-]{20,100}$', writeOnly: true, description: 'The token @BotFather gave the bot. Stored encrypted, never returned.' },
  },
};

export const whatsappChannelInputSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'All four on the first save; later, only what changes (the rest is kept).',
  properties: {
    phone_number_id: { type: 'string', pattern: '^[0-9]{1,30}$', description: "The business phone number's id (WhatsApp → API Setup)." },
    access_token: { type: 'string', minLength: 1, maxLength: 2048, pattern: '^[\\x21-\\x7e]+$', writeOnly: true, description: "A system user's permanent access token. Stored encrypted, never returned." },
    app_secret: { type: 'string', minLength: 8, maxLength: 128, pattern: '^[A-Za-z0-9]+$', writeOnly: true, description: "The Meta app's secret (App settings → Basic): signs every delivery. Stored encrypted, never returned." },
    verify_token: { type: 'string', minLength: 8, maxLength: 256, pattern: '^[\\x21-\\x7e]+$', writeOnly: true, description: 'Any string you choose and paste into the webhook setup in Meta\'s console. Stored encrypted, never returned.' },
  },
};

export const slackChannelInputSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'Both on the first save; later, only what changes (the other is kept).',
  properties: {
    bot_token: { type: 'string', pattern: '^xoxb-[A-Za-z0-9-]{10,250}$', writeOnly: true, description: 'The Bot User OAuth Token (OAuth & Permissions, `xoxb-…`). Stored encrypted, never returned.' },
    signing_secret: { type: 'string', pattern: '^[A-Za-z0-9]{16,128}$', writeOnly: true, description: 'The app\'s Signing Secret (Basic Information → App Credentials): signs every request Slack makes. Stored encrypted, never returned.' },
  },
};

export const channelSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'bot_id', 'type', 'webhook_url', 'settings', 'secrets_set', 'health', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string' },
    bot_id: { type: 'string' },
    type: { enum: [...CHANNEL_TYPES] },
    webhook_url: { type: 'string', description: 'Where the platform delivers messages. Telegram: registered by the service (`setWebhook`). WhatsApp: paste it into the app\'s webhook setup. Slack: paste it as the Events and the Interactivity request URL.' },
    settings: { type: 'object', additionalProperties: { type: 'string' }, description: 'What the platform needs that is no secret (WhatsApp: `phone_number_id`).' },
    secrets_set: { type: 'object', additionalProperties: { type: 'boolean' }, description: 'Which credentials are stored. The credentials themselves are never returned.' },
    health: {
      type: 'object',
      additionalProperties: false,
      required: ['last_received_at', 'last_sent_at', 'last_error', 'last_error_at', 'pending_replies'],
      properties: {
        last_received_at: dateTime,
        last_sent_at: dateTime,
        last_error: { type: ['string', 'null'] },
        last_error_at: dateTime,
        pending_replies: { type: 'integer', minimum: 0, description: 'Replies in the outbox not sent yet (queued, waiting for a retry, or being sent).' },
      },
    },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
};

export const channelListSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['items', 'platforms'],
  properties: {
    items: { type: 'array', items: channelSchema, description: 'The bot\'s channels, oldest first.' },
    platforms: { type: 'array', items: { enum: [...CHANNEL_TYPES] }, description: 'The platforms this service speaks: those a bot can be connected to.' },
  },
};

export const channelTestInputSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    chat: { type: 'string', pattern: '^[A-Za-z0-9_.:@+-]{1,64}$', description: 'Where to send it (Telegram: a chat id; WhatsApp: a phone number, digits only; Slack: a channel id). Default: the chat of the last message a person sent on the channel.' },
    text: { type: 'string', minLength: 1, maxLength: 1000, description: 'Markdown, formatted for the platform as replies are. Default: a sentence naming the bot.' },
  },
};

export const channelTestSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'chat', 'status', 'error', 'sent_at', 'created_at'],
  properties: {
    id: { type: 'string' },
    chat: { type: 'string' },
    status: { enum: ['pending', 'sending', 'sent', 'failed', 'unconfirmed'], description: '`pending` (queued, or waiting for a retry), `sending`, then `sent`, `failed` (the platform refused it) or `unconfirmed` (it may or may not have arrived).' },
    error: { type: ['string', 'null'], description: 'The platform\'s refusal, or the last try\'s error before a retry.' },
    sent_at: dateTime,
    created_at: { type: 'string', format: 'date-time' },
  },
};

export const webhookReceiptSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['received'],
  properties: { received: { type: 'integer', minimum: 0, description: 'Messages newly stored (a replayed delivery: 0).' } },
};

export const whatsappHandshakeQuerySchema: JsonSchema = {
  type: 'object',
  properties: {
    'hub.mode': { type: 'string', maxLength: 32 },
    'hub.verify_token': { type: 'string', maxLength: 256 },
    'hub.challenge': { type: 'string', maxLength: 256 },
  },
};

export const channelDeletionSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'deleted'],
  properties: { id: { type: 'string' }, deleted: { const: true } },
};

export const channelComponents = {
  TelegramChannelInput: telegramChannelInputSchema,
  WhatsAppChannelInput: whatsappChannelInputSchema,
  SlackChannelInput: slackChannelInputSchema,
  ChannelConnection: channelSchema,
  ChannelDeletion: channelDeletionSchema,
  ChannelList: channelListSchema,
  ChannelTestInput: channelTestInputSchema,
  ChannelTestMessage: channelTestSchema,
  WebhookReceipt: webhookReceiptSchema,
};
