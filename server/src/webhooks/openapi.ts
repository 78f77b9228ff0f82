/** The webhook endpoints in the OpenAPI document (document.ts spreads them into its paths; components.ts the schemas). */
import { operation } from '../openapi/operation.ts';
import { pageOf, ref } from '../openapi/components.ts';
import { deliveriesQuerySchema } from './schema.ts';

const WEBHOOK: [string, string, string] = ['webhook_id', 'whk', 'webhook'];
const DELIVERY: [string, string, string] = ['delivery_id', 'dlv', 'delivery'];
const TAG = 'Webhooks';

export function webhookPaths(): Record<string, Record<string, unknown>> {
  return {
    '/v1/webhooks': {
      get: operation({
        operationId: 'listWebhooks',
        tag: TAG,
        summary: "The account's webhook subscriptions",
        success: [{ status: 200, data: { type: 'object', additionalProperties: false, required: ['items'], properties: { items: { type: 'array', items: ref('Webhook') } } }, description: 'Every subscription, oldest first; never a secret.' }],
        errors: [],
      }),
      post: operation({
        operationId: 'createWebhook',
        tag: TAG,
        summary: 'Subscribe a URL to events',
        description:
          'Requests are signed as the Standard Webhooks specification says (`webhook-id`, `webhook-timestamp`, `webhook-signature`); the answer carries the signing `secret`, the only time it is returned. A host written as a private, loopback, link-local or reserved address answers 400 `url_not_allowed` (a name is checked on the addresses it resolves to at each delivery); more subscriptions than the account may have (default 20) 409 `conflict`.',
        body: 'WebhookInput',
        success: [{ status: 201, data: 'CreatedWebhook', description: 'The subscription and its secret.' }],
        errors: ['Conflict'],
      }),
    },
    '/v1/webhooks/{webhook_id}': {
      get: operation({ operationId: 'getWebhook', tag: TAG, summary: 'One subscription', pathIds: [WEBHOOK], success: [{ status: 200, data: 'Webhook', description: 'The subscription; never its secret.' }], errors: ['NotFound'] }),
      patch: operation({
        operationId: 'updateWebhook',
        tag: TAG,
        summary: 'Change the URL, events, description, or enable/disable',
        pathIds: [WEBHOOK],
        body: 'WebhookUpdate',
        success: [{ status: 200, data: 'Webhook', description: 'The changed subscription.' }],
        errors: ['NotFound'],
      }),
      delete: operation({ operationId: 'deleteWebhook', tag: TAG, summary: 'Delete a subscription and its delivery log', pathIds: [WEBHOOK], success: [{ status: 200, data: 'WebhookDeletion', description: 'Deleted.' }], errors: ['NotFound'] }),
    },
    '/v1/webhooks/{webhook_id}/rotate-secret': {
      post: operation({
        operationId: 'rotateWebhookSecret',
        tag: TAG,
        summary: 'A new signing secret',
        description: 'Every request from now on is signed with the new secret, retries of earlier events included.',
        pathIds: [WEBHOOK],
        success: [{ status: 200, data: 'WebhookSecret', description: 'The new secret, the only time it is returned.' }],
        errors: ['NotFound'],
      }),
    },
    '/v1/webhooks/{webhook_id}/test': {
      post: operation({
        operationId: 'testWebhook',
        tag: TAG,
        summary: 'Send a `webhook.test` event',
        description: 'Queued for this subscription alone, whatever events it takes; its outcome shows in the delivery log. A disabled subscription answers 409 `conflict`.',
        pathIds: [WEBHOOK],
        success: [{ status: 202, data: 'WebhookDelivery', description: 'The queued delivery.' }],
        errors: ['NotFound', 'Conflict'],
      }),
    },
    '/v1/webhooks/{webhook_id}/deliveries': {
      get: operation({
        operationId: 'listWebhookDeliveries',
        tag: TAG,
        summary: 'The delivery log, newest first',
        pathIds: [WEBHOOK],
        query: deliveriesQuerySchema,
        success: [{ status: 200, data: pageOf(ref('WebhookDelivery')), description: 'One page of deliveries.' }],
        errors: ['NotFound'],
      }),
    },
    '/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver': {
      post: operation({
        operationId: 'redeliverWebhook',
        tag: TAG,
        summary: 'Send a delivery again',
        description: 'The same event id and body, signed anew, sent now; a delivery that had failed gets one more try. A disabled subscription answers 409 `conflict`.',
        pathIds: [WEBHOOK, DELIVERY],
        success: [{ status: 202, data: 'WebhookDelivery', description: 'The delivery, queued.' }],
        errors: ['NotFound', 'Conflict'],
      }),
    },
  };
}
