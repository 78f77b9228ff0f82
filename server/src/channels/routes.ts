/**
 * `/v1/bots/{bot_id}/channels/{telegram|whatsapp|slack}`: connect (PUT), read (GET), disconnect (DELETE)
 * a bot's channel on a platform; send it a test message (`/test`, through the outbox), register or
 * remove its webhook where the platform has an API for that (`/webhook`); list the bot's channels
 * (`GET …/channels`). Answers never carry a credential, only which are set.
 */
import { Hono } from 'hono';
import { accountId, type AppContext, type AppEnv } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { pathId, readJson, type JsonSchema } from '../http/validate.ts';
import type { ChannelService } from './service.ts';
import type { ServiceConfig } from '../config.ts';
import type { ChannelType } from './adapter.ts';
import { channelTestInputSchema, slackChannelInputSchema, telegramChannelInputSchema, whatsappChannelInputSchema } from './schema.ts';

/** What these routes use of the service graph (services.ts builds it). */
export interface ChannelRouteDeps {
  config: Pick<ServiceConfig, 'publicUrls'>;
  channels: ChannelService;
}

const INPUTS: Record<ChannelType, JsonSchema> = { telegram: telegramChannelInputSchema, whatsapp: whatsappChannelInputSchema, slack: slackChannelInputSchema };

/** The service's public URL when configured, else the one this request reached it at. */
export function baseUrlOf(c: AppContext, deps: ChannelRouteDeps): string {
  return deps.config.publicUrls[0] ?? new URL(c.req.url).origin;
}

export function botChannelRoutes(deps: ChannelRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const botId = (c: AppContext) => pathId(c, 'bot_id', 'bot', 'bot');
  for (const type of Object.keys(INPUTS) as ChannelType[]) {
    const path = `/:bot_id/channels/${type}`;
    router.get(path, async (c) => ok(c, await deps.channels.read(accountId(c), botId(c), type, baseUrlOf(c, deps))));
    router.put(path, async (c) => {
      const id = botId(c);
      const input = await readJson<Record<string, string>>(c, INPUTS[type]);
      return ok(c, await deps.channels.connect(accountId(c), id, type, input, baseUrlOf(c, deps)));
    });
    router.delete(path, async (c) => {
      const id = await deps.channels.disconnect(accountId(c), botId(c), type);
      return ok(c, { id, deleted: true });
    });
    router.post(`${path}/test`, async (c) => {
      const id = botId(c);
      const input = await readJson<{ chat?: string; text?: string }>(c, channelTestInputSchema, { optional: true });
      return ok(c, await deps.channels.sendTest(accountId(c), id, type, input), 202);
    });
    router.get(`${path}/test/:test_id`, async (c) => ok(c, await deps.channels.testMessage(accountId(c), botId(c), type, pathId(c, 'test_id', 'msg', 'test message'))));
    if (!deps.channels.adapters[type].connect) continue; // the platform has no API for its webhook
    router.post(`${path}/webhook`, async (c) => ok(c, await deps.channels.registerWebhook(accountId(c), botId(c), type, baseUrlOf(c, deps))));
    router.delete(`${path}/webhook`, async (c) => ok(c, await deps.channels.removeWebhook(accountId(c), botId(c), type, baseUrlOf(c, deps))));
  }
  router.get('/:bot_id/channels', async (c) => ok(c, await deps.channels.list(accountId(c), botId(c), baseUrlOf(c, deps))));
  return router;
}
