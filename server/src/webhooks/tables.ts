/** Table types of migration 022 (webhooks), joined with `withWebhookTables(db)` so only webhooks/ knows them. */
import type { ColumnType, Generated, Kysely } from 'kysely';
import type { WebhookEventType } from '../../../src/client/types.ts';
import type { Database, Json } from '../db/schema.ts';
import type { Sealed } from '../db/secrets.ts';

type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type OptionalText = ColumnType<string | null, string | null | undefined, string | null>;

export interface WebhookSubscriptionsTable {
  id: string;
  account_id: string;
  url: string;
  description: Generated<string>;
  events: Json<WebhookEventType[]>;
  enabled: Generated<boolean>;
  /** The signing secret in the clear: only on a service without AI_CHAT_SECRETS_KEY. */
  secret: ColumnType<string | null, string | null | undefined, string | null>;
  /** The signing secret sealed (db/secrets.ts), as `{ secret }`. */
  secret_sealed: ColumnType<Sealed | null, string | null | undefined, string | null>;
  failing_since: NullableTimestamp;
  disabled_reason: OptionalText;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookDeliveriesTable {
  seq: Generated<string>;
  id: string;
  subscription_id: string;
  account_id: string;
  event_id: string;
  type: string;
  data: Json<Record<string, unknown>>;
  occurred_at: Generated<Date>;
  status: ColumnType<DeliveryStatus, DeliveryStatus | undefined>;
  attempts: Generated<number>;
  next_attempt_at: NullableTimestamp;
  last_status: ColumnType<number | null, number | null | undefined, number | null>;
  last_error: OptionalText;
  last_response: OptionalText;
  delivered_at: NullableTimestamp;
}

export type WebhookDatabase = Database & {
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
};

/** The same connection, typed with the tables of migration 022. */
export function withWebhookTables(db: Kysely<Database>): Kysely<WebhookDatabase> {
  return db as unknown as Kysely<WebhookDatabase>;
}
