/**
 * The body of a webhook request, as the Standard Webhooks specification suggests:
 * `{type, timestamp, data}`, `timestamp` being when the event happened (the same on every try).
 * The triggers of migration 022 store what an event describes as it was; a message is stored as its
 * row and answered here in the API's own shape (`toMessage`), so receivers see what
 * `GET /v1/conversations/{id}/messages` answers.
 */
import { iso } from '../db/json.ts';
import { toMessage, type MessageRow } from '../conversations/message-row.ts';

export interface StoredEvent {
  type: string;
  data: Record<string, unknown>;
  occurred_at: Date | string;
}

export function eventBody(event: StoredEvent): string {
  const data =
    event.type === 'message.created'
      ? { ...event.data, message: toMessage(event.data.message as MessageRow) }
      : event.type === 'conversation.started'
        ? { conversation: { ...(event.data.conversation as object), created_at: iso((event.data.conversation as { created_at: string }).created_at) } }
        : event.data;
  return JSON.stringify({ type: event.type, timestamp: iso(event.occurred_at), data });
}
