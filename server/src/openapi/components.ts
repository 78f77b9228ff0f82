/**
 * `components` of the OpenAPI document: resource schemas, envelopes, the error envelope with every
 * error code, reusable headers, error responses and the bearer scheme. Request and resource schemas
 * that a resource's `schema.ts` exports are used as they are, so validation and docs cannot drift.
 */
import { ERROR_STATUS } from '../../../src/client/types.ts';
import {
  agentExampleSchema,
  agentSchema,
  createAgentSchema,
  knowledgeScopeSchema,
  modelSettingsSchema,
  trainAgentSchema,
  trainingJobSchema,
  trainingMetricsSchema,
  updateAgentSchema,
} from '../agents/schema.ts';
import { performanceReportSchema, topicsReportSchema, usageReportSchema } from '../analytics/schema.ts';
import {
  botMessageSchema,
  botSchema,
  channelSchema,
  classifyRequestSchema,
  createBotSchema,
  entityDefinitionSchema,
  intentSchema,
  trainingSchema,
  updateBotSchema,
} from '../bots/schema.ts';
import { chatMessageSchema, chatRequestSchema } from '../chat/schema.ts';
import { conversationLabelsSchema, conversationSchema, deletionSchema, labelsUpdateSchema } from '../conversations/schema.ts';
import { feedbackComponents } from '../feedback/schema.ts';
import { handoffComponents } from '../handoff/schema.ts';
import { csatComponents } from '../csat/schema.ts';
import { channelComponents } from '../channels/schema.ts';
import { webhookComponents } from '../webhooks/schema.ts';
import { cannedReplyComponents } from '../canned-replies/schema.ts';
import { attachmentComponents } from '../attachments/schema.ts';
import { widgetTokenComponents } from '../widget-tokens/schema.ts';
import { knowledgeImportComponents } from '../knowledge/import/schema.ts';
import type { JsonSchema } from '../http/validate.ts';
import { schemas } from '../http/validate.ts';
import { createKnowledgeSchema, updateKnowledgeSchema } from '../knowledge/schema.ts';

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

const dateTime: JsonSchema = { type: 'string', format: 'date-time' };

/** `{success: true, data, meta}` around `data`. */
export function envelopeOf(data: JsonSchema): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['success', 'data', 'meta'],
    properties: { success: { const: true }, data, meta: ref('Meta') },
  };
}

/** A cursor page of `item`. */
export function pageOf(item: JsonSchema): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['items', 'next_cursor', 'has_more'],
    properties: {
      items: { type: 'array', items: item },
      next_cursor: { type: ['string', 'null'], description: 'Pass back as `cursor` for the next page.' },
      has_more: { type: 'boolean' },
    },
  };
}

const citation: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['entry_id', 'title', 'snippet', 'score'],
  properties: {
    entry_id: schemas.id('kb'),
    title: { type: 'string' },
    snippet: { type: 'string' },
    score: { type: 'number' },
    source: { type: ['string', 'null'] },
    url: {
      type: ['string', 'null'],
      description: 'The page of the cited text (`http:`/`https:` only): an imported entry\'s page, or a typed entry\'s `source` when that is such a URL; `null`: nothing to link.',
    },
    heading_path: { type: 'array', items: { type: 'string' }, description: 'The headings above the cited text in its document, outermost first.' },
  },
};

const replySource: JsonSchema = { enum: ['intent', 'knowledge', 'fallback', 'llm'], description: 'Where the reply came from.' };

const message: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'conversation_id', 'role', 'content', 'created_at'],
  properties: {
    id: schemas.id('msg'),
    conversation_id: schemas.id('conv'),
    role: { enum: ['system', 'user', 'assistant', 'operator'], description: '`operator`: written by a person in the dashboard inbox (human handoff; see `author`).' },
    content: { type: 'string' },
    created_at: dateTime,
    source: replySource,
    intent: { type: ['string', 'null'] },
    confidence: { type: ['number', 'null'] },
    citations: { type: 'array', items: ref('Citation') },
    suggestions: { type: 'array', items: { type: 'string' } },
    stopped: {
      const: true,
      description: 'On an assistant reply the user stopped while it streamed (the client closed the stream): `content` is the text sent before the stop. Absent otherwise.',
    },
    author: { ...ref('OperatorProfile'), description: 'On an operator message: who wrote it, as the visitor saw it.' },
    attachments: { type: 'array', items: ref('Attachment'), description: 'Files sent with the message (`GET /v1/attachments/{id}`); absent when none.' },
  },
  description: '`source`, `intent`, `confidence`, `citations` and `suggestions` are present on assistant messages; `stopped` on a reply the user stopped; `author` on operator messages; `attachments` on messages that sent files.',
};

const entity: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['entity', 'value', 'text'],
  properties: { entity: { type: 'string' }, value: { type: 'string' }, text: { type: 'string' } },
};

const chatReply: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['conversation_id', 'message', 'source', 'intent', 'confidence', 'citations', 'suggestions'],
  properties: {
    conversation_id: schemas.id('conv'),
    message: ref('Message'),
    source: replySource,
    intent: { type: ['string', 'null'] },
    confidence: { type: ['number', 'null'] },
    citations: { type: 'array', items: ref('Citation') },
    suggestions: { type: 'array', items: { type: 'string' } },
    handoff: {
      ...ref('HandoffState'),
      description: 'Human handoff: the conversation\'s handoff state after this turn, present when the bot has handoff on (or the turn met a person). With `held: true` a person is involved and the bot did not answer: `message` is the stored visitor message; replies arrive on `GET /v1/conversations/{id}/events`.',
    },
  },
};

const botReply: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['conversation_id', 'user_message', 'message', 'intent', 'confidence', 'entities', 'suggestions', 'fallback'],
  properties: {
    conversation_id: schemas.id('conv'),
    user_message: ref('Message'),
    message: ref('Message'),
    intent: { type: ['string', 'null'] },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
    entities: { type: 'array', items: ref('Entity') },
    suggestions: { type: 'array', items: { type: 'string' } },
    fallback: { type: 'boolean', description: 'True when no intent reached the confidence threshold.' },
    handoff: {
      ...ref('HandoffState'),
      description: 'Human handoff: the conversation\'s handoff state after this turn, present when the bot has handoff on (or the turn met a person). With `held: true` a person is involved and the bot did not answer: `message` is the stored visitor message; replies arrive on `GET /v1/conversations/{id}/events`.',
    },
  },
};

const knowledgeEntry: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'title', 'content', 'tags', 'language', 'source', 'url', 'heading_path', 'import_id', 'version', 'created_at', 'updated_at'],
  properties: {
    id: schemas.id('kb'),
    title: { type: 'string' },
    content: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } },
    language: { type: 'string' },
    source: { type: ['string', 'null'] },
    url: { type: ['string', 'null'], description: 'The page an imported entry came from; `null` for typed entries.' },
    heading_path: { type: 'array', items: { type: 'string' }, description: 'The headings above an imported entry\'s text, outermost first; `[]` for typed entries.' },
    import_id: { oneOf: [schemas.id('kbi'), { type: 'null' }], description: 'The import that wrote the entry (its re-sync updates or deletes it); `null` for typed entries.' },
    version: { type: 'integer', minimum: 1, description: 'Starts at 1; every update increments it.' },
    created_at: dateTime,
    updated_at: dateTime,
  },
};

const knowledgeHit: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['entry_id', 'title', 'snippet', 'score', 'relevance', 'tags', 'source', 'url', 'heading_path'],
  properties: {
    entry_id: schemas.id('kb'),
    title: { type: 'string' },
    snippet: { type: 'string', description: 'From the best-matching ~800-character passage of the entry.' },
    score: { type: 'number', description: 'BM25+ relevance of that passage; higher is better (unbounded).' },
    relevance: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      description: 'How likely the entry answers the query, calibrated like a probability; chat answers only from hits reaching `knowledge.min_relevance`.',
    },
    tags: { type: 'array', items: { type: 'string' } },
    source: { type: ['string', 'null'] },
    url: { type: ['string', 'null'], description: 'The page to link (see `Citation.url`).' },
    heading_path: { type: 'array', items: { type: 'string' } },
  },
};

const meta: JsonSchema = {
  type: 'object',
  required: ['request_id', 'latency_ms'],
  properties: {
    request_id: { type: 'string', description: 'Also sent as `X-Request-Id`; quote it in bug reports.' },
    latency_ms: { type: 'number', minimum: 0 },
  },
  additionalProperties: true,
};

const errorEnvelope: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'error'],
  properties: {
    success: { const: false },
    error: {
      type: 'object',
      additionalProperties: false,
      required: ['code', 'message'],
      properties: {
        code: ref('ErrorCode'),
        message: { type: 'string', description: 'Safe to show to a developer; never a stack trace or a secret.' },
        param: { type: 'string', description: 'The offending body field, query parameter or path id.' },
        details: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['path', 'message'],
            properties: { path: { type: 'string', description: 'JSON pointer of the offending value.' }, message: { type: 'string' } },
          },
        },
        request_id: { type: 'string' },
      },
    },
  },
};

const errorCodeDescription = Object.entries(ERROR_STATUS)
  .map(([code, status]) => `\`${code}\` ${status}`)
  .join(', ');

export const componentSchemas: Record<string, JsonSchema> = {
  Meta: meta,
  ErrorCode: { enum: Object.keys(ERROR_STATUS), description: `Each code has one HTTP status: ${errorCodeDescription}.` },
  ErrorEnvelope: errorEnvelope,
  Citation: citation,
  Message: message,
  Entity: entity,
  ChatMessage: chatMessageSchema,
  ChatRequest: chatRequestSchema,
  ChatReply: chatReply,
  ChatEnvelope: envelopeOf(ref('ChatReply')),
  BotReplyEnvelope: envelopeOf(ref('BotReply')),
  ChatStreamMeta: {
    type: 'object',
    additionalProperties: false,
    required: ['request_id', 'conversation_id'],
    properties: { request_id: { type: 'string' }, conversation_id: schemas.id('conv') },
  },
  ChatStreamDelta: { type: 'object', additionalProperties: false, required: ['text'], properties: { text: { type: 'string' } } },
  HistoryPage: pageOf(ref('Message')),
  Conversation: conversationSchema,
  LabelsUpdate: labelsUpdateSchema,
  ConversationLabels: conversationLabelsSchema,
  Deletion: deletionSchema,
  Intent: intentSchema,
  EntityDefinition: entityDefinitionSchema,
  TrainingData: trainingSchema,
  Channel: channelSchema,
  CreateBotRequest: createBotSchema,
  UpdateBotRequest: updateBotSchema,
  Bot: botSchema,
  BotMessageRequest: botMessageSchema,
  ClassifyRequest: classifyRequestSchema,
  BotReply: botReply,
  ModelSettings: modelSettingsSchema,
  KnowledgeScope: knowledgeScopeSchema,
  AgentExample: agentExampleSchema,
  CreateAgentRequest: createAgentSchema,
  UpdateAgentRequest: updateAgentSchema,
  Agent: agentSchema,
  TrainAgentRequest: trainAgentSchema,
  TrainingMetrics: trainingMetricsSchema,
  TrainingJob: trainingJobSchema,
  CreateKnowledgeRequest: createKnowledgeSchema,
  UpdateKnowledgeRequest: updateKnowledgeSchema,
  KnowledgeEntry: knowledgeEntry,
  KnowledgeHit: knowledgeHit,
  KnowledgeSearchResult: {
    type: 'object',
    additionalProperties: false,
    required: ['query', 'items'],
    properties: { query: { type: 'string' }, items: { type: 'array', items: ref('KnowledgeHit') } },
  },
  UsageReport: usageReportSchema,
  PerformanceReport: performanceReportSchema,
  TopicsReport: topicsReportSchema,
  ...feedbackComponents,
  ...handoffComponents,
  ...csatComponents,
  ...channelComponents,
  ...webhookComponents,
  ...cannedReplyComponents,
  ...knowledgeImportComponents,
  ...attachmentComponents,
  ...widgetTokenComponents,
};

const integerHeader = (description: string) => ({ description, required: true, schema: { type: 'integer' } });

/** `required: true` marks headers that are always sent with the response that lists them. */
export const componentHeaders = {
  'X-Request-Id': {
    description: 'Id of this request (also `meta.request_id` / `error.request_id`).',
    required: true,
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': integerHeader('Requests allowed per window in the budget that applied (your keys\', or, with `AI-Chat-Caller: widget`, your visitors\' or this visitor\'s).'),
  'X-RateLimit-Remaining': integerHeader('Requests left in the current window.'),
  'X-RateLimit-Reset': integerHeader('When the window resets, in UTC epoch seconds.'),
  'Retry-After': integerHeader('Seconds to wait before retrying.'),
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer of an earlier request with the same `Idempotency-Key`.',
    schema: { type: 'string', enum: ['true'] },
  },
};

/** Headers on every answer under /v1 (the gate adds the rate-limit trio even to errors). */
export const commonHeaders = Object.fromEntries(
  ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'].map((h) => [h, { $ref: `#/components/headers/${h}` }]),
);

/** Reusable error responses, one per status that has codes. */
export const errorResponses: Record<
  string,
  { status: number; description: string; retryAfter?: 'always' | 'sometimes' }
> = {
  BadRequest: {
    status: 400,
    description:
      '`invalid_json` (also a body that is not UTF-8), `json_too_deep` (nested deeper than 64 levels), `invalid_cursor` (a cursor this API did not hand out), `validation_failed` or `unknown_parameter`.',
  },
  Unauthorized: { status: 401, description: '`authentication_required` or `invalid_api_key`; on channel webhooks `invalid_signature`.' },
  Forbidden: {
    status: 403,
    description: '`origin_not_allowed`: the browser origin is not in the bot\'s website channel; or `insufficient_scope`: a read-only API key on anything but GET.',
  },
  NotFound: { status: 404, description: '`resource_not_found`: no such id for this account.' },
  MethodNotAllowed: { status: 405, description: '`method_not_allowed`; the `Allow` header lists the methods.' },
  Conflict: {
    status: 409,
    description: '`conflict`, `idempotency_key_reused` or `request_in_progress`; on handoff routes `invalid_status_transition` (the conversation\'s status does not allow it) or `handoff_unavailable` (no person can be asked for now); `csat_already_given`: the conversation has its satisfaction rating already.',
  },
  PayloadTooLarge: { status: 413, description: '`payload_too_large`: the body is larger than the limit.' },
  UnsupportedMediaType: { status: 415, description: '`unsupported_media_type`: send `Content-Type: application/json`.' },
  RateLimited: { status: 429, description: '`rate_limited`; wait `Retry-After` seconds.', retryAfter: 'always' },
  InternalError: { status: 500, description: '`internal_error`; quote the request id.' },
  ServiceUnavailable: {
    status: 503,
    description: '`service_unavailable`: a needed part is not configured or not available right now (e.g. no LLM, training failed to run, shutting down); `secrets_key_missing`: channel credentials cannot be stored or read without `AI_CHAT_SECRETS_KEY`.',
  },
  UpstreamError: {
    status: 502,
    description: '`upstream_error`: the configured language model failed (`Retry-After` when it was rate limited).',
    retryAfter: 'sometimes',
  },
  UpstreamTimeout: { status: 504, description: '`upstream_timeout`: the language model did not answer in time.' },
};

export const componentResponses = Object.fromEntries(
  Object.entries(errorResponses).map(([name, r]) => [
    name,
    {
      description: r.description,
      headers: {
        ...commonHeaders,
        ...(r.retryAfter === 'always' && { 'Retry-After': { $ref: '#/components/headers/Retry-After' } }),
        ...(r.retryAfter === 'sometimes' && { 'Retry-After': { ...componentHeaders['Retry-After'], required: false } }),
      },
      content: { 'application/json': { schema: ref('ErrorEnvelope') } },
    },
  ]),
);
