/** The bot endpoints on /v1 in the OpenAPI document (openapi/document.ts spreads them into its paths). */
import { pageOf, ref } from '../openapi/components.ts';
import { operation, PATH_IDS } from '../openapi/operation.ts';
import { intentClassificationSchema, intentQualitySchema, listBotsQuerySchema } from './schema.ts';

const BOT = PATH_IDS.bot;

export function botPaths(): Record<string, Record<string, unknown>> {
  return {
    '/v1/bots': {
      post: operation({
        operationId: 'createBot',
        tag: 'Bots',
        summary: 'Create a bot',
        description: 'With `training`, the bot is trained before the answer (status `ready` or `failed`).',
        body: 'CreateBotRequest',
        idempotent: true,
        success: [{ status: 201, data: 'Bot', description: 'The created bot.' }],
        errors: ['ServiceUnavailable'],
      }),
      get: operation({
        operationId: 'listBots',
        tag: 'Bots',
        summary: 'List bots (newest first)',
        query: listBotsQuerySchema,
        success: [{ status: 200, data: pageOf(ref('Bot')), description: 'A page of bots.' }],
        errors: [],
      }),
    },
    '/v1/bots/{bot_id}': {
      get: operation({
        operationId: 'getBot',
        tag: 'Bots',
        summary: 'Retrieve a bot',
        pathIds: [BOT],
        success: [{ status: 200, data: 'Bot', description: 'The bot.' }],
        errors: [],
      }),
      put: operation({
        operationId: 'updateBot',
        tag: 'Bots',
        summary: 'Update a bot',
        description: 'Any subset of the fields; new `training` retrains the bot before the answer.',
        pathIds: [BOT],
        body: 'UpdateBotRequest',
        success: [{ status: 200, data: 'Bot', description: 'The updated bot.' }],
        errors: ['ServiceUnavailable'],
      }),
      delete: operation({
        operationId: 'deleteBot',
        tag: 'Bots',
        summary: 'Delete a bot with its conversations',
        description:
          'Every conversation started with the bot is deleted with it, messages included; its trained model is dropped. The deletion is counted in the usage report. A second delete answers 404.',
        pathIds: [BOT],
        success: [{ status: 200, data: 'Deletion', description: 'What was deleted.' }],
        errors: [],
      }),
    },
    '/v1/bots/{bot_id}/quality': {
      get: operation({
        operationId: 'getBotQuality',
        tag: 'Bots',
        summary: "The quality of a bot's trained model",
        description:
          'k-fold cross-validation on the bot\'s own examples at its last training: accuracy per intent, the most confused pairs of intents, examples that look mislabelled, and the calibrated fallback threshold. 409 while the bot has no trained model.',
        pathIds: [BOT],
        success: [{ status: 200, data: intentQualitySchema, description: 'The quality report.' }],
        errors: ['Conflict'],
      }),
    },
    '/v1/bots/{bot_id}/classify': {
      post: operation({
        operationId: 'classifyBotText',
        tag: 'Bots',
        summary: "Try a question on a bot's model",
        description:
          'The three most probable intents for the text with their calibrated confidence, and whether a message with it would fall back at the threshold in force. Nothing is stored and analytics do not count it. 409 while the bot has no trained model.',
        pathIds: [BOT],
        body: 'ClassifyRequest',
        success: [{ status: 200, data: intentClassificationSchema, description: 'How the model reads the text.' }],
        errors: ['Conflict'],
      }),
    },
    '/v1/bots/{bot_id}/messages': {
      post: operation({
        operationId: 'sendBotMessage',
        tag: 'Bots',
        summary: 'Send a message to a bot and receive its reply',
        description:
          'Answered exactly as `POST /v1/chat` with this `bot_id` answers (intents, then knowledge within the bot\'s scope, then the fallback; the LLM when one is configured), in the end user\'s open conversation with the bot.',
        pathIds: [BOT],
        body: 'BotMessageRequest',
        idempotent: true,
        sse: 'BotReplyEnvelope',
        success: [{ status: 200, data: 'BotReply', description: 'The stored user message and the bot\'s reply (JSON), or an SSE stream of it.' }],
        errors: ['Forbidden', 'ServiceUnavailable', 'UpstreamError', 'UpstreamTimeout'],
      }),
    },
  };
}
