/** `/bots/{bot_id}/channels`: a bot's connections to messaging platforms, a test message, Telegram's webhook. */
import { segment, type HttpCore } from '../http.js';
import type { ApiResult, RequestOptions } from '../options.js';
import type { ChannelConnection, ChannelConnectRequest, ChannelList, ChannelPlatform, ChannelTestMessage, ChannelTestRequest } from '../types.js';

const list = (botId: string) => `/bots/${segment(botId, 'botId')}/channels`;
const path = (botId: string, platform: ChannelPlatform) => `${list(botId)}/${segment(platform, 'platform')}`;

export class ChannelsResource {
  constructor(private readonly core: HttpCore) {}

  /** The bot's channels with their health, and the platforms the service speaks. */
  list(botId: string, options?: RequestOptions): Promise<ApiResult<ChannelList>> {
    return this.core.request({ method: 'GET', path: list(botId) }, options);
  }

  get(botId: string, platform: ChannelPlatform, options?: RequestOptions): Promise<ApiResult<ChannelConnection>> {
    return this.core.request({ method: 'GET', path: path(botId, platform) }, options);
  }

  /** Connects the bot, or changes what `body` names (Telegram: the service registers the webhook first). */
  connect(botId: string, platform: ChannelPlatform, body: ChannelConnectRequest, options?: RequestOptions): Promise<ApiResult<ChannelConnection>> {
    return this.core.request({ method: 'PUT', path: path(botId, platform), body }, options);
  }

  disconnect(botId: string, platform: ChannelPlatform, options?: RequestOptions): Promise<ApiResult<{ id: string; deleted: true }>> {
    return this.core.request({ method: 'DELETE', path: path(botId, platform) }, options);
  }

  /** Queues a test message through the outbox; follow it with `testMessage()`. */
  sendTest(botId: string, platform: ChannelPlatform, body: ChannelTestRequest = {}, options?: RequestOptions): Promise<ApiResult<ChannelTestMessage>> {
    return this.core.request({ method: 'POST', path: `${path(botId, platform)}/test`, body }, options);
  }

  testMessage(botId: string, platform: ChannelPlatform, testId: string, options?: RequestOptions): Promise<ApiResult<ChannelTestMessage>> {
    return this.core.request({ method: 'GET', path: `${path(botId, platform)}/test/${segment(testId, 'testId')}` }, options);
  }

  /** Registers the webhook with the platform again, where it has an API for it (Telegram `setWebhook`). */
  registerWebhook(botId: string, platform: ChannelPlatform, options?: RequestOptions): Promise<ApiResult<ChannelConnection>> {
    return this.core.request({ method: 'POST', path: `${path(botId, platform)}/webhook` }, options);
  }

  /** Removes the webhook at the platform, keeping the channel (Telegram `deleteWebhook`). */
  removeWebhook(botId: string, platform: ChannelPlatform, options?: RequestOptions): Promise<ApiResult<ChannelConnection>> {
    return this.core.request({ method: 'DELETE', path: `${path(botId, platform)}/webhook` }, options);
  }
}
