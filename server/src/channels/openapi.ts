/** The channel endpoints in the OpenAPI document (document.ts spreads them into its paths; components.ts the schemas). */
import { operation, PATH_IDS } from '../openapi/operation.ts';
import type { ChannelType } from './adapter.ts';
import { CHANNEL_TYPES } from './adapters.ts';
import { whatsappHandshakeQuerySchema } from './schema.ts';

const BOT = PATH_IDS.bot;
const CHANNEL: [string, string, string] = ['channel_id', 'chn', 'channel'];
const NAMES = { telegram: 'Telegram', whatsapp: 'WhatsApp', slack: 'Slack' } as const;
const INPUTS = { telegram: 'TelegramChannelInput', whatsapp: 'WhatsAppChannelInput', slack: 'SlackChannelInput' } as const;
const CONNECT: Record<ChannelType, string> = {
  telegram: 'The service registers its webhook with Telegram (`setWebhook`, with a secret token it generates) before it stores the token: a token Telegram refuses answers 502 `upstream_error` and nothing is stored.',
  whatsapp: 'Paste the answer\'s `webhook_url` and your `verify_token` into the app\'s webhook setup in Meta\'s console, and subscribe it to `messages` (docs/channels.md).',
  slack: 'Paste the answer\'s `webhook_url` as the Request URL of the app\'s Event Subscriptions (subscribed to `message.channels` and `message.im`) and of its Interactivity (docs/channels/slack.md).',
};
const DISCONNECT: Record<ChannelType, string> = {
  telegram: 'The webhook is deleted at Telegram first (best effort), then the channel and its queued messages.',
  whatsapp: 'The channel and its queued messages are deleted; remove the webhook in Meta\'s console.',
  slack: 'The channel and its queued messages are deleted; Slack\'s requests to its URL answer 404 until you remove them from the app\'s settings.',
};

function botChannelPath(type: ChannelType): Record<string, unknown> {
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
      description: DISCONNECT[type],
      pathIds: [BOT],
      success: [{ status: 200, data: 'ChannelDeletion', description: 'Deleted.' }],
      errors: ['NotFound'],
    }),
  };
}

/** The operation's success answers `text/plain` (the handshake's challenge): instead of JSON, or `also` beside it. */
function plainText(op: Record<string, unknown>, description: string, also = false): Record<string, unknown> {
  const ok = (op.responses as Record<string, { content?: Record<string, unknown> }>)['200']!;
  ok.content = { ...(also && ok.content), 'text/plain': { schema: { type: 'string', description } } };
  return op;
}

const TEST_ID: [string, string, string] = ['test_id', 'msg', 'test message'];
/** The platforms whose adapter registers the webhook through an API (routes.ts adds `/webhook` for those). */
const WEBHOOK_API = ['telegram'] as const;

/** The bot's channels at once; per platform a test message; the webhook where the platform has an API for it. */
function managementPaths(): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {
    '/v1/bots/{bot_id}/channels': {
      get: operation({
        operationId: 'listChannels',
        tag: 'Channels',
        summary: 'A bot\'s channels with their health, and the platforms this service speaks',
        pathIds: [BOT],
        success: [{ status: 200, data: 'ChannelList', description: 'The channels; credentials are never returned.' }],
        errors: ['NotFound'],
      }),
    },
  };
  for (const type of Object.keys(NAMES) as ChannelType[]) {
    const name = NAMES[type];
    paths[`/v1/bots/{bot_id}/channels/${type}/test`] = {
      post: operation({
        operationId: `send${name}TestMessage`,
        tag: 'Channels',
        summary: `Send a test message through the bot's ${name} channel`,
        description: 'Queued in the outbox as a reply is, and sent by the worker (retries included); follow it with `GET …/test/{test_id}`. Without `chat`, it goes to whoever wrote on the channel last (400 `validation_failed` on `chat` when nobody has yet).',
        pathIds: [BOT],
        body: 'ChannelTestInput',
        bodyOptional: true,
        success: [{ status: 202, data: 'ChannelTestMessage', description: 'Queued.' }],
        errors: ['NotFound', 'ServiceUnavailable'],
      }),
    };
    paths[`/v1/bots/{bot_id}/channels/${type}/test/{test_id}`] = {
      get: operation({
        operationId: `get${name}TestMessage`,
        tag: 'Channels',
        summary: `Where a test message of the bot's ${name} channel is: queued, sent, or why not`,
        pathIds: [BOT, TEST_ID],
        success: [{ status: 200, data: 'ChannelTestMessage', description: 'The test message.' }],
        errors: ['NotFound'],
      }),
    };
  }
  for (const type of WEBHOOK_API) {
    const name = NAMES[type];
    paths[`/v1/bots/{bot_id}/channels/${type}/webhook`] = {
      post: operation({
        operationId: `register${name}Webhook`,
        tag: 'Channels',
        summary: `Register the channel's webhook with ${name} again`,
        description: 'Connecting registers it already; this is for a webhook that was removed, or taken by another service with the same bot. A refusal answers 502 `upstream_error` with the platform\'s reason.',
        pathIds: [BOT],
        success: [{ status: 200, data: 'ChannelConnection', description: 'Registered.' }],
        errors: ['NotFound', 'ServiceUnavailable', 'UpstreamError'],
      }),
      delete: operation({
        operationId: `remove${name}Webhook`,
        tag: 'Channels',
        summary: `Remove the channel's webhook at ${name}, keeping the channel`,
        description: 'The platform stops delivering messages until the webhook is registered again.',
        pathIds: [BOT],
        success: [{ status: 200, data: 'ChannelConnection', description: 'Removed.' }],
        errors: ['NotFound', 'ServiceUnavailable', 'UpstreamError'],
      }),
    };
  }
  return paths;
}

const webhookDescription = (name: string, check: string) =>
  `Called by ${name}, not by you: public, outside the account's API budget (a budget per channel instead), bodies up to 256 KiB. ${check} The delivery is stored before the answer, so a replay is one turn; the bot answers from a queue.`;

export function channelPaths(): Record<string, Record<string, unknown>> {
  return {
    ...managementPaths(),
    ...Object.fromEntries(CHANNEL_TYPES.map((type) => [`/v1/bots/{bot_id}/channels/${type}`, botChannelPath(type)])),
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
      get: plainText(
        operation({
          operationId: 'verifyWhatsAppWebhook',
          tag: 'Channels',
          summary: 'WhatsApp\'s webhook verification',
          description: 'Meta calls it once when the webhook is set up: with `hub.mode=subscribe` and the channel\'s `hub.verify_token` the answer is `hub.challenge` as plain text; otherwise 403.',
          isPublic: true,
          pathIds: [CHANNEL],
          query: whatsappHandshakeQuerySchema,
          success: [{ status: 200, raw: true, data: { type: 'string' }, description: 'The challenge.' }],
          errors: ['Forbidden', 'ServiceUnavailable'],
        }),
        'The `hub.challenge` sent, as text.',
      ),
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
    '/v1/channels/slack/{channel_id}': {
      post: plainText(
        operation({
          operationId: 'receiveSlackRequest',
          tag: 'Channels',
          summary: 'Slack\'s Events and Interactivity request URL: events, button presses, the URL check',
          description: webhookDescription(
            'Slack',
            '`X-Slack-Signature` must be `v0=` and the HMAC-SHA256 of `v0:{X-Slack-Request-Timestamp}:{raw body}` under the channel\'s signing secret, with a timestamp within 5 minutes of now (401 `invalid_signature`), checked before the body is parsed. JSON bodies are events (`event_id` is the delivery\'s id, so a retry with `X-Slack-Retry-Num` stores nothing new) or the `url_verification`, answered with its `challenge` as text; a form with a `payload` field is a button press (`block_actions`).',
          ),
          isPublic: true,
          pathIds: [CHANNEL],
          success: [{ status: 200, data: 'WebhookReceipt', description: 'Stored (JSON), or the `url_verification` challenge (text).' }],
          errors: ['Unauthorized', 'BadRequest', 'PayloadTooLarge', 'ServiceUnavailable'],
        }),
        'The `challenge` of a `url_verification`, as text.',
        true,
      ),
    },
  };
}
