/**
 * `/v1/webhooks`: an account's webhook subscriptions, their delivery log, redelivery and a test
 * event. The signing secret is answered at creation and by the rotate route only.
 */
import { Hono } from 'hono';
import { accountId, type AppContext, type AppEnv } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { pathId, readJson, readQuery } from '../http/validate.ts';
import { deliveriesQuerySchema, webhookInputSchema, webhookUpdateSchema } from './schema.ts';
import type { WebhookRequest as WebhookInput } from '../../../src/client/types.ts';
import type { WebhookService } from './service.ts';
import type { DeliveryStatus } from './tables.ts';

/** What these routes use of the service graph (services.ts builds it). */
export interface WebhookRouteDeps {
  webhooks: WebhookService;
}

export function webhookRoutes(deps: WebhookRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const { webhooks } = deps;
  const webhookId = (c: AppContext) => pathId(c, 'webhook_id', 'whk', 'webhook');

  router.get('/', async (c) => ok(c, { items: await webhooks.list(accountId(c)) }));
  router.post('/', async (c) => ok(c, await webhooks.create(accountId(c), await readJson<WebhookInput>(c, webhookInputSchema)), 201));
  router.get('/:webhook_id', async (c) => ok(c, await webhooks.get(accountId(c), webhookId(c))));
  router.patch('/:webhook_id', async (c) => {
    const id = webhookId(c);
    return ok(c, await webhooks.update(accountId(c), id, await readJson<Partial<WebhookInput>>(c, webhookUpdateSchema)));
  });
  router.delete('/:webhook_id', async (c) => {
    const id = webhookId(c);
    await webhooks.remove(accountId(c), id);
    return ok(c, { id, deleted: true });
  });
  router.post('/:webhook_id/rotate-secret', async (c) => ok(c, await webhooks.rotateSecret(accountId(c), webhookId(c))));
  router.post('/:webhook_id/test', async (c) => ok(c, await webhooks.sendTest(accountId(c), webhookId(c)), 202));
  router.get('/:webhook_id/deliveries', async (c) => {
    const id = webhookId(c);
    const query = readQuery<{ status?: DeliveryStatus; limit: number; cursor?: string }>(c, deliveriesQuerySchema);
    return ok(c, await webhooks.deliveries(accountId(c), id, query));
  });
  router.post('/:webhook_id/deliveries/:delivery_id/redeliver', async (c) => {
    const id = webhookId(c);
    const deliveryId = pathId(c, 'delivery_id', 'dlv', 'delivery');
    return ok(c, await webhooks.redeliver(accountId(c), id, deliveryId), 202);
  });
  return router;
}
