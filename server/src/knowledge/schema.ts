/**
 * JSON Schemas (2020-12) of the knowledge endpoints' inputs. The routes validate with them and the
 * OpenAPI document embeds the same objects, so validation and documentation cannot drift.
 */
import { schemas, type JsonSchema } from '../http/validate.ts';
import { DEFAULT_MIN_RELEVANCE } from './relevance.ts';

const tag: JsonSchema = { type: 'string', minLength: 1, maxLength: 50 };

const fields = {
  title: { type: 'string', minLength: 1, maxLength: 200, description: 'Required, 1–200 characters.' },
  content: { type: 'string', minLength: 1, maxLength: 100_000, description: 'Markdown or plain text, 1–100,000 characters.' },
  tags: { type: 'array', maxItems: 20, items: tag, description: 'Up to 20 tags of 1–50 characters.' },
  language: { ...schemas.language, description: 'Language of the text (its stemmer); default `en`.' },
  source: { type: 'string', maxLength: 2000, description: 'Where the text came from: a URL or a label.' },
} satisfies Record<string, JsonSchema>;

/** Which entries may ground an agent's or a bot's answers (bots also allow `null`: none). */
export const knowledgeScopeSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    tags: {
      type: 'array',
      maxItems: 20,
      items: tag,
      description: 'Only entries with one of these tags ground the answers; empty: all entries.',
    },
    min_relevance: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      description:
        'The least `relevance` (0–1, calibrated like a probability) a passage needs to ground an answer; below it the reply is the fallback. ' +
        `Default ${DEFAULT_MIN_RELEVANCE}; 0 answers from the best-ranked passage whatever the question.`,
    },
  },
};

export const createKnowledgeSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'content'],
  properties: fields,
};

export const updateKnowledgeSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  description: 'Any subset of the fields (at least one); the entry\'s `version` increments.',
  properties: fields,
};

export const listKnowledgeQuerySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { limit: schemas.limit(200, 50), cursor: schemas.cursor },
};

export const searchKnowledgeQuerySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['q'],
  properties: {
    q: { type: 'string', minLength: 1, maxLength: 500, description: 'The query; typos and word forms are tolerated.' },
    limit: schemas.limit(50, 10),
    tags: {
      type: 'string',
      maxLength: 1100,
      pattern: '^[^,]{1,50}(,[^,]{1,50}){0,19}$',
      description: 'Comma-separated; only entries with at least one of these tags.',
    },
    language: schemas.language,
  },
};
