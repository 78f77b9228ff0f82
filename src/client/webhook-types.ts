/** Outgoing webhooks (`/webhooks`): subscriptions and their delivery log (docs/webhooks.md). */

/** What a subscription can take; `webhook.test` comes only from `webhooks.test()`. */
export type WebhookEventType = 'conversation.started' | 'message.created' | 'handoff.requested' | 'handoff.taken' | 'handoff.closed' | 'feedback.given' | 'csat.given';

export interface WebhookSubscription {
  id: string;
  url: string;
  events: WebhookEventType[];
  description: string;
  enabled: boolean;
  /** Why the service disabled it (every delivery failing for days); null when it did not. */
  disabled_reason: string | null;
  /** Since when every try has failed; null once one succeeds. */
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}

/** A new subscription with its signing secret (`whsec_…`), the only answer that carries it. */
export interface CreatedWebhook extends WebhookSubscription {
  secret: string;
}

export interface WebhookRequest {
  url: string;
  events: WebhookEventType[];
  description?: string;
  enabled?: boolean;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookDelivery {
  id: string;
  /** The `webhook-id` header: the same on every try. */
  event_id: string;
  type: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  /** The start of the receiver's last answer (at most 1 KiB). */
  last_response: string | null;
  next_attempt_at: string | null;
  delivered_at: string | null;
  occurred_at: string;
}

export interface WebhookDeliveriesQuery {
  status?: WebhookDeliveryStatus;
  limit?: number;
  cursor?: string;
}
