/** `/bots`: intent bots with training data, and messages to them. */
import { segment, type HttpCore } from '../http.js';
import type { ApiResult, RequestOptions } from '../options.js';
import { streamTurn, type TurnStreamEvent } from '../turn-stream.js';
import type { Bot, BotMessageRequest, BotReply, CreateBotRequest, Deletion, Page, PageQuery, UpdateBotRequest } from '../types.js';

/** One event of {@link BotsResource.streamMessage}. An SSE `error` frame is thrown as an `ApiError` instead. */
export type BotStreamEvent = TurnStreamEvent<BotReply>;

export class BotsResource {
  constructor(private readonly core: HttpCore) {}

  /** `POST /bots`; trains the bot before answering when `training` is given. */
  create(body: CreateBotRequest, options?: RequestOptions): Promise<ApiResult<Bot>> {
    return this.core.request({ method: 'POST', path: '/bots', body }, options);
  }

  /** `GET /bots`, cursor-paginated. */
  list(query: PageQuery = {}, options?: RequestOptions): Promise<ApiResult<Page<Bot>>> {
    return this.core.request({ method: 'GET', path: '/bots', query: { ...query } }, options);
  }

  get(botId: string, options?: RequestOptions): Promise<ApiResult<Bot>> {
    return this.core.request({ method: 'GET', path: `/bots/${segment(botId, 'botId')}` }, options);
  }

  /** `PUT /bots/{id}` with any subset of the fields. */
  update(botId: string, body: UpdateBotRequest, options?: RequestOptions): Promise<ApiResult<Bot>> {
    return this.core.request({ method: 'PUT', path: `/bots/${segment(botId, 'botId')}`, body }, options);
  }

  /** `DELETE /bots/{id}`: the bot goes with every conversation started with it (messages included). */
  delete(botId: string, options?: RequestOptions): Promise<ApiResult<Deletion>> {
    return this.core.request({ method: 'DELETE', path: `/bots/${segment(botId, 'botId')}` }, options);
  }

  /**
   * `POST /bots/{id}/messages`: the bot's reply to one user message (answered as `POST /chat` with
   * this bot answers), stored in the user's open conversation with the bot.
   */
  sendMessage(botId: string, body: BotMessageRequest, options?: RequestOptions): Promise<ApiResult<BotReply>> {
    return this.core.request({ method: 'POST', path: `/bots/${segment(botId, 'botId')}/messages`, body }, options);
  }

  /**
   * `POST /bots/{id}/messages` with `stream: true`: the same events as `chat.stream` — `meta`, then
   * `delta`s, then `done`, whose envelope holds the whole `BotReply`.
   */
  streamMessage(botId: string, body: BotMessageRequest, options: RequestOptions = {}): AsyncGenerator<BotStreamEvent, void, undefined> {
    return streamTurn<BotReply>(this.core, `/bots/${segment(botId, 'botId')}/messages`, { ...body, stream: true }, options);
  }
}
