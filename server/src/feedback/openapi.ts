/** The feedback endpoints and report in the OpenAPI document (document.ts spreads them into its paths; components.ts the schemas). */
import { operation } from '../openapi/operation.ts';
import { feedbackReportQuerySchema, feedbackScopeQuerySchema } from './schema.ts';

const MESSAGE: [string, string, string] = ['message_id', 'msg', 'assistant message'];

export function feedbackPaths(): Record<string, Record<string, unknown>> {
  return {
    '/v1/messages/{message_id}/feedback': {
      post: operation({
        operationId: 'giveFeedback',
        tag: 'Chat',
        summary: 'Rate an assistant answer (thumbs up or down), or change the rating',
        description:
          "One feedback per message and rater: given again, it replaces the earlier one (reason and comment included), so a retry is safe. The rater is the conversation's end user (`user_id`; omit it for a conversation without one): any other user, a user message, or a message of another bot (`bot_id`) or agent (`agent_id`) answers 404. A `reason` goes with `rating: \"down\"` only. Through the token proxy, `user_id` is the token's user and `bot_id` its bot.",
        pathIds: [MESSAGE],
        body: 'FeedbackRequest',
        success: [{ status: 200, data: 'Feedback', description: 'The stored feedback.' }],
        errors: [],
      }),
      delete: operation({
        operationId: 'deleteFeedback',
        tag: 'Chat',
        summary: "Take back the rater's feedback on an answer",
        description: 'Answers 404 when this rater has no feedback on the message (also for a second delete).',
        pathIds: [MESSAGE],
        query: feedbackScopeQuerySchema,
        success: [{ status: 200, data: 'Deletion', description: 'The feedback was deleted (`id` is the message id).' }],
        errors: [],
      }),
    },
    '/v1/conversations/{conversation_id}/feedback': {
      get: operation({
        operationId: 'getConversationFeedback',
        tag: 'Chat',
        summary: "A conversation's feedback: every rater's thumbs, reasons and comments on its answers",
        pathIds: [['conversation_id', 'conv', 'conversation']],
        success: [{ status: 200, data: 'ConversationFeedback', description: 'Oldest answer first, at most 1,000 rows.' }],
        errors: ['NotFound'],
      }),
    },
    '/v1/analytics/feedback': {
      get: operation({
        operationId: 'getFeedbackReport',
        tag: 'Analytics',
        summary: 'Feedback on answers: per day, per bot and agent, the most downvoted answers and the newest comments',
        query: feedbackReportQuerySchema,
        success: [{ status: 200, data: 'FeedbackReport', description: 'Thumbs up and down over time, per bot and agent, the reasons, and the answers with the most thumbs down.' }],
        errors: ['NotFound'],
      }),
    },
  };
}
