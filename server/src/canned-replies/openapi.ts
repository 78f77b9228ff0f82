/** The canned reply endpoints in the OpenAPI document (document.ts spreads them into its paths; components.ts the schemas). */
import { operation, PATH_IDS } from '../openapi/operation.ts';
import { ref } from '../openapi/components.ts';
import { MAX_CANNED_REPLIES } from './schema.ts';

const REPLY = PATH_IDS.cannedReply;
const TAG = 'Canned replies';

export function cannedReplyPaths(): Record<string, Record<string, unknown>> {
  return {
    '/v1/canned-replies': {
      get: operation({
        operationId: 'listCannedReplies',
        tag: TAG,
        summary: "The account's canned replies",
        success: [{ status: 200, data: { type: 'object', additionalProperties: false, required: ['items'], properties: { items: { type: 'array', items: ref('CannedReply') } } }, description: 'Every canned reply, by shortcut.' }],
        errors: [],
      }),
      post: operation({
        operationId: 'createCannedReply',
        tag: TAG,
        summary: 'Add a canned reply',
        description: `A shortcut another reply of the account has, or more replies than an account may keep (${MAX_CANNED_REPLIES}), answers 409 \`conflict\`.`,
        body: 'CannedReplyInput',
        success: [{ status: 201, data: 'CannedReply', description: 'The new reply.' }],
        errors: ['Conflict'],
      }),
    },
    '/v1/canned-replies/{canned_reply_id}': {
      patch: operation({
        operationId: 'updateCannedReply',
        tag: TAG,
        summary: 'Change the shortcut or the text',
        description: 'A shortcut another reply of the account has answers 409 `conflict`.',
        pathIds: [REPLY],
        body: 'CannedReplyUpdate',
        success: [{ status: 200, data: 'CannedReply', description: 'The changed reply.' }],
        errors: ['NotFound', 'Conflict'],
      }),
      delete: operation({ operationId: 'deleteCannedReply', tag: TAG, summary: 'Delete a canned reply', pathIds: [REPLY], success: [{ status: 200, data: 'CannedReplyDeletion', description: 'Deleted.' }], errors: ['NotFound'] }),
    },
  };
}
