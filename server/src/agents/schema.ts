/**
 * JSON Schemas (2020-12) of the agent endpoints: requests (validated at the edge) and resources
 * (documented in OpenAPI and checked by contract tests). Training data reuses the bots' schema.
 */
import { trainingSchema } from '../bots/schema.ts';
import { schemas, type JsonSchema } from '../http/validate.ts';
import { knowledgeScopeSchema } from '../knowledge/schema.ts';

export { knowledgeScopeSchema };

const text = (max: number): JsonSchema => ({ type: 'string', minLength: 1, maxLength: max });

export const modelSettingsSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    provider: {
      enum: ['builtin', 'openai-compatible'],
      description: '`builtin` (deterministic, grounded) or `openai-compatible` (the configured LLM). Default `builtin`.',
    },
    name: { ...text(200), description: 'Model name passed to the provider.' },
    temperature: { type: 'number', minimum: 0, maximum: 2 },
    max_tokens: { type: 'integer', minimum: 1, maximum: 32_000 },
  },
};

export const agentExampleSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['input', 'output'],
  properties: { input: text(500), output: text(4000) },
};

const agentFields = {
  name: text(100),
  description: { type: 'string', maxLength: 1000 },
  instructions: { type: 'string', maxLength: 8000, description: 'System instructions.' },
  language: schemas.language,
  model: modelSettingsSchema,
  knowledge: knowledgeScopeSchema,
  examples: {
    type: 'array',
    maxItems: 500,
    items: agentExampleSchema,
    description: 'Example exchanges; training turns them into intents (examples with the same output share one).',
  },
  training: trainingSchema,
} satisfies Record<string, JsonSchema>;

export const createAgentSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: agentFields,
};

export const updateAgentSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  description: 'Any subset of the fields. Changes take effect in answers after the next training.',
  properties: agentFields,
};

export const trainAgentSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    holdout: {
      type: 'number',
      minimum: 0,
      maximum: 0.5,
      description: 'Fraction of examples held out to measure accuracy; default 0.2.',
    },
  },
};

export const trainQuerySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    wait: { type: 'boolean', default: false, description: 'Answer 200 after the job finished instead of 202 at once.' },
  },
};

export const pageQuerySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { limit: schemas.limit(200, 50), cursor: schemas.cursor },
};

const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
const nullableDateTime: JsonSchema = { type: ['string', 'null'], format: 'date-time' };

/** The `Agent` resource as returned. */
export const agentSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id', 'name', 'description', 'instructions', 'language', 'model', 'knowledge', 'examples', 'training',
    'status', 'latest_job_id', 'created_at', 'updated_at',
  ],
  properties: {
    id: schemas.id('agt'),
    name: { type: 'string' },
    description: { type: 'string' },
    instructions: { type: 'string' },
    language: { type: 'string' },
    model: { ...modelSettingsSchema, required: ['provider'] },
    knowledge: knowledgeScopeSchema,
    examples: { type: 'array', items: agentExampleSchema },
    training: trainingSchema,
    status: { enum: ['draft', 'training', 'ready', 'failed'] },
    latest_job_id: { anyOf: [schemas.id('job'), { type: 'null' }] },
    created_at: dateTime,
    updated_at: dateTime,
  },
};

export const trainingMetricsSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['intents', 'examples', 'holdout_examples', 'holdout_accuracy', 'training_ms'],
  properties: {
    intents: { type: 'integer', minimum: 0 },
    examples: { type: 'integer', minimum: 0 },
    holdout_examples: { type: 'integer', minimum: 0 },
    holdout_accuracy: { type: ['number', 'null'], minimum: 0, maximum: 1 },
    training_ms: { type: 'number', minimum: 0 },
  },
};

/** The `TrainingJob` resource as returned. */
export const trainingJobSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'agent_id', 'status', 'metrics', 'error', 'created_at', 'started_at', 'finished_at'],
  properties: {
    id: schemas.id('job'),
    agent_id: schemas.id('agt'),
    status: { enum: ['queued', 'running', 'succeeded', 'failed'] },
    metrics: { anyOf: [trainingMetricsSchema, { type: 'null' }] },
    error: {
      anyOf: [
        {
          type: 'object',
          additionalProperties: false,
          required: ['code', 'message'],
          properties: {
            code: { type: 'string', description: '`invalid_training`, `training_timeout`, `interrupted` or `internal_error`.' },
            message: { type: 'string' },
          },
        },
        { type: 'null' },
      ],
    },
    created_at: dateTime,
    started_at: nullableDateTime,
    finished_at: nullableDateTime,
  },
};
