/** `/bots`: intent bots with training data, and messages to them. */
import { segment, type HttpCore } from '../http.js';
import type { ApiResult, RequestOptions } from '../options.js';
import { streamTurn, type TurnStreamEvent } from '../turn-stream.js';
import type { Bot, BotMessageRequest, BotReply, ClassifyRequest, CreateBotRequest, Deletion, IntentClassification, IntentQuality, Page, PageQuery, UpdateBotRequest } from '../types.js';

/** One event of {@link BotsResource.streamMessage}. An SSE `error` frame is thrown as an `ApiError` instead. */
export type BotStreamEvent = TurnStreamEvent<BotReply>;

/** `POST /bots/{id}/messages` with `stream: true` (see {@link BotsResource.streamMessage}). */
export function streamBotMessage(core: HttpCore, botId: string, body: BotMessageRequest, options: RequestOptions = {}): AsyncGenerator<BotStreamEvent, void, undefined> {
  return streamTurn<BotReply>(core, `/bots/${segment(botId, 'botId')}/messages`, { ...body, stream: true }, options);
}

/**
 * What a bot's visitor asks of it: its profile, and replies to messages. The widget's client is built
 * on this alone (src/widget/connection/widget-client.ts), so the admin methods stay out of the one-`<script>`
 * bundle, and so does streaming, which the widget loads only when a page asks for streamed replies.
 */
export class BotRepliesResource {
  constructor(protected readonly core: HttpCore) {}

  get(botId: string, options?: RequestOptions): Promise<ApiResult<Bot>> {
    return this.core.request({ method: 'GET', path: `/bots/${segment(botId, 'botId')}` }, options);
  }

  /**
   * `POST /bots/{id}/messages`: the bot's reply to one user message (answered as `POST /chat` with
   * this bot answers), stored in the user's open conversation with the bot.
   */
  sendMessage(botId: string, body: BotMessageRequest, options?: RequestOptions): Promise<ApiResult<BotReply>> {
    return this.core.request({ method: 'POST', path: `/bots/${segment(botId, 'botId')}/messages`, body }, options);
  }

}

export class BotsResource extends BotRepliesResource {
  /**
   * `POST /bots/{id}/messages` with `stream: true`: the same events as `chat.stream` — `meta`, then
   * `delta`s, then `done`, whose envelope holds the whole `BotReply`.
   */
  streamMessage(botId: string, body: BotMessageRequest, options: RequestOptions = {}): AsyncGenerator<BotStreamEvent, void, undefined> {
    return streamBotMessage(this.core, botId, body, options);
  }
  /** `POST /bots`; trains the bot before answering when `training` is given. */
  create(body: CreateBotRequest, options?: RequestOptions): Promise<ApiResult<Bot>> {
    return this.core.request({ method: 'POST', path: '/bots', body }, options);
  }

  /** `GET /bots`, cursor-paginated. */
  list(query: PageQuery = {}, options?: RequestOptions): Promise<ApiResult<Page<Bot>>> {
    return this.core.request({ method: 'GET', path: '/bots', query: { ...query } }, options);
  }

  /** `PUT /bots/{id}` with any subset of the fields. */
  update(botId: string, body: UpdateBotRequest, options?: RequestOptions): Promise<ApiResult<Bot>> {
    return this.core.request({ method: 'PUT', path: `/bots/${segment(botId, 'botId')}`, body }, options);
  }

  /**
   * `GET /bots/{id}/quality`: cross-validation of the bot's trained model on its own examples
   * (accuracy per intent, confused pairs, likely mislabelled examples, calibrated threshold).
   */
  quality(botId: string, options?: RequestOptions): Promise<ApiResult<IntentQuality>> {
    return this.core.request({ method: 'GET', path: `/bots/${segment(botId, 'botId')}/quality` }, options);
  }

  /**
   * `POST /bots/{id}/classify`: the three most probable intents for `text` and whether the bot
   * would fall back; stores no conversation and counts in no analytics.
   */
  classify(botId: string, body: ClassifyRequest, options?: RequestOptions): Promise<ApiResult<IntentClassification>> {
    return this.core.request({ method: 'POST', path: `/bots/${segment(botId, 'botId')}/classify`, body }, options);
  }

  /** `DELETE /bots/{id}`: the bot goes with every conversation started with it (messages included). */
  delete(botId: string, options?: RequestOptions): Promise<ApiResult<Deletion>> {
    return this.core.request({ method: 'DELETE', path: `/bots/${segment(botId, 'botId')}` }, options);
  }
}
