/** `/chat`: one-shot replies, streamed replies (SSE) and history. */
import type { HttpCore } from '../http.js';
import type { ApiResult, RequestOptions } from '../options.js';
import { streamTurn, type TurnStreamEvent } from '../turn-stream.js';
import type { ChatReply, ChatRequest, HistoryPage, HistoryQuery } from '../types.js';

/** One event of {@link ChatResource.stream}. An SSE `error` frame is thrown as an `ApiError` instead. */
export type ChatStreamEvent = TurnStreamEvent<ChatReply>;

/** `POST /chat` with `stream: true` (see {@link ChatResource.stream}). */
export function streamChat(core: HttpCore, body: ChatRequest, options: RequestOptions = {}): AsyncGenerator<ChatStreamEvent, void, undefined> {
  return streamTurn<ChatReply>(core, '/chat', { ...body, stream: true }, options);
}

/**
 * `/chat` without streaming. The widget's client is built on this (src/widget/connection/widget-client.ts): it
 * loads the streaming code only when a page asks for streamed replies.
 */
export class ChatRepliesResource {
  constructor(protected readonly core: HttpCore) {}

  /** `POST /chat` with `stream: false`. */
  send(body: ChatRequest, options?: RequestOptions): Promise<ApiResult<ChatReply>> {
    return this.core.request({ method: 'POST', path: '/chat', body: { ...body, stream: false } }, options);
  }

  /** `GET /chat/history`: messages oldest → newest, cursor-paginated. */
  history(query: HistoryQuery, options?: RequestOptions): Promise<ApiResult<HistoryPage>> {
    return this.core.request({ method: 'GET', path: '/chat/history', query: { ...query } }, options);
  }
}

export class ChatResource extends ChatRepliesResource {
  /**
   * `POST /chat` with `stream: true`: yields `meta`, then `delta`s, then `done` (whose envelope
   * holds the full reply; the deltas concatenate to its `message.content`). Retried like any POST
   * only until the stream starts. Breaking out of the loop cancels the request.
   *
   * @example
   * for await (const event of client.chat.stream({ messages: [{ role: 'user', content: 'Hi' }] })) {
   *   if (event.type === 'delta') output.textContent += event.data.text;
   * }
   */
  stream(body: ChatRequest, options: RequestOptions = {}): AsyncGenerator<ChatStreamEvent, void, undefined> {
    return streamChat(this.core, body, options);
  }
}
