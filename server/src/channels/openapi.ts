/** The channel endpoints in the OpenAPI document (document.ts spreads them into its paths; components.ts the schemas). */
import { operation, PATH_IDS } from '../openapi/operation.ts';
import { whatsappHandshakeQuerySchema } from './schema.ts';

const BOT = PATH_IDS.bot;
const CHANNEL: [string, string, string] = ['channel_id', 'chn', 'channel'];
const NAMES = { telegram: 'Telegram', whatsapp: 'WhatsApp' } as const;
const INPUTS = { telegram: 'TelegramChannelInput', whatsapp: 'WhatsAppChannelInput' } as const;
const CONNECT = {
  telegram: 'The service registers its webhook with Telegram (`setWebhook`, with a secret token it generates) before it stores the token: a token Telegram refuses answers 502 `upstream_error` and nothing is stored.',
  whatsapp: 'Paste the answer\'s `webhook_url` and your `verify_token` into the app\'s webhook setup in Meta\'s console, and subscribe it to `messages` (docs/channels.md).',
};

function botChannelPath(type: 'telegram' | 'whatsapp'): Record<string, unknown> {
  const name = NAMES[type];
  return {
    get: operation({
      operationId: `get${name}Channel`,
      tag: 'Channels',
      summary: `A bot's ${name} channel: webhook URL, settings, which credentials are set, health`,
      pathIds: [BOT],
      success: [{ status: 200, data: 'ChannelConnection', description: 'The channel; credentials are never returned.' }],
      errors: ['NotFound', 'ServiceUnavailable'],
    }),
    put: operation({
      operationId: `put${name}Channel`,
      tag: 'Channels',
      summary: `Connect a bot to ${name}, or change its credentials`,
      description: `Credentials are stored encrypted (AES-256-GCM, \`AI_CHAT_SECRETS_KEY\`; 503 \`secrets_key_missing\` without it) and never returned. ${CONNECT[type]}`,
      pathIds: [BOT],
      body: INPUTS[type],
      success: [{ status: 200, data: 'ChannelConnection', description: 'The stored channel.' }],
      errors: ['NotFound', 'ServiceUnavailable', 'UpstreamError'],
    }),
    delete: operation({
      operationId: `delete${name}Channel`,
      tag: 'Channels',
      summary: `Disconnect a bot from ${name}`,
      description: type === 'telegram' ? 'The webhook is deleted at Telegram first (best effort), then the channel and its queued messages.' : 'The channel and its queued messages are deleted; remove the webhook in Meta\'s console.',
      pathIds: [BOT],
      success: [{ status: 200, data: 'ChannelDeletion', description: 'Deleted.' }],
      errors: ['NotFound'],
    }),
  };
}

/** The operation's success answers `text/plain` (the handshake's challenge), not JSON. */
function plainText(op: Record<string, unknown>): Record<string, unknown> {
  const ok = (op.responses as Record<string, { content?: unknown }>)['200']!;
  ok.content = { 'text/plain': { schema: { type: 'string', description: 'The `hub.challenge` sent, as text.' } } };
  return op;
}

const webhookDescription = (name: string, check: string) =>
  `Called by ${name}, not by you: public, outside the account's API budget (a budget per channel instead), bodies up to 256 KiB. ${check} The delivery is stored before the answer, so a replay is one turn; the bot answers from a queue.`;

export function channelPaths(): Record<string, Record<string, unknown>> {
  return {
    '/v1/bots/{bot_id}/channels/telegram': botChannelPath('telegram'),
    '/v1/bots/{bot_id}/channels/whatsapp': botChannelPath('whatsapp'),
    '/v1/channels/telegram/{channel_id}': {
      post: operation({
        operationId: 'receiveTelegramUpdate',
        tag: 'Channels',
        summary: 'Telegram\'s webhook: one update',
        description: webhookDescription('Telegram', '`X-Telegram-Bot-Api-Secret-Token` must be the channel\'s secret token (401 `invalid_signature`); `update_id` is the delivery\'s id.'),
        isPublic: true,
        pathIds: [CHANNEL],
        success: [{ status: 200, data: 'WebhookReceipt', description: 'Stored.' }],
        errors: ['Unauthorized', 'BadRequest', 'PayloadTooLarge', 'ServiceUnavailable'],
      }),
    },
    '/v1/channels/whatsapp/{channel_id}': {
      get: plainText(operation({
        operationId: 'verifyWhatsAppWebhook',
        tag: 'Channels',
        summary: 'WhatsApp\'s webhook verification',
        description: 'Meta calls it once when the webhook is set up: with `hub.mode=subscribe` and the channel\'s `hub.verify_token` the answer is `hub.challenge` as plain text; otherwise 403.',
        isPublic: true,
        pathIds: [CHANNEL],
        query: whatsappHandshakeQuerySchema,
        success: [{ status: 200, raw: true, data: { type: 'string' }, description: 'The challenge.' }],
        errors: ['Forbidden', 'ServiceUnavailable'],
      })),
      post: operation({
        operationId: 'receiveWhatsAppDelivery',
        tag: 'Channels',
        summary: 'WhatsApp\'s webhook: messages and statuses',
        description: webhookDescription('WhatsApp', '`X-Hub-Signature-256` must be the HMAC-SHA256 of the raw body under the channel\'s app secret (401 `invalid_signature`), checked before the body is parsed.'),
        isPublic: true,
        pathIds: [CHANNEL],
        success: [{ status: 200, data: 'WebhookReceipt', description: 'Stored.' }],
        errors: ['Unauthorized', 'BadRequest', 'PayloadTooLarge', 'ServiceUnavailable'],
      }),
    },
  };
}
