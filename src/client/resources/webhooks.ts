/** `/webhooks`: an account's outgoing webhook subscriptions, their delivery log, redelivery and a test event. */
import { segment, type HttpCore } from '../http.js';
import type { ApiResult, RequestOptions } from '../options.js';
import type { CreatedWebhook, Page, WebhookDeliveriesQuery, WebhookDelivery, WebhookRequest, WebhookSubscription } from '../types.js';

const path = (id: string) => `/webhooks/${segment(id, 'webhookId')}`;

export class WebhooksResource {
  constructor(private readonly core: HttpCore) {}

  list(options?: RequestOptions): Promise<ApiResult<{ items: WebhookSubscription[] }>> {
    return this.core.request({ method: 'GET', path: '/webhooks' }, options);
  }

  /** Subscribes a URL; the answer's `secret` is never returned again. */
  create(body: WebhookRequest, options?: RequestOptions): Promise<ApiResult<CreatedWebhook>> {
    return this.core.request({ method: 'POST', path: '/webhooks', body }, options);
  }

  update(id: string, body: Partial<WebhookRequest>, options?: RequestOptions): Promise<ApiResult<WebhookSubscription>> {
    return this.core.request({ method: 'PATCH', path: path(id), body }, options);
  }

  delete(id: string, options?: RequestOptions): Promise<ApiResult<{ id: string; deleted: true }>> {
    return this.core.request({ method: 'DELETE', path: path(id) }, options);
  }

  rotateSecret(id: string, options?: RequestOptions): Promise<ApiResult<{ id: string; secret: string }>> {
    return this.core.request({ method: 'POST', path: `${path(id)}/rotate-secret` }, options);
  }

  /** Queues a `webhook.test` event for this subscription. */
  test(id: string, options?: RequestOptions): Promise<ApiResult<WebhookDelivery>> {
    return this.core.request({ method: 'POST', path: `${path(id)}/test` }, options);
  }

  deliveries(id: string, query: WebhookDeliveriesQuery = {}, options?: RequestOptions): Promise<ApiResult<Page<WebhookDelivery>>> {
    return this.core.request({ method: 'GET', path: `${path(id)}/deliveries`, query: { ...query } }, options);
  }

  redeliver(id: string, deliveryId: string, options?: RequestOptions): Promise<ApiResult<WebhookDelivery>> {
    return this.core.request({ method: 'POST', path: `${path(id)}/deliveries/${segment(deliveryId, 'deliveryId')}/redeliver` }, options);
  }
}
