/** The attachment endpoints in the OpenAPI document (document.ts spreads them into its paths; components.ts `attachmentComponents`). */
import { commonHeaders } from '../openapi/components.ts';
import { operation } from '../openapi/operation.ts';
import { ACCEPTED_TYPES } from './content-type.ts';
import { readQuerySchema, uploadQuerySchema } from './schema.ts';

const ATTACHMENT: [string, string, string] = ['attachment_id', 'att', 'attachment'];
const TOKEN_NOTE = 'Through the token proxy, `user_id` is the token\'s user and `bot_id` its bot.';

const uploadDescription = [
  'The request body is the file itself (any `Content-Type`; it is ignored): the service judges the type by the bytes.',
  `Accepted: ${ACCEPTED_TYPES.join(', ')}. Anything else (HTML, SVG, XML, archives, executables, a file named like an image that is not one) answers 415 \`unsupported_media_type\`;`,
  'so does a type the bot does not allow. A file larger than the bot\'s `max_file_bytes` (or the service\'s limit), or an image of more than 50 megapixels, answers 413 `payload_too_large`.',
  'With `user_id` (a visitor) the bot must have attachments `enabled` (else 403 `permission_denied`), and at most 20 uploads may wait unsent (409 `conflict`).',
  'Unsent visitors\' uploads are bounded in bytes per visitor, per client address and per bot (409 `upload_quota_exceeded`), and all files of the account by its storage quota (413 `storage_quota_exceeded`); the message names the limit.',
  'Without it the account itself uploads (an operator\'s file for `conversation_id`). Send the answer\'s `id` in a message\'s `attachments`; an upload no message takes within the retention (an hour by default, `AI_CHAT_UPLOAD_RETENTION_SECONDS`) is deleted.',
  TOKEN_NOTE,
].join(' ');

const readDescription = [
  'The bytes, with the type found at upload. Only raster images are served `inline`; everything else as `attachment` (a download).',
  'Every answer carries `X-Content-Type-Options: nosniff`, `Content-Security-Policy: default-src \'none\'; sandbox` and `Cache-Control: private`.',
  'The account reads every file; with `user_id` only that visitor\'s: their own uploads, and files sent in their conversations. Anything else answers 404.',
  TOKEN_NOTE,
].join(' ');

export function attachmentPaths(): Record<string, Record<string, unknown>> {
  const upload = operation({
    operationId: 'uploadAttachment',
    tag: 'Attachments',
    summary: 'Upload a file to send with a message',
    description: uploadDescription,
    query: uploadQuerySchema,
    success: [{ status: 201, data: 'Attachment', description: 'The stored file.' }],
    errors: ['Forbidden', 'NotFound', 'Conflict', 'PayloadTooLarge', 'UnsupportedMediaType'],
  });
  upload.requestBody = {
    required: true,
    content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The file\'s bytes.' } } },
  };
  const read = operation({
    operationId: 'getAttachment',
    tag: 'Attachments',
    summary: 'Read a file',
    description: readDescription,
    pathIds: [ATTACHMENT],
    query: readQuerySchema,
    success: [{ status: 200, data: { type: 'string' }, description: 'The file.' }],
    errors: ['NotFound'],
  });
  (read.responses as Record<string, unknown>)['200'] = {
    description: 'The file\'s bytes.',
    headers: {
      ...commonHeaders,
      'Content-Disposition': { description: '`inline` for images, else `attachment`; with the file name (RFC 6266).', required: true, schema: { type: 'string' } },
      'X-Content-Type-Options': { description: 'Always `nosniff`.', required: true, schema: { const: 'nosniff' } },
      'Content-Security-Policy': { description: 'Always `default-src \'none\'; sandbox`.', required: true, schema: { type: 'string' } },
    },
    content: Object.fromEntries(ACCEPTED_TYPES.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])),
  };
  return {
    '/v1/attachments': { post: upload },
    '/v1/attachments/{attachment_id}': {
      get: read,
      delete: operation({
        operationId: 'deleteAttachment',
        tag: 'Attachments',
        summary: 'Remove an upload not sent yet',
        description: `A file sent with a message stays with it (409 \`conflict\`); deleting the conversation deletes it. ${TOKEN_NOTE}`,
        pathIds: [ATTACHMENT],
        query: readQuerySchema,
        success: [{ status: 200, data: { type: 'object', additionalProperties: false, required: ['id', 'deleted'], properties: { id: { type: 'string' }, deleted: { const: true } } }, description: 'Removed.' }],
        errors: ['NotFound', 'Conflict'],
      }),
    },
  };
}
