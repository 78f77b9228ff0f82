/**
 * The delivery queue: every pending delivery of an enabled subscription is claimed by one
 * instance (`FOR UPDATE SKIP LOCKED`), oldest first, and sent. A claim is a lease: the row stays
 * `pending` with its next try moved past the request's deadline, so a process that dies while
 * sending leaves it to be tried again (delivery is at least once; receivers deduplicate on
 * `webhook-id`). A failed try is retried on the schedule below, or after the receiver's
 * `Retry-After`; a subscription whose tries have all failed for `disableAfterDays` is disabled.
 */
import { setMaxListeners } from 'node:events';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Logger } from '../logger.ts';
import type { Sealed, SecretBox } from '../db/secrets.ts';
import { postWebhook, type PostResult } from './http.ts';
import type { WebhookConfig } from './options.ts';
import { eventBody } from './payload.ts';
import { signedHeaders } from './signing.ts';
import type { WebhookDatabase } from './tables.ts';

/** Waits after the 1st, 2nd… failed try: about 23.7 hours in all, then the delivery has failed. */
export const RETRY_SCHEDULE_MS = [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000, 28_800_000];
/** Tries of one delivery, the first included. */
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;
/** Rows sent at once by one instance. */
const BATCH = 16;
/** A claim outlives the request's deadline by this much before another instance may take the row. */
const LEASE_MARGIN_MS = 60_000;

interface ClaimedRow {
  id: string;
  subscription_id: string;
  event_id: string;
  type: string;
  data: Record<string, unknown>;
  occurred_at: Date | string;
  attempts: number;
  url: string;
  secret: string | null;
  secret_sealed: Sealed | null;
}

export class DeliveryQueue {
  private readonly inFlight = new AbortController();

  constructor(
    private readonly db: Kysely<WebhookDatabase>,
    private readonly config: WebhookConfig,
    private readonly logger: Logger,
    private readonly box: SecretBox,
  ) {
    // Each request of a batch listens to this one signal while it is in flight.
    setMaxListeners(BATCH, this.inFlight.signal);
  }

  /** Claims the due deliveries and sends them; the number claimed. */
  async runOnce(): Promise<number> {
    const now = this.config.now();
    const leaseUntil = new Date(now + this.config.requestTimeoutMs + LEASE_MARGIN_MS);
    const claimed = await sql<ClaimedRow>`
      with claimed as (
        update webhook_deliveries set attempts = attempts + 1, next_attempt_at = ${leaseUntil}
        where id in (
          select d.id from webhook_deliveries d join webhook_subscriptions s on s.id = d.subscription_id
          where d.status = 'pending' and (d.next_attempt_at is null or d.next_attempt_at <= ${new Date(now)}) and s.enabled
          order by d.seq limit ${BATCH}
          for update of d skip locked)
        returning id, subscription_id, event_id, type, data, occurred_at, attempts)
      select claimed.*, s.url, s.secret, s.secret_sealed from claimed join webhook_subscriptions s on s.id = claimed.subscription_id`.execute(this.db);
    await Promise.all(claimed.rows.map((row) => this.send(row)));
    return claimed.rows.length;
  }

  /** Stops: requests in flight are abandoned (their rows are tried again once their lease ends). */
  close(): void {
    this.inFlight.abort();
  }

  private async send(row: ClaimedRow): Promise<void> {
    try {
      const secret = this.secretOf(row);
      if (secret === undefined) {
        await this.record(row, { status: null, response: null, error: 'the signing secret cannot be read: the key that sealed it is not configured' });
        return;
      }
      const body = eventBody(row);
      const headers = signedHeaders(secret, row.event_id, new Date(this.config.now()), body);
      const result = await postWebhook(new URL(row.url), body, headers, {
        allowPrivateHosts: this.config.allowPrivateHosts,
        timeoutMs: this.config.requestTimeoutMs,
        now: this.config.now,
        signal: this.inFlight.signal,
      });
      if (this.inFlight.signal.aborted) return;
      await this.record(row, result);
    } catch (error) {
      // Not the receiver's answer (a closed database): the lease ends and the row is tried again.
      this.logger.error('a webhook delivery was not recorded', { delivery_id: row.id, error: error instanceof Error ? error.message : String(error) });
    }
  }

  /** The subscription's signing secret; undefined when it is sealed by a key this service lacks. */
  private secretOf(row: ClaimedRow): string | undefined {
    if (row.secret !== null) return row.secret;
    try {
      return this.box.open(row.secret_sealed!, row.subscription_id).secret;
    } catch {
      return undefined;
    }
  }

  private async record(row: ClaimedRow, result: PostResult): Promise<void> {
    const at = new Date(this.config.now());
    const answered = { last_status: result.status, last_response: result.response, last_error: result.error ?? null };
    if (result.status !== null && result.status >= 200 && result.status < 300) {
      await this.db.updateTable('webhook_deliveries').set({ ...answered, status: 'delivered', delivered_at: at, next_attempt_at: null }).where('id', '=', row.id).execute();
      await this.db.updateTable('webhook_subscriptions').set({ failing_since: null }).where('id', '=', row.subscription_id).where('failing_since', 'is not', null).execute();
      return;
    }
    const wait = result.retryAfterMs ?? RETRY_SCHEDULE_MS[row.attempts - 1];
    const retry = row.attempts < MAX_ATTEMPTS && wait !== undefined;
    await this.db
      .updateTable('webhook_deliveries')
      .set({ ...answered, status: retry ? 'pending' : 'failed', next_attempt_at: retry ? new Date(at.getTime() + wait) : null })
      .where('id', '=', row.id)
      .execute();
    await this.failing(row.subscription_id, at);
  }

  /** Starts or continues the subscription's failure streak; past the limit, disables it. */
  private async failing(subscriptionId: string, at: Date): Promise<void> {
    const limit = new Date(at.getTime() - this.config.disableAfterDays * 24 * 3_600_000);
    const days = this.config.disableAfterDays;
    await sql`update webhook_subscriptions set
        failing_since = coalesce(failing_since, ${at}),
        enabled = enabled and not coalesce(failing_since < ${limit}, false),
        disabled_reason = case when failing_since < ${limit} then ${`Every delivery failed for ${days} days; enable it again once the receiver is fixed.`} else disabled_reason end,
        updated_at = case when failing_since < ${limit} then now() else updated_at end
      where id = ${subscriptionId}`.execute(this.db);
  }
}
