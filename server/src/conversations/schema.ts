/**
 * JSON Schemas (2020-12) of the conversation endpoints and of the answer every DELETE gives. The
 * route validates with them and the OpenAPI document embeds the same objects.
 */
import { instant } from '../analytics/schema.ts';
import { schemas, type JsonSchema } from '../http/validate.ts';
import { MAX_LABEL_LENGTH, MAX_LABELS } from './labels.ts';

/** Characters of a message's text shown in a list. */
export const PREVIEW_LENGTH = 200;

/** `GET /v1/conversations`: newest first; every filter is optional and they combine with AND. */
export const listConversationsQuerySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    bot_id: { ...schemas.id('bot'), description: 'Only conversations with this bot.' },
    agent_id: { ...schemas.id('agt'), description: 'Only conversations with this agent.' },
    user_id: { ...schemas.userId, description: 'Only conversations of this end user.' },
    from: instant('Only conversations started at or after this ISO date or date-time'),
    to: instant('Only conversations started at or before this ISO date or date-time; a date includes that whole day'),
    q: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description:
        'Only conversations with a message containing every word of `q` (case-insensitive; a word also matches as the start of a longer word).',
    },
    label: { type: 'string', minLength: 1, maxLength: MAX_LABEL_LENGTH, description: 'Only conversations with this label (exactly as written).' },
    limit: schemas.limit(200, 50),
    cursor: schemas.cursor,
  },
};

/** A label: 1–40 characters, not only spaces (it is stored trimmed). */
export const labelSchema: JsonSchema = { type: 'string', minLength: 1, maxLength: MAX_LABEL_LENGTH, pattern: '\\S' };

/** `POST /v1/conversations/{conversation_id}/labels`. */
export const labelsUpdateSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    add: { type: 'array', maxItems: MAX_LABELS, items: labelSchema, description: `Labels to put on it (those it has stay once); at most ${MAX_LABELS} in all.` },
    remove: { type: 'array', maxItems: MAX_LABELS, items: labelSchema, description: 'Labels to take off (one it does not have is no error); applied after `add`.' },
  },
};

export const conversationLabelsSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['conversation_id', 'labels'],
  properties: { conversation_id: schemas.id('conv'), labels: { type: 'array', maxItems: MAX_LABELS, items: { type: 'string' } } },
};

const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
const nullableString: JsonSchema = { type: ['string', 'null'] };

/** The `Conversation` resource as returned. */
export const conversationSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'bot_id', 'agent_id', 'user_id', 'created_at', 'updated_at', 'labels', 'last_message'],
  properties: {
    id: schemas.id('conv'),
    bot_id: nullableString,
    agent_id: nullableString,
    user_id: nullableString,
    created_at: dateTime,
    updated_at: { ...dateTime, description: 'When the last message was added.' },
    labels: { type: 'array', items: { type: 'string' }, description: 'The labels the team put on it, in the order they were added.' },
    last_message: {
      description: 'The newest message, its text cut to the first 200 characters; null for a conversation without messages.',
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'role', 'preview', 'created_at'],
          properties: {
            id: schemas.id('msg'),
            role: { enum: ['system', 'user', 'assistant', 'operator'] },
            preview: { type: 'string', maxLength: PREVIEW_LENGTH },
            created_at: dateTime,
          },
        },
      ],
    },
  },
};

/** What every DELETE answers: the id, and what went with the object. */
export const deletionSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'deleted', 'conversations', 'messages'],
  properties: {
    id: { type: 'string' },
    deleted: { const: true },
    conversations: { type: 'integer', minimum: 0, description: 'Conversations deleted with it (1 for a conversation itself).' },
    messages: { type: 'integer', minimum: 0, description: 'Messages deleted with it.' },
  },
};
