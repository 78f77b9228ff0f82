/**
 * Outgoing webhooks: an account's subscriptions (CRUD, the signing secret shown once), their
 * delivery log, redelivery and a test event; and the worker that sends the deliveries the triggers
 * of migration 022 queue, on every instance, woken by a timer (the events are written by the
 * database, not by this service) and by redeliveries and tests.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Page, WebhookDelivery as DeliveryView, WebhookRequest as WebhookInput, WebhookSubscription as WebhookView } from '../../../src/client/types.ts';
import { iso, json } from '../db/json.ts';
import type { Database } from '../db/schema.ts';
import { notFound, ServiceError } from '../http/errors.ts';
import { decodeSeqCursor, toPage } from '../http/pagination.ts';
import { newId } from '../ids.ts';
import { assertAllowedLiteral } from '../knowledge/import/addresses.ts';
import { parseImportUrl } from '../knowledge/import/fetcher.ts';
import { ImportIssueError } from '../knowledge/import/issue.ts';
import type { Logger } from '../logger.ts';
import type { SecretBox } from '../db/secrets.ts';
import { QueueWorker } from '../jobs/queue-worker.ts';
import { DeliveryQueue } from './delivery.ts';
import type { WebhookConfig } from './options.ts';
import { newSigningSecret } from './signing.ts';
import { withWebhookTables, type DeliveryStatus, type WebhookDatabase, type WebhookDeliveriesTable, type WebhookSubscriptionsTable } from './tables.ts';

type SubscriptionRow = Selectable<WebhookSubscriptionsTable>;
type DeliveryRow = Selectable<WebhookDeliveriesTable>;

export class WebhookService {
  readonly queue: DeliveryQueue;
  private readonly db: Kysely<WebhookDatabase>;
  private readonly worker: QueueWorker;

  constructor(
    db: Kysely<Database>,
    readonly config: WebhookConfig,
    private readonly logger: Logger,
    /** Seals signing secrets at rest when the service has a key (`AI_CHAT_SECRETS_KEY`). */
    private readonly box: SecretBox,
  ) {
    this.db = withWebhookTables(db);
    this.queue = new DeliveryQueue(this.db, config, logger, box);
    this.worker = new QueueWorker(
      async () => (await this.queue.runOnce()) > 0,
      (error) => logger.error('webhook worker stopped until its next wake-up', { error: error instanceof Error ? error.message : String(error) }),
    );
  }

  // --- subscriptions ---------------------------------------------------------------------------

  async list(accountId: string): Promise<WebhookView[]> {
    const rows = await this.db.selectFrom('webhook_subscriptions').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute();
    return rows.map(toView);
  }

  async get(accountId: string, id: string): Promise<WebhookView> {
    return toView(await this.row(accountId, id));
  }

  /** A new subscription and its signing secret, the only time the secret is answered. */
  async create(accountId: string, input: WebhookInput): Promise<WebhookView & { secret: string }> {
    const url = this.checkedUrl(input.url);
    const id = newId('whk');
    const secret = newSigningSecret();
    const stored = this.stored(id, secret);
    // The count and the insert in one statement: two creates at once cannot both take the last place.
    const row = await sql<SubscriptionRow>`
      insert into webhook_subscriptions (id, account_id, url, description, events, enabled, secret, secret_sealed)
      select ${id}, ${accountId}, ${url}, ${input.description ?? ''}, ${json(input.events)}::jsonb, ${input.enabled ?? true}, ${stored.secret}, ${stored.secret_sealed}::jsonb
      where (select count(*) from webhook_subscriptions where account_id = ${accountId}) < ${this.config.maxSubscriptions}
      returning *`.execute(this.db);
    const created = row.rows[0];
    if (!created) throw new ServiceError('conflict', `An account has at most ${this.config.maxSubscriptions} webhook subscriptions; delete one first.`);
    return { ...toView(created), secret };
  }

  async update(accountId: string, id: string, input: Partial<WebhookInput>): Promise<WebhookView> {
    const url = input.url === undefined ? undefined : this.checkedUrl(input.url);
    const row = await this.db
      .updateTable('webhook_subscriptions')
      .set({
        ...(url !== undefined && { url }),
        ...(input.events && { events: json(input.events) }),
        ...(input.description !== undefined && { description: input.description }),
        ...(input.enabled !== undefined && { enabled: input.enabled }),
        // Enabled by hand: the failure streak starts again.
        ...(input.enabled && { failing_since: null, disabled_reason: null }),
        updated_at: sql`now()`,
      })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw notFound('webhook_id', 'webhook');
    if (input.enabled) this.kick();
    return toView(row);
  }

  /** Deletes the subscription and its delivery log. */
  async remove(accountId: string, id: string): Promise<void> {
    const row = await this.db.deleteFrom('webhook_subscriptions').where('account_id', '=', accountId).where('id', '=', id).returning('id').executeTakeFirst();
    if (!row) throw notFound('webhook_id', 'webhook');
  }

  /** A new signing secret; the old one stops signing at once. */
  async rotateSecret(accountId: string, id: string): Promise<{ id: string; secret: string }> {
    const secret = newSigningSecret();
    const row = await this.db.updateTable('webhook_subscriptions').set({ ...this.stored(id, secret), updated_at: sql`now()` }).where('account_id', '=', accountId).where('id', '=', id).returning('id').executeTakeFirst();
    if (!row) throw notFound('webhook_id', 'webhook');
    return { id, secret };
  }

  // --- deliveries ------------------------------------------------------------------------------

  /** The delivery log, newest first. */
  async deliveries(accountId: string, id: string, query: { status?: DeliveryStatus; limit: number; cursor?: string }): Promise<Page<DeliveryView>> {
    await this.row(accountId, id);
    let select = this.db.selectFrom('webhook_deliveries').selectAll().where('subscription_id', '=', id).where('account_id', '=', accountId);
    if (query.status) select = select.where('status', '=', query.status);
    if (query.cursor) select = select.where('seq', '<', decodeSeqCursor(query.cursor));
    const rows = await select.orderBy('seq', 'desc').limit(query.limit + 1).execute();
    return toPage(rows, query.limit, toDeliveryView, (row) => ({ seq: String(row.seq) }));
  }

  /** Sends a delivery again now (its event id and body unchanged); one more try when it had failed. */
  async redeliver(accountId: string, id: string, deliveryId: string): Promise<DeliveryView> {
    await this.enabledRow(accountId, id);
    const row = await this.db
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', next_attempt_at: null })
      .where('id', '=', deliveryId)
      .where('subscription_id', '=', id)
      .where('account_id', '=', accountId)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw notFound('delivery_id', 'delivery');
    this.kick();
    return toDeliveryView(row);
  }

  /** Queues a `webhook.test` event for this subscription alone, whatever it is subscribed to. */
  async sendTest(accountId: string, id: string): Promise<DeliveryView> {
    await this.enabledRow(accountId, id);
    const row = await this.db
      .insertInto('webhook_deliveries')
      .values({ id: newId('dlv'), subscription_id: id, account_id: accountId, event_id: newId('evt'), type: 'webhook.test', data: json({ webhook_id: id, message: 'A test event from the dashboard or the API.' }) })
      .returningAll()
      .executeTakeFirstOrThrow();
    this.kick();
    return toDeliveryView(row);
  }

  // --- the worker ------------------------------------------------------------------------------

  /** Seals the signing secrets kept in the clear or under an old key (when there is a key), then starts the worker. */
  async start(): Promise<void> {
    await this.sealSecrets();
    this.worker.start(this.config.pollMs);
  }

  /** A signing secret as its row stores it: sealed for subscription `id` when there is a key. */
  private stored(id: string, secret: string): { secret: string | null; secret_sealed: string | null } {
    return this.box.currentKeyId ? { secret: null, secret_sealed: json(this.box.seal({ secret }, id)) } : { secret, secret_sealed: null };
  }

  /**
   * Rows written before the service had a key (or under a key since rotated) are sealed under the
   * current one; each update names what it read, so a rotation meanwhile is never overwritten.
   */
  private async sealSecrets(): Promise<void> {
    const current = this.box.currentKeyId;
    if (!current) return;
    const rows = await this.db
      .selectFrom('webhook_subscriptions')
      .select(['id', 'secret', 'secret_sealed'])
      .where((eb) => eb.or([eb('secret', 'is not', null), eb(sql<string>`secret_sealed->>'key_id'`, '<>', current)]))
      .execute();
    let unreadable = 0;
    for (const row of rows) {
      if (row.secret_sealed && !this.box.stale(row.secret_sealed)) {
        unreadable++;
        continue;
      }
      const secret = row.secret ?? this.box.open(row.secret_sealed!, row.id).secret!;
      await this.db
        .updateTable('webhook_subscriptions')
        .set(this.stored(row.id, secret))
        .where('id', '=', row.id)
        .where((eb) => (row.secret !== null ? eb('secret', '=', row.secret) : eb(sql<string>`secret_sealed->>'key_id'`, '=', row.secret_sealed!.key_id)))
        .execute();
    }
    if (unreadable) this.logger.error('webhook signing secrets sealed by a key that is not configured cannot be read', { subscriptions: unreadable });
  }

  /** Wakes the worker (a redelivery, a test event, a subscription enabled again). */
  kick(): void {
    this.worker.kick();
  }

  /** Resolves once no delivery is due now (tests move the clock, then drain). */
  drain(): Promise<void> {
    return this.worker.drain();
  }

  async close(): Promise<void> {
    this.queue.close();
    await this.worker.close();
  }

  // --- helpers ---------------------------------------------------------------------------------

  private async row(accountId: string, id: string): Promise<SubscriptionRow> {
    const row = await this.db.selectFrom('webhook_subscriptions').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('webhook_id', 'webhook');
    return row;
  }

  private async enabledRow(accountId: string, id: string): Promise<SubscriptionRow> {
    const row = await this.row(accountId, id);
    if (!row.enabled) throw new ServiceError('conflict', 'The webhook is disabled: enable it before sending to it.', { param: 'webhook_id' });
    return row;
  }

  /**
   * The URL, or a 400 naming why it can never be delivered to: its scheme, credentials
   * (`validation_failed`), or a host written as a private address (`url_not_allowed`); a name is
   * checked on the addresses it resolves to at each delivery.
   */
  private checkedUrl(raw: string): string {
    try {
      const url = parseImportUrl(raw);
      assertAllowedLiteral(url.hostname, this.config.allowPrivateHosts);
      return url.href;
    } catch (error) {
      if (!(error instanceof ImportIssueError)) throw error;
      if (error.code === 'private_address') throw new ServiceError('url_not_allowed', `Invalid body: url ${url(raw)} is a private, loopback or reserved address; webhooks reach public hosts only.`, { param: 'url' });
      const message = error.code === 'credentials_in_url' ? 'must not carry a user name or password' : 'must be an absolute http: or https: URL';
      throw new ServiceError('validation_failed', `Invalid body: url ${message}.`, { param: 'url', details: [{ path: '/url', message: `${error.code}: url ${message}` }] });
    }
  }
}

const url = (raw: string) => JSON.stringify(raw.slice(0, 100));

function toView(row: SubscriptionRow): WebhookView {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    enabled: row.enabled,
    disabled_reason: row.disabled_reason,
    failing_since: iso(row.failing_since),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

function toDeliveryView(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    event_id: row.event_id,
    type: row.type,
    status: row.status,
    attempts: row.attempts,
    last_status: row.last_status,
    last_error: row.last_error,
    last_response: row.last_response,
    next_attempt_at: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    delivered_at: iso(row.delivered_at),
    occurred_at: iso(row.occurred_at),
  };
}
