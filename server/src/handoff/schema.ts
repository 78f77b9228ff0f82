/**
 * JSON Schemas (2020-12) of the handoff endpoints: the routes validate with them and the OpenAPI
 * document embeds the same objects (components: `handoffComponents`).
 */
import { attachmentIdsSchema } from '../attachments/schema.ts';
import { schemas, type JsonSchema } from '../http/validate.ts';

export const MAX_OPERATOR_MESSAGE = 8000;
export const MAX_OFFLINE_MESSAGE = 4000;
/** Notes of one conversation the inbox reads (the newest). */
export const MAX_NOTES = 500;
/** The longest a visitor's events stream stays open before the client reconnects. */
export const MAX_STREAM_SECONDS = 3600;

const status: JsonSchema = { enum: ['bot', 'waiting', 'with_person', 'closed'], description: '`bot` → `waiting` → `with_person` → `closed` (or back to `bot`).' };
const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
const nullableDateTime: JsonSchema = { type: ['string', 'null'], format: 'date-time' };
const time: JsonSchema = { type: 'string', pattern: '^(?:[01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$', description: '`HH:MM`, 24-hour (`24:00` ends a day).' };

const visitor = {
  user_id: { ...schemas.userId, description: "The conversation's end user: any other answers 404. A widget token sets it." },
  bot_id: { ...schemas.id('bot'), description: 'When given, the conversation must be with this bot (a widget token sets it).' },
};

export const visitorQuerySchema: JsonSchema = { type: 'object', additionalProperties: false, properties: visitor };

export const eventsQuerySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...visitor,
    last_event_id: { type: 'string', pattern: '^[0-9]{1,19}$', description: 'Resume after this event id, for readers that cannot send the `Last-Event-ID` header (the header wins).' },
    max_seconds: { type: 'integer', minimum: 1, maximum: MAX_STREAM_SECONDS, description: 'End the stream after this many seconds (the client reconnects and resumes). The token proxy sets it to the token\'s remaining lifetime.' },
  },
};

export const handoffRequestSchema: JsonSchema = { type: 'object', additionalProperties: false, properties: visitor };

export const offlineMessageRequestSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['email', 'message'],
  properties: {
    email: { type: 'string', minLength: 3, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+$', description: 'Where the reply goes.' },
    message: { type: 'string', minLength: 1, maxLength: MAX_OFFLINE_MESSAGE },
    ...visitor,
  },
};

const openingHours: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['time_zone', 'weekly'],
  properties: {
    time_zone: { type: 'string', minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. `Europe/Berlin`.' },
    weekly: {
      type: 'array',
      maxItems: 50,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['day', 'from', 'to'],
        properties: { day: { enum: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] }, from: time, to: time },
      },
    },
  },
};

export const handoffSettingsInputSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['enabled'],
  properties: {
    enabled: { type: 'boolean' },
    after_fallbacks: { type: ['integer', 'null'], minimum: 1, maximum: 20, description: 'Hand off after this many fallback replies in a row; null: never by count.' },
    intents: { type: 'array', maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 100 }, description: 'Trained intents that hand off when they match.' },
    hours: { oneOf: [openingHours, { type: 'null' }], description: 'Opening hours; null: open whenever an operator is online.' },
  },
};

const operatorProfile: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'avatar_url'],
  properties: { id: { type: 'string' }, name: { type: 'string' }, avatar_url: { type: ['string', 'null'] } },
};

const availability = {
  available: { type: 'boolean', description: 'Whether a person can be asked for now.' },
  unavailable_reason: { enum: ['disabled', 'outside_hours', 'nobody_online', null], description: 'Why not; null when available.' },
};

export const handoffStateSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['conversation_id', 'status', 'operator', 'waiting_since', 'available', 'unavailable_reason'],
  properties: {
    conversation_id: schemas.id('conv'),
    status,
    operator: { oneOf: [{ $ref: '#/components/schemas/OperatorProfile' }, { type: 'null' }] },
    waiting_since: nullableDateTime,
    ...availability,
    held: { const: true, description: 'On a chat reply only: a person is involved, so the bot did not answer.' },
  },
};

export const handoffSettingsSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['bot_id', 'enabled', 'after_fallbacks', 'intents', 'hours', 'available', 'unavailable_reason'],
  properties: {
    bot_id: schemas.id('bot'),
    enabled: { type: 'boolean' },
    after_fallbacks: { type: ['integer', 'null'] },
    intents: { type: 'array', items: { type: 'string' } },
    hours: { oneOf: [openingHours, { type: 'null' }] },
    ...availability,
  },
};

export const offlineMessageSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'conversation_id', 'bot_id', 'user_id', 'email', 'message', 'created_at', 'answered_at', 'answered_by'],
  properties: {
    id: schemas.id('ofm'),
    conversation_id: schemas.id('conv'),
    bot_id: { type: ['string', 'null'] },
    user_id: { type: ['string', 'null'] },
    email: { type: 'string' },
    message: { type: 'string' },
    created_at: dateTime,
    answered_at: { oneOf: [dateTime, { type: 'null' }], description: 'When a teammate answered it by email from the inbox; null: not answered.' },
    answered_by: {
      oneOf: [{ type: 'object', additionalProperties: false, required: ['id', 'name'], properties: { id: { type: 'string' }, name: { type: 'string' } } }, { type: 'null' }],
      description: 'Who answered it; null: nobody yet, or a teammate removed since.',
    },
  },
};

/** `POST /dashboard/api/inbox/offline-messages/{id}/reply`: the email to the visitor (plain text). */
export const offlineReplySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['subject', 'text'],
  properties: {
    subject: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' },
    text: { type: 'string', minLength: 1, maxLength: 10_000, pattern: '\\S' },
  },
};

export const operatorReplySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['content'],
  properties: {
    // blank only with a file (the service checks)
    content: { type: 'string', maxLength: MAX_OPERATOR_MESSAGE, description: 'The reply; may be empty when `attachments` sends a file.' },
    attachments: attachmentIdsSchema,
  },
};

export const noteRequestSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['content'],
  properties: { content: { type: 'string', minLength: 1, maxLength: MAX_OPERATOR_MESSAGE, description: 'The note; only the team sees it.' } },
};

/** `GET /dashboard/api/inbox`: search and a label narrow the list. */
export const inboxQuerySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    q: { type: 'string', minLength: 1, maxLength: 200, description: 'Only conversations with a message (or note) containing this text, case-insensitive.' },
    label: { type: 'string', minLength: 1, maxLength: 40, description: 'Only conversations with this label.' },
  },
};

export const closeRequestSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['to'],
  properties: { to: { enum: ['bot', 'closed'], description: '`bot`: the bot answers again; `closed`: the conversation ends.' } },
};

export const operatorProfileInputSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    display_name: { type: ['string', 'null'], minLength: 1, maxLength: 80, pattern: '\\S', description: 'The name visitors see (not blank); null: the email\'s local part.' },
    // https only: the widget loads it on the visitor's page, where plain http is mixed content.
    avatar_url: { type: ['string', 'null'], maxLength: 2048, pattern: '^https://[^\\s]+$', description: 'An https URL; null: none.' },
  },
};

const capacity: JsonSchema = { type: 'integer', minimum: 0, maximum: 100, description: 'Open (`with_person`) conversations automatic assignment gives the operator at most (default 5; 0: none).' };

export const assignmentSettingsSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['auto', 'operators'],
  properties: {
    auto: { type: 'boolean', description: 'Automatic assignment (default off): a conversation that starts waiting goes to the online operator with the fewest open conversations under their capacity, ties to who waited longest since their last one.' },
    operators: {
      type: 'array',
      description: "The account's operators (its dashboard users), oldest first.",
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'name', 'avatar_url', 'capacity', 'open', 'presence', 'last_assigned_at'],
        properties: {
          ...(operatorProfile.properties as Record<string, JsonSchema>),
          capacity,
          open: { type: 'integer', minimum: 0, description: 'The `with_person` conversations they hold now.' },
          presence: { enum: ['online', 'away', 'offline'], description: 'Only `online` operators are assigned automatically.' },
          last_assigned_at: nullableDateTime,
        },
      },
    },
  },
};

export const assignmentSettingsInputSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    auto: { type: 'boolean' },
    capacities: {
      type: 'array',
      maxItems: 200,
      items: { type: 'object', additionalProperties: false, required: ['operator_id', 'capacity'], properties: { operator_id: { type: 'string', minLength: 1, maxLength: 64 }, capacity } },
    },
  },
};

export const assignRequestSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['operator_id'],
  properties: { operator_id: { type: 'string', minLength: 1, maxLength: 64, description: 'A dashboard user of the account (any presence); another answers 404.' } },
};

export const handoffComponents = {
  AssignmentSettings: assignmentSettingsSchema,
  AssignmentSettingsInput: assignmentSettingsInputSchema,
  AssignRequest: assignRequestSchema,
  OperatorProfile: operatorProfile,
  HandoffState: handoffStateSchema,
  HandoffSettingsInput: handoffSettingsInputSchema,
  HandoffSettings: handoffSettingsSchema,
  HandoffRequest: handoffRequestSchema,
  OfflineMessageRequest: offlineMessageRequestSchema,
  OfflineMessage: offlineMessageSchema,
};
