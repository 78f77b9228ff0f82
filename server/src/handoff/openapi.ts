/** The handoff endpoints on /v1 in the OpenAPI document (document.ts spreads them into its paths; components.ts the schemas). */
import { ref } from '../openapi/components.ts';
import { operation, PATH_IDS } from '../openapi/operation.ts';
import { eventsQuerySchema, visitorQuerySchema } from './schema.ts';

const CONVERSATION = PATH_IDS.conversation;
const BOT = PATH_IDS.bot;
const TOKEN_NOTE = 'Through the token proxy, `user_id` is the token\'s user and `bot_id` its bot.';

const eventsDescription = [
  'A Server-Sent Events stream of the conversation\'s handoff events (docs/handoff.md): `ready` first (its `id` is the current position), then',
  '`status` (HandoffState: asked, taken, closed), `message` (Message: the visitor\'s, or an operator\'s with `role: "operator"` and `author`) and `typing`',
  '(`{conversation_id, from, operator}`, not stored, no `id`). Every stored event has an `id:`; reconnect with `Last-Event-ID` (or `last_event_id`) and',
  'the stream sends exactly the events after it, then live ones: nothing lost, nothing twice. Without it the stream starts at the current position',
  '(read history first). `: ping` comments every 15 s. `max_seconds` ends the stream; the token proxy sets it to the token\'s remaining lifetime, and',
  'the client reconnects with a renewed token. Events published on one instance reach streams on every instance (Redis when REDIS_URL is set).',
].join(' ');

export function handoffPaths(): Record<string, Record<string, unknown>> {
  return {
    '/v1/bots/{bot_id}/handoff': {
      get: operation({
        operationId: 'getHandoffSettings',
        tag: 'Bots',
        summary: "A bot's handoff settings, and whether a person can be asked for now",
        description: 'Through the token proxy, only the token\'s own bot, and only `{bot_id, enabled, available, unavailable_reason}`.',
        pathIds: [BOT],
        success: [{ status: 200, data: 'HandoffSettings', description: 'Settings (off when never set) and availability.' }],
        errors: ['NotFound'],
      }),
      put: operation({
        operationId: 'putHandoffSettings',
        tag: 'Bots',
        summary: "Set a bot's handoff settings",
        description:
          'When on, a visitor may ask for a person, and the bot hands off by itself after `after_fallbacks` fallback replies in a row or when one of `intents` matches (the reply carries `handoff`). Outside `hours` (weekly ranges in an IANA time zone), or when no operator has the dashboard inbox open, a person is unavailable: the visitor can leave an email.',
        pathIds: [BOT],
        body: 'HandoffSettingsInput',
        success: [{ status: 200, data: 'HandoffSettings', description: 'The stored settings and availability.' }],
        errors: ['NotFound'],
      }),
    },
    '/v1/conversations/{conversation_id}/handoff': {
      get: operation({
        operationId: 'getHandoffState',
        tag: 'Chat',
        summary: "A conversation's handoff status (`bot`, `waiting`, `with_person`, `closed`) and whether a person can be asked for",
        description: `Another user's conversation answers 404. ${TOKEN_NOTE}`,
        pathIds: [CONVERSATION],
        query: visitorQuerySchema,
        success: [{ status: 200, data: 'HandoffState', description: 'The handoff state.' }],
        errors: ['NotFound'],
      }),
      post: operation({
        operationId: 'requestHandoff',
        tag: 'Chat',
        summary: 'Ask for a person: `bot` → `waiting`',
        description: `Asking again while waiting or with a person changes nothing. 409 \`handoff_unavailable\` when the bot does not hand off, outside its hours, or when nobody is online (leave an offline message instead); 409 \`invalid_status_transition\` for a closed conversation. While a person is involved the bot answers no message: chat replies carry \`handoff.held: true\`. ${TOKEN_NOTE}`,
        pathIds: [CONVERSATION],
        body: 'HandoffRequest',
        bodyOptional: true,
        success: [{ status: 200, data: 'HandoffState', description: 'The conversation is waiting for a person.' }],
        errors: ['NotFound', 'Conflict'],
      }),
    },
    '/v1/conversations/{conversation_id}/handoff/typing': {
      post: operation({
        operationId: 'sendVisitorTyping',
        tag: 'Chat',
        summary: 'The visitor is typing: tells the operator (not stored)',
        description: `Send it at most every few seconds while the visitor types; the inbox shows it for a few seconds. Only while \`waiting\` or \`with_person\` (else 409 \`invalid_status_transition\`). ${TOKEN_NOTE}`,
        pathIds: [CONVERSATION],
        body: 'HandoffRequest',
        bodyOptional: true,
        success: [{ status: 200, data: { type: 'object', additionalProperties: false, required: ['conversation_id', 'typing'], properties: { conversation_id: { type: 'string' }, typing: { const: true } } }, description: 'Sent to the operator.' }],
        errors: ['NotFound', 'Conflict'],
      }),
    },
    '/v1/conversations/{conversation_id}/handoff/offline-messages': {
      post: operation({
        operationId: 'leaveOfflineMessage',
        tag: 'Chat',
        summary: 'Leave an email and a message for a reply while nobody can answer',
        description: `Listed in the dashboard inbox. ${TOKEN_NOTE}`,
        pathIds: [CONVERSATION],
        body: 'OfflineMessageRequest',
        success: [{ status: 201, data: 'OfflineMessage', description: 'The stored message.' }],
        errors: ['NotFound'],
      }),
    },
    '/v1/assignment': {
      get: operation({
        operationId: 'getAssignment',
        tag: 'Chat',
        summary: "The account's assignment of conversations: automatic or not, and each operator's capacity and load",
        success: [{ status: 200, data: 'AssignmentSettings', description: 'The setting and the operators.' }],
        errors: [],
      }),
      put: operation({
        operationId: 'putAssignment',
        tag: 'Chat',
        summary: 'Turn automatic assignment on or off, and set operators\' capacities',
        description: 'Turning it on gives out what waits at once. An `operator_id` that is no dashboard user of the account answers 404 `resource_not_found` and changes nothing.',
        body: 'AssignmentSettingsInput',
        success: [{ status: 200, data: 'AssignmentSettings', description: 'The stored setting and the operators.' }],
        errors: ['NotFound'],
      }),
    },
    '/v1/conversations/{conversation_id}/assignment': {
      put: operation({
        operationId: 'assignConversation',
        tag: 'Chat',
        summary: 'Assign a waiting conversation to an operator, or transfer one with a person to another',
        description:
          'The conversation becomes `with_person` with that operator, whatever their presence or capacity; the visitor\'s stream and every inbox get the `status` event naming them. Already theirs: no change. 404 `resource_not_found` (`operator_id`) for anyone but a dashboard user of the account; 409 `invalid_status_transition` unless the conversation is `waiting` or `with_person`.',
        pathIds: [CONVERSATION],
        body: 'AssignRequest',
        success: [{ status: 200, data: 'HandoffState', description: 'The conversation with its operator.' }],
        errors: ['NotFound', 'Conflict'],
      }),
      delete: operation({
        operationId: 'unassignConversation',
        tag: 'Chat',
        summary: 'Put a conversation with a person back in the queue (`waiting`)',
        description: 'With automatic assignment on, it is given out again at once by the same rule, but not to the operator it was taken from. Waiting already: no change. 409 `invalid_status_transition` for `bot` or `closed`.',
        pathIds: [CONVERSATION],
        success: [{ status: 200, data: 'HandoffState', description: 'The conversation, waiting (or given to the next operator).' }],
        errors: ['NotFound', 'Conflict'],
      }),
    },
    '/v1/conversations/{conversation_id}/events': {
      get: operation({
        operationId: 'streamConversationEvents',
        tag: 'Chat',
        summary: "The conversation's live handoff events (Server-Sent Events), resumable by Last-Event-ID",
        description: `${eventsDescription} ${TOKEN_NOTE}`,
        pathIds: [CONVERSATION],
        query: eventsQuerySchema,
        headers: ['LastEventId'],
        eventStream: {
          ready: { type: 'object', additionalProperties: false, required: ['last_event_id'], properties: { last_event_id: { type: 'string' } } },
          status: ref('HandoffState'),
          message: ref('Message'),
          typing: {
            type: 'object',
            additionalProperties: false,
            required: ['conversation_id', 'from', 'operator'],
            properties: { conversation_id: { type: 'string' }, from: { enum: ['operator', 'visitor'] }, operator: { oneOf: [ref('OperatorProfile'), { type: 'null' }] } },
          },
        },
        success: [{ status: 200, data: 'HandoffState', description: 'The event stream (`text/event-stream`); errors before it starts are JSON envelopes.' }],
        errors: ['NotFound'],
      }),
    },
  };
}
