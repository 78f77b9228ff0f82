/**
 * JSON Schemas of the canned reply routes: the routes validate with them and the OpenAPI document
 * embeds the same objects (components: `cannedReplyComponents`).
 */
import { schemas, type JsonSchema } from '../http/validate.ts';

export const MAX_CANNED_REPLY_TEXT = 4000;
/** Replies an account may keep: the inbox's `/` list loads them all. */
export const MAX_CANNED_REPLIES = 500;

const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
const shortcut: JsonSchema = { type: 'string', pattern: '^[a-z0-9_-]{1,32}$', description: 'What an operator types after `/` to find it: 1–32 of `a-z`, `0-9`, `-`, `_`; unique in the account.' };
const text: JsonSchema = { type: 'string', minLength: 1, maxLength: MAX_CANNED_REPLY_TEXT, description: 'The text inserted into the reply.' };

export const cannedReplyInputSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['shortcut', 'text'],
  properties: { shortcut, text },
};

export const cannedReplyUpdateSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { shortcut, text },
};

export const cannedReplySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'shortcut', 'text', 'created_at', 'updated_at'],
  properties: { id: schemas.id('cnr'), shortcut: { type: 'string' }, text: { type: 'string' }, created_at: dateTime, updated_at: dateTime },
};

export const cannedReplyDeletionSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'deleted'],
  properties: { id: schemas.id('cnr'), deleted: { const: true } },
};

export const cannedReplyComponents = {
  CannedReplyInput: cannedReplyInputSchema,
  CannedReplyUpdate: cannedReplyUpdateSchema,
  CannedReply: cannedReplySchema,
  CannedReplyDeletion: cannedReplyDeletionSchema,
};
