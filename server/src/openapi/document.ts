/**
 * The hand-curated OpenAPI 3.1 document of the whole v1 surface, served at `GET /v1/openapi.json`.
 * Paths are listed here one by one; their request bodies and query parameters come from the same
 * schema objects the routes validate with (each resource's `schema.ts`), so the document cannot drift from them.
 */
import { pageQuerySchema, trainQuerySchema } from '../agents/schema.ts';
import { performanceQuerySchema, topicsQuerySchema, usageQuerySchema } from '../analytics/schema.ts';
import { intentClassificationSchema, intentQualitySchema, listBotsQuerySchema } from '../bots/schema.ts';
import { historyQuerySchema } from '../chat/schema.ts';
import { listConversationsQuerySchema } from '../conversations/schema.ts';
import { feedbackPaths } from '../feedback/openapi.ts';
import { handoffPaths } from '../handoff/openapi.ts';
import { channelPaths } from '../channels/openapi.ts';
import { attachmentPaths } from '../attachments/openapi.ts';
import { webhookPaths } from '../webhooks/openapi.ts';
import { knowledgeImportPaths } from '../knowledge/import/openapi.ts';
import { listKnowledgeQuerySchema, searchKnowledgeQuerySchema } from '../knowledge/schema.ts';
import { componentHeaders, componentResponses, componentSchemas, pageOf, ref } from './components.ts';
import { operation } from './operation.ts';

const AGENT: [string, string, string] = ['agent_id', 'agt', 'agent'];
const BOT: [string, string, string] = ['bot_id', 'bot', 'bot'];
const ENTRY: [string, string, string] = ['entry_id', 'kb', 'knowledge entry'];
const CONVERSATION: [string, string, string] = ['conversation_id', 'conv', 'conversation'];

function paths(): Record<string, Record<string, unknown>> {
  return {
    '/v1/openapi.json': {
      get: operation({
        operationId: 'getOpenApiDocument',
        tag: 'Meta',
        summary: 'This OpenAPI document',
        isPublic: true,
        success: [
          {
            status: 200,
            raw: true,
            data: { type: 'object', required: ['openapi', 'paths'], description: 'The OpenAPI 3.1 document itself (not enveloped).' },
            description: 'The document.',
          },
        ],
        errors: [],
      }),
    },
    '/v1/chat': {
      post: operation({
        operationId: 'chat',
        tag: 'Chat',
        summary: 'Send messages and receive an AI-generated response',
        description:
          'Answers as a bot (`bot_id`), an agent (`agent_id`) or the account\'s knowledge base. The reply is stored with the conversation; pass `conversation_id` to continue one.',
        body: 'ChatRequest',
        idempotent: true,
        headers: ['AiChatCaller'],
        sse: 'ChatEnvelope',
        success: [{ status: 200, data: 'ChatReply', description: 'The assistant reply (JSON), or an SSE stream of it.' }],
        errors: ['NotFound', 'ServiceUnavailable', 'UpstreamError', 'UpstreamTimeout'],
      }),
    },
    '/v1/chat/history': {
      get: operation({
        operationId: 'getChatHistory',
        tag: 'Chat',
        summary: 'Retrieve conversation history',
        description: 'Messages oldest → newest, of one conversation (`conversation_id`) or of one user (`user_id`, optionally with `bot_id`).',
        query: historyQuerySchema,
        success: [{ status: 200, data: 'HistoryPage', description: 'A page of messages.' }],
        errors: ['NotFound'],
      }),
    },
    '/v1/conversations': {
      get: operation({
        operationId: 'listConversations',
        tag: 'Chat',
        summary: 'List conversations (newest first), with filters',
        description:
          'Filters combine with AND: the bot or agent, the end user, when the conversation started (`from`/`to`), and words in its messages (`q`). Each item carries a preview of its newest message; read the whole transcript with `GET /v1/chat/history?conversation_id=`. No total is counted: page with `cursor` until `has_more` is false.',
        query: listConversationsQuerySchema,
        success: [{ status: 200, data: pageOf(ref('Conversation')), description: 'A page of conversations.' }],
        errors: ['NotFound'],
      }),
    },
    '/v1/conversations/{conversation_id}': {
      get: operation({
        operationId: 'getConversation',
        tag: 'Chat',
        summary: 'Retrieve a conversation',
        pathIds: [CONVERSATION],
        success: [{ status: 200, data: 'Conversation', description: 'The conversation.' }],
        errors: [],
      }),
      delete: operation({
        operationId: 'deleteConversation',
        tag: 'Chat',
        summary: 'Delete a conversation and its messages',
        description: 'The messages are deleted with it, and the deletion is counted in the usage report. A second delete answers 404.',
        pathIds: [CONVERSATION],
        success: [{ status: 200, data: 'Deletion', description: 'What was deleted.' }],
        errors: [],
      }),
    },
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
    '/v1/agents': {
      post: operation({
        operationId: 'createAgent',
        idempotent: true,
        tag: 'AI Agents',
        summary: 'Create an AI agent',
        body: 'CreateAgentRequest',
        success: [{ status: 201, data: 'Agent', description: 'The created agent (status `draft`).' }],
        errors: [],
      }),
      get: operation({
        operationId: 'listAgents',
        tag: 'AI Agents',
        summary: 'List AI agents (newest first)',
        query: pageQuerySchema,
        success: [{ status: 200, data: pageOf(ref('Agent')), description: 'A page of agents.' }],
        errors: [],
      }),
    },
    '/v1/agents/{agent_id}': {
      get: operation({
        operationId: 'getAgent',
        tag: 'AI Agents',
        summary: 'Retrieve an AI agent',
        pathIds: [AGENT],
        success: [{ status: 200, data: 'Agent', description: 'The agent.' }],
        errors: [],
      }),
      put: operation({
        operationId: 'updateAgent',
        tag: 'AI Agents',
        summary: 'Update an AI agent',
        pathIds: [AGENT],
        body: 'UpdateAgentRequest',
        success: [{ status: 200, data: 'Agent', description: 'The updated agent.' }],
        errors: [],
      }),
      delete: operation({
        operationId: 'deleteAgent',
        tag: 'AI Agents',
        summary: 'Delete an AI agent with its training jobs and conversations',
        description:
          'Its training jobs and every conversation started with it are deleted with it, messages included; its trained model is dropped. The deletion is counted in the usage report. A second delete answers 404.',
        pathIds: [AGENT],
        success: [{ status: 200, data: 'Deletion', description: 'What was deleted.' }],
        errors: [],
      }),
    },
    '/v1/agents/{agent_id}/quality': {
      get: operation({
        operationId: 'getAgentQuality',
        tag: 'AI Agents',
        summary: "The quality of an agent's trained model",
        description: 'As `GET /v1/bots/{bot_id}/quality`, for the model the agent serves. 409 while it has none.',
        pathIds: [AGENT],
        success: [{ status: 200, data: intentQualitySchema, description: 'The quality report.' }],
        errors: ['Conflict'],
      }),
    },
    '/v1/agents/{agent_id}/train': {
      post: operation({
        operationId: 'trainAgent',
        idempotent: true,
        tag: 'AI Agents',
        summary: 'Train an AI agent',
        description:
          'Starts a training job (examples become intents, a held-out share measures accuracy). Answers 202 with the queued job to poll; with `wait=true`, 200 with the finished job. 409 `conflict` while a job is queued or running.',
        pathIds: [AGENT],
        query: trainQuerySchema,
        body: 'TrainAgentRequest',
        bodyOptional: true,
        success: [
          { status: 202, data: 'TrainingJob', description: 'The queued job.' },
          { status: 200, data: 'TrainingJob', description: 'The finished job (`wait=true`).' },
        ],
        errors: ['Conflict', 'ServiceUnavailable'],
      }),
    },
    '/v1/agents/{agent_id}/jobs': {
      get: operation({
        operationId: 'listTrainingJobs',
        tag: 'AI Agents',
        summary: 'List an agent\'s training jobs (newest first)',
        pathIds: [AGENT],
        query: pageQuerySchema,
        success: [{ status: 200, data: pageOf(ref('TrainingJob')), description: 'A page of jobs.' }],
        errors: [],
      }),
    },
    '/v1/agents/{agent_id}/jobs/{job_id}': {
      get: operation({
        operationId: 'getTrainingJob',
        tag: 'AI Agents',
        summary: 'Retrieve a training job',
        pathIds: [AGENT, ['job_id', 'job', 'training job']],
        success: [{ status: 200, data: 'TrainingJob', description: 'The job.' }],
        errors: [],
      }),
    },
    '/v1/knowledge': {
      post: operation({
        operationId: 'createKnowledgeEntry',
        idempotent: true,
        tag: 'Knowledge Base',
        summary: 'Add information to the knowledge base',
        body: 'CreateKnowledgeRequest',
        success: [{ status: 201, data: 'KnowledgeEntry', description: 'The created entry (version 1).' }],
        errors: [],
      }),
      get: operation({
        operationId: 'listKnowledgeEntries',
        tag: 'Knowledge Base',
        summary: 'List knowledge entries (newest first)',
        query: listKnowledgeQuerySchema,
        success: [{ status: 200, data: pageOf(ref('KnowledgeEntry')), description: 'A page of entries.' }],
        errors: [],
      }),
    },
    ...knowledgeImportPaths(),
    '/v1/knowledge/search': {
      get: operation({
        operationId: 'searchKnowledge',
        tag: 'Knowledge Base',
        summary: 'Search the knowledge base',
        description: 'Ranked (BM25+), typo-tolerant, prefix-matching, stemmed per language, titles boosted. One hit per entry.',
        query: searchKnowledgeQuerySchema,
        success: [{ status: 200, data: 'KnowledgeSearchResult', description: 'The hits, best first.' }],
        errors: [],
      }),
    },
    '/v1/knowledge/{entry_id}': {
      get: operation({
        operationId: 'getKnowledgeEntry',
        tag: 'Knowledge Base',
        summary: 'Retrieve a knowledge entry',
        pathIds: [ENTRY],
        success: [{ status: 200, data: 'KnowledgeEntry', description: 'The entry.' }],
        errors: [],
      }),
      put: operation({
        operationId: 'updateKnowledgeEntry',
        tag: 'Knowledge Base',
        summary: 'Update a knowledge entry',
        description: 'Any subset of the fields; `version` increments. Search reflects the change at once.',
        pathIds: [ENTRY],
        body: 'UpdateKnowledgeRequest',
        success: [{ status: 200, data: 'KnowledgeEntry', description: 'The updated entry.' }],
        errors: [],
      }),
      delete: operation({
        operationId: 'deleteKnowledgeEntry',
        tag: 'Knowledge Base',
        summary: 'Delete a knowledge entry',
        description:
          'Search and grounded answers stop finding it at once. Stored messages that cited it keep their citation. The deletion is counted in the usage report. A second delete answers 404.',
        pathIds: [ENTRY],
        success: [{ status: 200, data: 'Deletion', description: 'What was deleted.' }],
        errors: [],
      }),
    },
    '/v1/analytics/usage': {
      get: operation({
        operationId: 'getUsage',
        tag: 'Analytics',
        summary: 'API usage statistics',
        query: usageQuerySchema,
        success: [{ status: 200, data: 'UsageReport', description: 'Totals, a series with every bucket, and per-endpoint counts.' }],
        errors: [],
      }),
    },
    '/v1/analytics/performance': {
      get: operation({
        operationId: 'getPerformance',
        tag: 'Analytics',
        summary: 'Reply performance of agents and bots',
        query: performanceQuerySchema,
        success: [{ status: 200, data: 'PerformanceReport', description: 'Latency percentiles, fallback, confidence and resolution.' }],
        errors: ['NotFound'],
      }),
    },
    '/v1/analytics/topics': {
      get: operation({
        operationId: 'getTopics',
        tag: 'Analytics',
        summary: 'Top intents and top unanswered questions',
        query: topicsQuerySchema,
        success: [{ status: 200, data: 'TopicsReport', description: 'The most frequent intents, and the most frequent questions that got a fallback reply.' }],
        errors: ['NotFound'],
      }),
    },
    ...feedbackPaths(),
    ...handoffPaths(),
    ...channelPaths(),
    ...attachmentPaths(),
    ...webhookPaths(),
  };
}

/** Builds the document (call once; it is static for the process). */
export function buildOpenApiDocument(serverUrl = '/'): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'ai-chat-widget service',
      version: '1.0.0',
      summary: 'Bots, chat, AI agents, knowledge base and analytics.',
      description: [
        'Every answer is an envelope: `{success: true, data, meta}` or `{success: false, error: {code, message, param?, details?, request_id?}}`.',
        'Authenticate with `Authorization: Bearer <API key>`. Every answer carries `X-Request-Id` and the `X-RateLimit-*` headers; 429 adds `Retry-After`.',
        'API keys are created, listed and revoked in the dashboard (docs/dashboard-api.md). A read-only key may only send GET and HEAD requests: anything else answers 403 `insufficient_scope`. A revoked or expired key answers 401 `invalid_api_key` within 1 second on every instance.',
        'A known path used with another method answers 405 `method_not_allowed` with an `Allow` header; an unknown path 404 `route_not_found`; another version 404 `unsupported_version`.',
        'Lists are cursor-paginated: pass `next_cursor` back as `cursor`.',
      ].join('\n\n'),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    tags: ['Chat', 'Attachments', 'Bots', 'Channels', 'Webhooks', 'AI Agents', 'Knowledge Base', 'Analytics', 'Meta'].map((name) => ({ name })),
    paths: paths(),
    components: {
      schemas: componentSchemas,
      headers: componentHeaders,
      responses: componentResponses,
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Makes a retried POST safe: the first answer is stored for 24 h and replayed for the same key and body.',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
        },
        AiChatCaller: {
          name: 'AI-Chat-Caller',
          in: 'header',
          required: false,
          description:
            '`widget`: the token proxy sets it on every call it forwards for a widget visitor. Chat without `bot_id` or ' +
            '`agent_id` then uses no knowledge (a key holder\'s own calls use every entry); with one, its scope applies as always. ' +
            'On any route it moves the call to the account\'s visitors\' rate budget (the plan\'s size, apart from its keys\'), and ' +
            '`AI-Chat-Visitor` (1–128 characters of `[A-Za-z0-9._:@-]`, the visitor\'s user id) to that visitor\'s quarter of it.',
          schema: { enum: ['widget'] },
        },
        LastEventId: {
          name: 'Last-Event-ID',
          in: 'header',
          required: false,
          description: 'Resume an events stream after this event id (sent by SSE clients on reconnect): exactly the later events follow.',
          schema: { type: 'string', pattern: '^[0-9]{1,19}$' },
        },
      },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'Your API key: `Authorization: Bearer <key>`.' },
      },
    },
  };
}
