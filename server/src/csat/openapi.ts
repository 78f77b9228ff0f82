/** The satisfaction (CSAT) endpoints and the support report in the OpenAPI document (document.ts spreads them into its paths; components.ts the schemas). */
import { operation, PATH_IDS } from '../openapi/operation.ts';
import { visitorQuerySchema } from '../handoff/schema.ts';
import { supportQuerySchema } from './schema.ts';

const TOKEN_NOTE = "Through the token proxy, `user_id` is the token's user and `bot_id` its bot.";

export function csatPaths(): Record<string, Record<string, unknown>> {
  return {
    '/v1/conversations/{conversation_id}/csat': {
      get: operation({
        operationId: 'getCsat',
        tag: 'Chat',
        summary: "Whether the bot's settings ask for a rating after this conversation, and the rating given",
        description: `Another user's conversation answers 404. ${TOKEN_NOTE}`,
        pathIds: [PATH_IDS.conversation],
        query: visitorQuerySchema,
        success: [{ status: 200, data: 'CsatState', description: 'Whether to ask, and the rating (null until given).' }],
        errors: ['NotFound'],
      }),
      post: operation({
        operationId: 'giveCsat',
        tag: 'Chat',
        summary: 'Rate a conversation 1–5 (satisfaction), with an optional comment',
        description: `One rating per conversation: a second one answers 409 \`csat_already_given\`. Another user's conversation answers 404. The operator who last took the conversation is credited with it. Sends the \`csat.given\` webhook. ${TOKEN_NOTE}`,
        pathIds: [PATH_IDS.conversation],
        body: 'CsatRequest',
        success: [{ status: 201, data: 'Csat', description: 'The stored rating.' }],
        errors: ['NotFound', 'Conflict'],
      }),
    },
    '/v1/bots/{bot_id}/csat': {
      get: operation({
        operationId: 'getCsatSettings',
        tag: 'Bots',
        summary: 'When the widget asks for a rating (after a handoff, after the bot alone)',
        pathIds: [PATH_IDS.bot],
        success: [{ status: 200, data: 'CsatSettings', description: 'The settings (the defaults when never set).' }],
        errors: ['NotFound'],
      }),
      put: operation({
        operationId: 'putCsatSettings',
        tag: 'Bots',
        summary: 'Set when the widget asks for a rating',
        pathIds: [PATH_IDS.bot],
        body: 'CsatSettingsInput',
        success: [{ status: 200, data: 'CsatSettings', description: 'The stored settings.' }],
        errors: ['NotFound'],
      }),
    },
    '/v1/analytics/support': {
      get: operation({
        operationId: 'getSupportReport',
        tag: 'Analytics',
        summary: "Satisfaction (CSAT) and the team's first-response and resolution times, per operator and per bot",
        query: supportQuerySchema,
        success: [{ status: 200, data: 'SupportReport', description: 'Totals, per operator and per bot, and the newest rating comments.' }],
        errors: ['NotFound'],
      }),
    },
  };
}
