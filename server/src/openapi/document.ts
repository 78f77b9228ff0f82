/**
 * The hand-curated OpenAPI 3.1 document of the whole v1 surface, served at `GET /v1/openapi.json`.
 * Each resource lists its paths in its own `openapi.ts`; chat, conversations and the document
 * itself are listed here; their request bodies and query parameters come from the same
 * schema objects the routes validate with (each resource's `schema.ts`), so the document cannot drift from them.
 */
import { agentPaths } from '../agents/openapi.ts';
import { analyticsPaths } from '../analytics/openapi.ts';
import { botPaths } from '../bots/openapi.ts';
import { historyQuerySchema } from '../chat/schema.ts';
import { listConversationsQuerySchema } from '../conversations/schema.ts';
import { feedbackPaths } from '../feedback/openapi.ts';
import { handoffPaths } from '../handoff/openapi.ts';
import { csatPaths } from '../csat/openapi.ts';
import { channelPaths } from '../channels/openapi.ts';
import { attachmentPaths } from '../attachments/openapi.ts';
import { webhookPaths } from '../webhooks/openapi.ts';
import { cannedReplyPaths } from '../canned-replies/openapi.ts';
import { widgetTokenPaths } from '../widget-tokens/openapi.ts';
import { knowledgePaths } from '../knowledge/openapi.ts';
import { componentHeaders, componentResponses, componentSchemas, pageOf, ref } from './components.ts';
import { operation, PATH_IDS } from './operation.ts';

const CONVERSATION = PATH_IDS.conversation;

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
          'Filters combine with AND: the bot or agent, the end user, when the conversation started (`from`/`to`), words in its messages (`q`), and a label (`label`). Each item carries a preview of its newest message; read the whole transcript with `GET /v1/chat/history?conversation_id=`. No total is counted: page with `cursor` until `has_more` is false.',
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
    '/v1/conversations/{conversation_id}/labels': {
      post: operation({
        operationId: 'updateConversationLabels',
        tag: 'Chat',
        summary: "Put labels on a conversation and take them off",
        description: 'Both at once: `add`, then `remove`. Labels are free text (1–40 characters, trimmed, exactly as written); a conversation has at most 20: more answers 400 `validation_failed`. `GET /v1/conversations?label=` lists those with one.',
        pathIds: [CONVERSATION],
        body: 'LabelsUpdate',
        success: [{ status: 200, data: 'ConversationLabels', description: 'The labels it has now.' }],
        errors: [],
      }),
    },
    ...botPaths(),
    ...agentPaths(),
    ...knowledgePaths(),
    ...analyticsPaths(),
    ...feedbackPaths(),
    ...handoffPaths(),
    ...csatPaths(),
    ...channelPaths(),
    ...attachmentPaths(),
    ...webhookPaths(),
    ...cannedReplyPaths(),
    ...widgetTokenPaths(),
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
    tags: ['Chat', 'Attachments', 'Bots', 'Channels', 'Webhooks', 'Canned replies', 'AI Agents', 'Knowledge Base', 'Analytics', 'Meta'].map((name) => ({ name })),
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
