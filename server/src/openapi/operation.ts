/**
 * Builds one OpenAPI operation from a compact spec: path ids, query parameters generated from the
 * route's own query schema, the JSON body, enveloped success responses (plus SSE for chat), and the
 * error responses every operation of its kind can answer (auth, validation, 404, 429, 500…).
 */
import { schemas, type JsonSchema } from '../http/validate.ts';
import { commonHeaders, envelopeOf, errorResponses, ref } from './components.ts';

export type ErrorName = keyof typeof errorResponses;

type PathId = [name: string, prefix: string, what: string];

/** The path ids of the resources (name, id prefix, what it names), one list for every resource's paths. */
export const PATH_IDS = {
  agent: ['agent_id', 'agt', 'agent'],
  bot: ['bot_id', 'bot', 'bot'],
  entry: ['entry_id', 'kb', 'knowledge entry'],
  conversation: ['conversation_id', 'conv', 'conversation'],
  cannedReply: ['canned_reply_id', 'cnr', 'canned reply'],
} satisfies Record<string, PathId>;

interface Success {
  status: number;
  /** Component name of `data`, or a schema. */
  data: string | JsonSchema;
  description: string;
  /** The body is `data` itself, not an envelope (the OpenAPI document). */
  raw?: boolean;
}

export interface OperationSpec {
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  pathIds?: PathId[];
  query?: JsonSchema;
  /** Component name of the JSON body. */
  body?: string;
  bodyOptional?: boolean;
  idempotent?: boolean;
  /** Names of header parameters in `components.parameters` the operation reads. */
  headers?: string[];
  success: Success[];
  errors: ErrorName[];
  /** No API key needed. */
  isPublic?: boolean;
  /** Also answers `text/event-stream` (the turn endpoints); the component its `done` event carries. */
  sse?: 'ChatEnvelope' | 'BotReplyEnvelope';
  /** The success answer is ONLY an SSE stream (the handoff events): its events, name → schema. */
  eventStream?: Record<string, JsonSchema>;
}

/** Query parameters from a query JSON Schema: one parameter per property. */
function queryParameters(schema: JsonSchema): Record<string, unknown>[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    ...(typeof property.description === 'string' && { description: property.description }),
    schema: property,
  }));
}

const sseDescription = (done: string) =>
  [
    'With `"stream": true` (or `Accept: text/event-stream`) the answer is a Server-Sent Events stream.',
    'Events: `meta` (ChatStreamMeta), then `delta` (ChatStreamDelta) for each piece of text, then `done` carrying the',
    `full ${done}, or \`error\` carrying an ErrorEnvelope. Lines starting with \`:\` are keep-alive comments.`,
    'Errors found before the stream starts (auth, validation, rate limit) are ordinary JSON answers with their status.',
    'Closing the stream early stops the answer: generation stops and the turn is stored with the text sent so far, its reply marked `stopped: true`.',
  ].join(' ');

export function operation(spec: OperationSpec): Record<string, unknown> {
  const parameters: unknown[] = [];
  for (const [name, prefix, what] of spec.pathIds ?? []) {
    parameters.push({ name, in: 'path', required: true, description: `Id of the ${what}.`, schema: schemas.id(prefix) });
  }
  if (spec.query) parameters.push(...queryParameters(spec.query));
  if (spec.idempotent) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  for (const name of spec.headers ?? []) parameters.push({ $ref: `#/components/parameters/${name}` });

  const responses: Record<string, unknown> = {};
  for (const success of spec.success) {
    const data = typeof success.data === 'string' ? ref(success.data) : success.data;
    const content: Record<string, unknown> = spec.eventStream
      ? { 'text/event-stream': { schema: { type: 'string', description: success.description }, 'x-sse-events': spec.eventStream } }
      : { 'application/json': { schema: success.raw ? data : envelopeOf(data) } };
    if (spec.sse) {
      content['text/event-stream'] = {
        schema: { type: 'string', description: sseDescription(spec.sse) },
        'x-sse-events': {
          meta: ref('ChatStreamMeta'),
          delta: ref('ChatStreamDelta'),
          done: ref(spec.sse),
          error: ref('ErrorEnvelope'),
        },
      };
    }
    responses[String(success.status)] = {
      description: success.description,
      headers: { ...commonHeaders, ...(spec.idempotent && { 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } }) },
      content,
    };
  }
  const errors = new Set<ErrorName>(spec.errors);
  if (!spec.isPublic) errors.add('Unauthorized');
  if (spec.body) ['BadRequest', 'PayloadTooLarge', 'UnsupportedMediaType'].forEach((e) => errors.add(e as ErrorName));
  if (spec.query) errors.add('BadRequest');
  if (spec.pathIds?.length) errors.add('NotFound');
  if (spec.idempotent) errors.add('Conflict');
  errors.add('RateLimited');
  errors.add('InternalError');
  for (const name of [...errors].sort((a, b) => errorResponses[a]!.status - errorResponses[b]!.status)) {
    responses[String(errorResponses[name]!.status)] = { $ref: `#/components/responses/${name}` };
  }

  return {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    ...(spec.description && { description: spec.description }),
    ...(spec.isPublic && { security: [] }),
    ...(parameters.length && { parameters }),
    ...(spec.body && {
      requestBody: {
        required: !spec.bodyOptional,
        content: { 'application/json': { schema: ref(spec.body) } },
      },
    }),
    responses,
  };
}
