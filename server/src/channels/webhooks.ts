/**
 * The platforms' webhooks: `/v1/channels/{telegram|whatsapp|slack}/{channel_id}`. Public (the platform
 * has no API key) and outside the account's API budget, but bounded: a body cap, and a budget per
 * channel id (checked before the channel is read, so a flood of one id costs no database reads).
 * A delivery is verified, stored and acknowledged at once; the bot answers from the queue. A signed
 * handshake (Slack's `url_verification`) is answered with its challenge as text.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from '../http/body-limit.ts';
import type { AppContext, AppEnv } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { ServiceError } from '../http/errors.ts';
import { pathId, readQuery } from '../http/validate.ts';
import type { ChannelService } from './service.ts';
import type { RateLimits } from '../rate-limit/limiter.ts';
import { CHANNEL_TYPES } from './adapters.ts';
import { whatsappHandshakeQuerySchema } from './schema.ts';
import { idPatternOf } from '../ids.ts';

const CHANNEL_ID = new RegExp(idPatternOf('chn'));

/** What these routes use of the service graph (services.ts builds it). */
export interface WebhookRouteDeps {
  rateLimits: RateLimits;
  channels: ChannelService;
}

export function channelWebhookRoutes(deps: WebhookRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const { maxWebhookBytes, webhookRatePerMinute } = deps.channels.config;
  const plan = { points: webhookRatePerMinute, durationSeconds: 60 };
  const channelId = (c: AppContext) => pathId(c, 'channel_id', 'chn', 'channel');

  /**
   * One budget per channel: a flood on one channel leaves the others (and the API) alone. Ids that
   * cannot be a channel's share one budget, charged before their 404 so it carries the rate-limit
   * headers every answer does: a flood of them costs no database read and touches no real channel.
   */
  const limited: MiddlewareHandler<AppEnv> = async (c, next) => {
    const id = c.req.param('channel_id') ?? '';
    const key = CHANNEL_ID.test(id) ? `chn:${id}` : 'chn:(not an id)';
    const result = await deps.rateLimits.consume(key, plan);
    c.header('X-RateLimit-Limit', String(result.info.limit));
    c.header('X-RateLimit-Remaining', String(result.info.remaining));
    c.header('X-RateLimit-Reset', String(result.info.reset));
    if (!result.allowed) {
      throw new ServiceError('rate_limited', 'Too many deliveries to this channel; retry later.', {
        headers: { 'Retry-After': String(result.retryAfterSeconds) },
      });
    }
    await next();
  };

  for (const type of CHANNEL_TYPES) {
    router.post(`/${type}/:channel_id`, limited, bodyLimit(maxWebhookBytes), async (c) => {
      const { received, challenge } = await deps.channels.receive(type, channelId(c), new Uint8Array(await c.req.arrayBuffer()), c.req.raw.headers);
      if (challenge !== undefined) return c.text(challenge, 200, { 'Cache-Control': 'no-store' });
      return ok(c, { received });
    });
  }
  router.get('/whatsapp/:channel_id', limited, async (c) => {
    const query = readQuery<Record<string, string | undefined>>(c, whatsappHandshakeQuerySchema);
    const challenge = await deps.channels.handshake(channelId(c), query);
    return c.text(challenge, 200, { 'Cache-Control': 'no-store' });
  });
  return router;
}
