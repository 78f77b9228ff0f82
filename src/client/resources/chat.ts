/** `/chat`: one-shot replies, streamed replies (SSE) and history. */
import { errorFromEnvelope, interpretBody, invalidResponse, isErrorEnvelope, isSuccessEnvelope } from '../envelope.js';
import type { Attempt, HttpCore } from '../http.js';
import type { ApiResult, RequestOptions } from '../options.js';
import { parseSse } from '../sse.js';
import {
  ERROR_STATUS,
  type ChatReply,
  type ChatRequest,
  type ChatStreamEvents,
  type HistoryPage,
  type HistoryQuery,
} from '../types.js';

/** One event of {@link ChatResource.stream}. An SSE `error` frame is thrown as an `ApiError` instead. */
export type ChatStreamEvent =
  | { type: 'meta'; data: ChatStreamEvents['meta'] }
  | { type: 'delta'; data: ChatStreamEvents['delta'] }
  | { type: 'done'; data: ChatStreamEvents['done'] };

type Opened =
  | { kind: 'sse'; response: Response; body: ReadableStream<Uint8Array>; attempt: Attempt }
  | { kind: 'envelope'; result: ApiResult<ChatReply> };

export class ChatResource {
  constructor(private readonly core: HttpCore) {}

  /** `POST /chat` with `stream: false`. */
  send(body: ChatRequest, options?: RequestOptions): Promise<ApiResult<ChatReply>> {
    return this.core.request({ method: 'POST', path: '/chat', body: { ...body, stream: false } }, options);
  }

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
  async *stream(body: ChatRequest, options: RequestOptions = {}): AsyncGenerator<ChatStreamEvent, void, undefined> {
    const opened = await this.core.open<Opened>(
      { method: 'POST', path: '/chat', body: { ...body, stream: true } },
      options,
      'text/event-stream',
      openStream,
    );
    if (opened.kind === 'envelope') {
      // The server answered with plain JSON (e.g. a proxy that buffers): replay it as events.
      const { data, meta } = opened.result;
      yield { type: 'meta', data: { request_id: meta.request_id, conversation_id: data.conversation_id } };
      yield { type: 'delta', data: { text: data.message.content } };
      yield { type: 'done', data: { success: true, data, meta } };
      return;
    }
    yield* readEvents(opened.response, opened.body, opened.attempt);
  }

  /** `GET /chat/history`: messages oldest → newest, cursor-paginated. */
  history(query: HistoryQuery, options?: RequestOptions): Promise<ApiResult<HistoryPage>> {
    return this.core.request({ method: 'GET', path: '/chat/history', query: { ...query } }, options);
  }
}

async function openStream(response: Response, attempt: Attempt): Promise<Opened> {
  const contentType = response.headers.get('content-type') ?? '';
  if (response.ok && contentType.includes('text/event-stream') && response.body) {
    return { kind: 'sse', response, body: response.body, attempt };
  }
  const text = await response.text();
  attempt.dispose();
  return { kind: 'envelope', result: interpretBody<ChatReply>(response, text, attempt.target) };
}

async function* readEvents(
  response: Response,
  body: ReadableStream<Uint8Array>,
  attempt: Attempt,
): AsyncGenerator<ChatStreamEvent, void, undefined> {
  const parseFrame = (data: string, event: string): unknown => {
    try {
      return JSON.parse(data);
    } catch (error) {
      throw invalidResponse(response, attempt.target, `malformed JSON in the stream's "${event}" event`, error);
    }
  };
  try {
    for await (const event of parseSse(body, () => attempt.restartTimer())) {
      attempt.throwIfAborted(); // events already buffered must not outlive an abort
      switch (event.event) {
        case 'meta':
          yield { type: 'meta', data: parseFrame(event.data, 'meta') as ChatStreamEvents['meta'] };
          break;
        case 'delta':
          yield { type: 'delta', data: parseFrame(event.data, 'delta') as ChatStreamEvents['delta'] };
          break;
        case 'done': {
          const done = parseFrame(event.data, 'done');
          if (!isSuccessEnvelope(done)) throw invalidResponse(response, attempt.target, 'stream "done" event without a success envelope');
          yield { type: 'done', data: done as ChatStreamEvents['done'] };
          return;
        }
        case 'error': {
          const frame = parseFrame(event.data, 'error');
          if (!isErrorEnvelope(frame)) throw invalidResponse(response, attempt.target, 'stream "error" event without an error envelope');
          throw errorFromEnvelope(frame, response, attempt.target, ERROR_STATUS[frame.error.code] ?? 500);
        }
        default:
          break; // events this client version does not know (e.g. `citation`) are skipped
      }
    }
  } catch (error) {
    throw attempt.toError(error);
  } finally {
    attempt.dispose();
  }
  throw invalidResponse(response, attempt.target, 'stream ended before its "done" event');
}
