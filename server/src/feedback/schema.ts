/**
 * JSON Schemas (2020-12) of the feedback endpoints and the feedback report: the routes validate with
 * them and the OpenAPI document embeds the same objects.
 */
import { topicsQuerySchema } from '../analytics/schema.ts';
import { schemas, type JsonSchema } from '../http/validate.ts';

export const FEEDBACK_REASONS = ['incorrect', 'not_helpful', 'incomplete', 'other'] as const;
export const MAX_COMMENT = 1000;
/** Characters of an answer's text in the report. */
export const ANSWER_PREVIEW = 500;

const rater = {
  user_id: { ...schemas.userId, description: "The rater: the conversation's end user (omit for a conversation without one). A widget token sets it." },
  bot_id: { ...schemas.id('bot'), description: 'When given, the message must be in a conversation with this bot (a widget token sets it).' },
  agent_id: { ...schemas.id('agt'), description: 'When given, the message must be in a conversation with this agent.' },
};

export const feedbackRequestSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['rating'],
  properties: {
    rating: { enum: ['up', 'down'] },
    reason: { enum: [...FEEDBACK_REASONS], description: 'Why the answer was not good; only with `rating: "down"`.' },
    comment: { type: 'string', maxLength: MAX_COMMENT, description: 'Free text, at most 1,000 characters.' },
    ...rater,
  },
};

export const feedbackScopeQuerySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: rater,
};

const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
const nullableString: JsonSchema = { type: ['string', 'null'] };
const count: JsonSchema = { type: 'integer', minimum: 0 };

export const feedbackSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['message_id', 'conversation_id', 'user_id', 'bot_id', 'agent_id', 'rating', 'reason', 'comment', 'created_at', 'updated_at'],
  properties: {
    message_id: schemas.id('msg'),
    conversation_id: schemas.id('conv'),
    user_id: nullableString,
    bot_id: nullableString,
    agent_id: nullableString,
    rating: { enum: ['up', 'down'] },
    reason: { enum: [...FEEDBACK_REASONS, null] },
    comment: nullableString,
    created_at: dateTime,
    updated_at: { ...dateTime, description: 'When it was last given; the report counts it then.' },
  },
};

export const feedbackReportQuerySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...(topicsQuerySchema.properties as Record<string, JsonSchema>),
    granularity: { enum: ['hour', 'day'], default: 'day' },
  },
};

const counts = { up: count, down: count };

export const feedbackReportSchema: JsonSchema = {
  type: 'object',
  description:
    'Feedback on answers, counted when it was last given (a changed rating moves to the day of the change). Feedback goes with its message: a deleted conversation is no longer counted.',
  additionalProperties: false,
  required: ['from', 'to', 'granularity', 'agent_id', 'bot_id', 'totals', 'series', 'owners', 'reasons', 'most_downvoted', 'comments'],
  properties: {
    from: dateTime,
    to: dateTime,
    granularity: { enum: ['hour', 'day'] },
    agent_id: nullableString,
    bot_id: nullableString,
    totals: { type: 'object', additionalProperties: false, required: ['up', 'down'], properties: counts },
    series: {
      type: 'array',
      description: 'Every bucket of the range, oldest first, including empty ones.',
      items: { type: 'object', additionalProperties: false, required: ['start', 'up', 'down'], properties: { start: dateTime, ...counts } },
    },
    owners: {
      type: 'array',
      description: 'Per bot and agent (null: none), most feedback first; at most `limit` rows.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['bot_id', 'agent_id', 'up', 'down'],
        properties: { bot_id: nullableString, agent_id: nullableString, ...counts },
      },
    },
    reasons: {
      type: 'array',
      description: 'Reasons given with a thumbs down, most frequent first.',
      items: { type: 'object', additionalProperties: false, required: ['reason', 'count'], properties: { reason: { enum: [...FEEDBACK_REASONS] }, count } },
    },
    most_downvoted: {
      type: 'array',
      description: 'The answers with the most thumbs down (`limit` rows), most first. The same text in many conversations is one answer.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['answer', 'down', 'up', 'message_id', 'conversation_id', 'last_down_at'],
        properties: {
          answer: { type: 'string', maxLength: ANSWER_PREVIEW, description: 'The answer\'s text, at most 500 characters.' },
          down: count,
          up: count,
          message_id: { ...schemas.id('msg'), description: 'The latest downvoted message with this text.' },
          conversation_id: schemas.id('conv'),
          last_down_at: dateTime,
        },
      },
    },
    comments: {
      type: 'array',
      description: 'The newest feedback given with a comment, newest first: at most `limit` rows (narrow the range for older ones).',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['message_id', 'conversation_id', 'bot_id', 'agent_id', 'rating', 'reason', 'comment', 'answer', 'updated_at'],
        properties: {
          message_id: schemas.id('msg'),
          conversation_id: schemas.id('conv'),
          bot_id: nullableString,
          agent_id: nullableString,
          rating: { enum: ['up', 'down'] },
          reason: { enum: [...FEEDBACK_REASONS, null] },
          comment: { type: 'string', maxLength: MAX_COMMENT },
          answer: { type: 'string', maxLength: ANSWER_PREVIEW, description: "The answer's text, at most 500 characters." },
          updated_at: { ...dateTime, description: 'When the feedback was last given.' },
        },
      },
    },
  },
};

export const conversationFeedbackSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['items'],
  properties: {
    items: { type: 'array', description: "Every rater's feedback on the conversation's answers, oldest answer first.", items: feedbackSchema },
  },
};

/** The components of the OpenAPI document (components.ts spreads them in). */
export const feedbackComponents = {
  FeedbackRequest: feedbackRequestSchema,
  Feedback: feedbackSchema,
  FeedbackReport: feedbackReportSchema,
  ConversationFeedback: conversationFeedbackSchema,
};
