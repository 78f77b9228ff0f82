/**
 * JSON Schemas of the webhook routes: the routes validate with them and the OpenAPI document
 * embeds the same objects (components: `webhookComponents`).
 */
import type { WebhookEventType } from '../../../src/client/types.ts';
import { schemas, type JsonSchema } from '../http/validate.ts';

/** What an account can subscribe to (`webhook.test` is sent only by the test route). */
export const WEBHOOK_EVENTS: readonly WebhookEventType[] = ['conversation.started', 'message.created', 'handoff.requested', 'handoff.taken', 'handoff.closed', 'feedback.given', 'csat.given'];

export const MAX_URL_LENGTH = 2048;
export const MAX_DESCRIPTION = 500;

const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
const nullableDateTime: JsonSchema = { type: ['string', 'null'], format: 'date-time' };

const url: JsonSchema = { type: 'string', minLength: 1, maxLength: MAX_URL_LENGTH, description: 'An `https:` (or `http:`) URL without credentials; its host must be a public address.' };
const events: JsonSchema = { type: 'array', minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true, items: { enum: [...WEBHOOK_EVENTS] }, description: 'The event types sent to it.' };
const description: JsonSchema = { type: 'string', maxLength: MAX_DESCRIPTION };

export const webhookInputSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['url', 'events'],
  properties: { url, events, description, enabled: { type: 'boolean', default: true } },
};

export const webhookUpdateSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { url, events, description, enabled: { type: 'boolean', description: 'Enabling it again clears `disabled_reason` and its failure streak.' } },
};

export const webhookSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'url', 'events', 'description', 'enabled', 'disabled_reason', 'failing_since', 'created_at', 'updated_at'],
  properties: {
    id: schemas.id('whk'),
    url: { type: 'string' },
    events: { type: 'array', items: { enum: [...WEBHOOK_EVENTS] } },
    description: { type: 'string' },
    enabled: { type: 'boolean' },
    disabled_reason: { type: ['string', 'null'], description: 'Why the service disabled it (failures for days on end); null when it did not.' },
    failing_since: { ...nullableDateTime, description: 'Since when every try has failed; null once one succeeds.' },
    created_at: dateTime,
    updated_at: dateTime,
  },
};

export const webhookSecretSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'secret'],
  properties: {
    id: schemas.id('whk'),
    secret: { type: 'string', pattern: '^whsec_[A-Za-z0-9+/=]{44}$', description: 'The signing secret. Returned only here: store it now.' },
  },
};

export const createdWebhookSchema: JsonSchema = {
  ...webhookSchema,
  required: [...(webhookSchema.required as string[]), 'secret'],
  properties: { ...(webhookSchema.properties as Record<string, JsonSchema>), secret: (webhookSecretSchema.properties as Record<string, JsonSchema>).secret! },
};

export const deliverySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'event_id', 'type', 'status', 'attempts', 'last_status', 'last_error', 'last_response', 'next_attempt_at', 'delivered_at', 'occurred_at'],
  properties: {
    id: schemas.id('dlv'),
    event_id: { ...schemas.id('evt'), description: 'The `webhook-id` header: the same on every try; receivers deduplicate on it.' },
    type: { type: 'string' },
    status: { enum: ['pending', 'delivered', 'failed'], description: '`failed`: every try failed (about a day of retries), or a redelivery failed.' },
    attempts: { type: 'integer', minimum: 0 },
    last_status: { type: ['integer', 'null'], description: "The receiver's last HTTP status; null when it gave none." },
    last_error: { type: ['string', 'null'] },
    last_response: { type: ['string', 'null'], description: "The start of the receiver's last answer (at most 1 KiB)." },
    next_attempt_at: { ...nullableDateTime, description: 'When it is tried next (pending only).' },
    delivered_at: nullableDateTime,
    occurred_at: dateTime,
  },
};

export const deliveriesQuerySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: { enum: ['pending', 'delivered', 'failed'] },
    limit: schemas.limit(100, 20),
    cursor: schemas.cursor,
  },
};

export const webhookDeletionSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'deleted'],
  properties: { id: schemas.id('whk'), deleted: { const: true } },
};

export const webhookComponents = {
  WebhookInput: webhookInputSchema,
  WebhookUpdate: webhookUpdateSchema,
  Webhook: webhookSchema,
  CreatedWebhook: createdWebhookSchema,
  WebhookSecret: webhookSecretSchema,
  WebhookDelivery: deliverySchema,
  WebhookDeletion: webhookDeletionSchema,
};
