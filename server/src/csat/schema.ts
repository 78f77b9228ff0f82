/**
 * JSON Schemas (2020-12) of the satisfaction (CSAT) endpoints and the support report: the routes
 * validate with them and the OpenAPI document embeds the same objects (components: `csatComponents`).
 */
import { topicsQuerySchema } from '../analytics/schema.ts';
import { visitorQuerySchema } from '../handoff/schema.ts';
import { schemas, type JsonSchema } from '../http/validate.ts';

/** Characters of a CSAT comment. */
export const MAX_CSAT_COMMENT = 1000;

const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
const nullableString: JsonSchema = { type: ['string', 'null'] };
const count: JsonSchema = { type: 'integer', minimum: 0 };
const rating: JsonSchema = { type: 'integer', minimum: 1, maximum: 5, description: '1 (very unhappy) to 5 (very happy); 4 and 5 count as satisfied.' };

export const csatRequestSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['rating'],
  properties: {
    rating,
    comment: { type: 'string', maxLength: MAX_CSAT_COMMENT, description: 'Free text, at most 1,000 characters.' },
    ...(visitorQuerySchema.properties as Record<string, JsonSchema>),
  },
};

export const csatSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['conversation_id', 'bot_id', 'agent_id', 'user_id', 'operator_id', 'rating', 'comment', 'created_at'],
  properties: {
    conversation_id: schemas.id('conv'),
    bot_id: nullableString,
    agent_id: nullableString,
    user_id: nullableString,
    operator_id: { ...nullableString, description: 'The operator who last took the conversation when it was rated; null: the bot answered alone.' },
    rating,
    comment: nullableString,
    created_at: dateTime,
  },
};

export const csatStateSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['conversation_id', 'survey', 'moment', 'csat'],
  properties: {
    conversation_id: schemas.id('conv'),
    survey: { type: 'boolean', description: "The bot's settings ask for a rating after this conversation (with a person: `after_handoff`; the bot alone: `after_bot`)." },
    moment: { enum: ['after_handoff', 'after_bot'], description: 'Which setting `survey` follows: `after_handoff` once a person took the conversation, else `after_bot` (the widget asks for it when the visitor closes the panel).' },
    csat: { oneOf: [{ $ref: '#/components/schemas/Csat' }, { type: 'null' }], description: 'The rating given, or null.' },
  },
};

const when = {
  after_handoff: { type: 'boolean', default: true, description: 'Ask after an operator ended their part (the conversation closed, or given back to the bot).' },
  after_bot: { type: 'boolean', default: false, description: 'Ask after a conversation the bot answered alone, when the visitor closes the chat.' },
};

export const csatSettingsInputSchema: JsonSchema = { type: 'object', additionalProperties: false, minProperties: 1, properties: when };

export const csatSettingsSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['bot_id', 'after_handoff', 'after_bot'],
  properties: { bot_id: schemas.id('bot'), ...when },
};

export const supportQuerySchema: JsonSchema = topicsQuerySchema;

const seconds: JsonSchema = { type: ['number', 'null'], minimum: 0 };
const duration = (what: string): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required: ['count', 'mean_seconds', 'median_seconds'],
  description: what,
  properties: { count: { ...count, description: 'Handoffs measured.' }, mean_seconds: seconds, median_seconds: seconds },
});

const figures = {
  handoffs: { ...count, description: "Persons asked for in the range (an operator's: the handoffs they took)." },
  csat: {
    type: 'object',
    additionalProperties: false,
    required: ['responses', 'satisfied', 'satisfied_share', 'mean'],
    properties: {
      responses: count,
      satisfied: { ...count, description: 'Ratings of 4 or 5.' },
      satisfied_share: { type: ['number', 'null'], minimum: 0, maximum: 1, description: '`satisfied / responses`; null with no ratings.' },
      mean: { type: ['number', 'null'], minimum: 1, maximum: 5 },
    },
  },
  first_response: duration('From a person asked for (`waiting`) to an operator\'s first message, for the handoffs asked for in the range that got one.'),
  resolution: duration('From a person asked for to the handoff\'s end (closed, or given back to the bot), for the handoffs asked for in the range that ended.'),
};
const figuresRequired = ['handoffs', 'csat', 'first_response', 'resolution'];

export const supportReportSchema: JsonSchema = {
  type: 'object',
  description:
    'Satisfaction (CSAT, counted when given) and the team\'s response times (counted by when the person was asked for), without test conversations. A deleted conversation is no longer counted.',
  additionalProperties: false,
  required: ['from', 'to', 'agent_id', 'bot_id', 'totals', 'operators', 'bots', 'comments'],
  properties: {
    from: dateTime,
    to: dateTime,
    agent_id: nullableString,
    bot_id: nullableString,
    totals: { type: 'object', additionalProperties: false, required: figuresRequired, properties: figures },
    operators: {
      type: 'array',
      description: 'Per operator (the one who took the handoff, or who was last with the conversation when it was rated), most handoffs and ratings first; at most `limit` rows.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['operator_id', 'name', ...figuresRequired],
        properties: { operator_id: { type: 'string' }, name: { type: 'string', description: 'Their display name, else their email\'s local part.' }, ...figures },
      },
    },
    bots: {
      type: 'array',
      description: 'Per bot (null: conversations with an agent), most handoffs and ratings first; at most `limit` rows.',
      items: { type: 'object', additionalProperties: false, required: ['bot_id', ...figuresRequired], properties: { bot_id: nullableString, ...figures } },
    },
    comments: {
      type: 'array',
      description: 'The newest ratings given with a comment, newest first: at most `limit` rows (narrow the range for older ones).',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['conversation_id', 'bot_id', 'operator_id', 'rating', 'comment', 'created_at'],
        properties: {
          conversation_id: schemas.id('conv'),
          bot_id: nullableString,
          operator_id: nullableString,
          rating,
          comment: { type: 'string', maxLength: MAX_CSAT_COMMENT },
          created_at: dateTime,
        },
      },
    },
  },
};

/** The components of the OpenAPI document (components.ts spreads them in). */
export const csatComponents = {
  CsatRequest: csatRequestSchema,
  Csat: csatSchema,
  CsatState: csatStateSchema,
  CsatSettings: csatSettingsSchema,
  CsatSettingsInput: csatSettingsInputSchema,
  SupportReport: supportReportSchema,
};
