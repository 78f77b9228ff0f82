/** JSON Schemas (2020-12) of the chat endpoints; also referenced by the OpenAPI document. */
import { attachmentIdsSchema } from '../attachments/schema.ts';
import { visitorContextSchema } from '../conversations/visitor.ts';
import { schemas, type JsonSchema } from '../http/validate.ts';

export const chatMessageSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['role', 'content'],
  properties: {
    role: { enum: ['system', 'user', 'assistant'] },
    // empty only in the last message, and only when `attachments` sends a file (checked by the pipeline)
    content: { type: 'string', maxLength: 8000, description: '1–8,000 characters; the last message may be empty when `attachments` names a file.' },
  },
};

export const chatRequestSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['messages'],
  properties: {
    messages: { type: 'array', minItems: 1, maxItems: 100, items: chatMessageSchema },
    conversation_id: schemas.id('conv'),
    agent_id: { ...schemas.id('agt'), description: 'Answer as this agent; not with `bot_id`.' },
    bot_id: schemas.id('bot'),
    user_id: schemas.userId,
    stream: { type: 'boolean' },
    attachments: attachmentIdsSchema,
    visitor: visitorContextSchema,
  },
  // Send bot_id or agent_id, not both.
  dependentSchemas: { bot_id: { properties: { agent_id: false } } },
};

/** `GET /v1/chat/history`: oldest → newest; `conversation_id` or `user_id` (optionally with `bot_id`). */
export const historyQuerySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    conversation_id: schemas.id('conv'),
    user_id: schemas.userId,
    bot_id: schemas.id('bot'),
    limit: schemas.limit(200, 50),
    cursor: schemas.cursor,
  },
};
