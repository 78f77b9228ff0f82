/**
 * JSON Schemas (2020-12) of attachments: a bot's settings (a field of the bot), the upload and read
 * queries, and the stored file as messages list it. The routes validate with them and the OpenAPI
 * document embeds the same objects (`attachmentComponents`).
 */
import { schemas, type JsonSchema } from '../http/validate.ts';
import { MAX_ATTACHMENTS_PER_MESSAGE } from '../../../src/client/attachment-types.ts';
import { ACCEPTED_TYPES } from './content-type.ts';

/** The most files one message can carry, whatever a bot allows. */
export const MAX_FILES_PER_MESSAGE = MAX_ATTACHMENTS_PER_MESSAGE;

const types: JsonSchema = { type: 'array', uniqueItems: true, maxItems: ACCEPTED_TYPES.length, items: { enum: [...ACCEPTED_TYPES] } };

/** `Bot.attachments` on create and update: any subset; the rest keep their value (the defaults on create). */
export const attachmentSettingsInputSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'What visitors may attach to a message; fields left out keep their value.',
  properties: {
    enabled: { type: 'boolean' },
    types,
    // the service's own limit (AI_CHAT_MAX_ATTACHMENT_BYTES) is checked by the service
    max_file_bytes: { type: 'integer', minimum: 1, maximum: 100 * 1024 * 1024 },
    max_files: { type: 'integer', minimum: 1, maximum: MAX_FILES_PER_MESSAGE },
  },
};

export const attachmentSettingsSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['enabled', 'types', 'max_file_bytes', 'max_files'],
  description: 'What visitors may attach to a message: off by default; then every accepted type, 5 MiB, 3 files.',
  properties: {
    enabled: { type: 'boolean' },
    types,
    max_file_bytes: { type: 'integer', minimum: 1 },
    max_files: { type: 'integer', minimum: 1, maximum: MAX_FILES_PER_MESSAGE },
  },
};

export const attachmentSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'filename', 'content_type', 'size', 'width', 'height'],
  properties: {
    id: schemas.id('att'),
    filename: { type: 'string', description: 'The uploader\'s name for it, cleaned: no path, no control or direction characters, at most 200 characters.' },
    content_type: { enum: [...ACCEPTED_TYPES], description: 'Judged by the bytes, never by the name or the declared type.' },
    size: { type: 'integer', minimum: 1 },
    width: { type: ['integer', 'null'], description: 'Pixels, for images.' },
    height: { type: ['integer', 'null'] },
  },
};

/** Ids of uploaded files a message carries. */
export const attachmentIdsSchema: JsonSchema = {
  type: 'array',
  uniqueItems: true,
  maxItems: MAX_FILES_PER_MESSAGE,
  items: schemas.id('att'),
  description: 'Ids of files uploaded with `POST /v1/attachments` for this bot (and user), not yet sent; at most the bot\'s `max_files`.',
};

const visitor = {
  user_id: { ...schemas.userId, description: 'The visitor: only their own files (the token proxy sets it).' },
};

export const uploadQuerySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    bot_id: { ...schemas.id('bot'), description: 'The bot whose conversation the file is for: its limits apply. This or `conversation_id`.' },
    conversation_id: { ...schemas.id('conv'), description: 'An existing conversation (an operator\'s reply, or a visitor\'s own).' },
    ...visitor,
    filename: { type: 'string', minLength: 1, maxLength: 1000, description: 'The file\'s name; cleaned before it is stored.' },
  },
};

export const readQuerySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { ...visitor, bot_id: { ...schemas.id('bot'), description: 'Only a file of this bot\'s conversations (the token proxy sets it).' } },
};

export const attachmentComponents = {
  Attachment: attachmentSchema,
  AttachmentSettings: attachmentSettingsSchema,
  AttachmentSettingsInput: attachmentSettingsInputSchema,
};
