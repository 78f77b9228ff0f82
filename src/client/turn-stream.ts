/**
 * A streamed turn, the same on both endpoints that answer one (`POST /chat` and
 * `POST /bots/{id}/messages` with `stream: true`): `meta`, then `delta`s, then `done` carrying the
 * endpoint's success envelope; an SSE `error` frame is thrown as an `ApiError`.
 */
import { errorFromEnvelope, interpretBody, invalidResponse, isErrorEnvelope, isSuccessEnvelope } from './envelope.js';
import type { Attempt, HttpCore } from './http.js';
import type { ApiResult, RequestOptions } from './options.js';
import { parseSse } from './sse.js';
import { ERROR_STATUS, type TurnStreamEvents } from './types.js';

/** One event of a streamed turn whose `done` carries `Reply`. */
export type TurnStreamEvent<Reply> =
  | { type: 'meta'; data: TurnStreamEvents<Reply>['meta'] }
  | { type: 'delta'; data: TurnStreamEvents<Reply>['delta'] }
  | { type: 'done'; data: TurnStreamEvents<Reply>['done'] };

/** What every turn reply has, whichever endpoint answered it. */
interface TurnReply {
  conversation_id: string;
  message: { content: string };
}

type Opened<Reply> =
  | { kind: 'sse'; response: Response; body: ReadableStream<Uint8Array>; attempt: Attempt }
  | { kind: 'envelope'; result: ApiResult<Reply> };

/**
 * POSTs `body` (which asks for a stream) to `path` and yields its events. Retried like any POST
 * only until the stream starts. Breaking out of the loop cancels the request.
 */
export async function* streamTurn<Reply extends TurnReply>(
  core: HttpCore,
  path: string,
  body: object,
  options: RequestOptions = {},
): AsyncGenerator<TurnStreamEvent<Reply>, void, undefined> {
  const opened = await core.open<Opened<Reply>>({ method: 'POST', path, body }, options, 'text/event-stream', openStream<Reply>);
  if (opened.kind === 'envelope') {
    // The server answered with plain JSON (e.g. a proxy that buffers): replay it as events.
    const { data, meta } = opened.result;
    yield { type: 'meta', data: { request_id: meta.request_id, conversation_id: data.conversation_id } };
    yield { type: 'delta', data: { text: data.message.content } };
    yield { type: 'done', data: { success: true, data, meta } };
    return;
  }
  yield* readEvents<Reply>(opened.response, opened.body, opened.attempt);
}

async function openStream<Reply>(response: Response, attempt: Attempt): Promise<Opened<Reply>> {
  const contentType = response.headers.get('content-type') ?? '';
  if (response.ok && contentType.includes('text/event-stream') && response.body) {
    return { kind: 'sse', response, body: response.body, attempt };
  }
  const text = await response.text();
  attempt.dispose();
  return { kind: 'envelope', result: interpretBody<Reply>(response, text, attempt.target) };
}

async function* readEvents<Reply>(
  response: Response,
  body: ReadableStream<Uint8Array>,
  attempt: Attempt,
): AsyncGenerator<TurnStreamEvent<Reply>, void, undefined> {
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
          yield { type: 'meta', data: parseFrame(event.data, 'meta') as TurnStreamEvents<Reply>['meta'] };
          break;
        case 'delta':
          yield { type: 'delta', data: parseFrame(event.data, 'delta') as TurnStreamEvents<Reply>['delta'] };
          break;
        case 'done': {
          const done = parseFrame(event.data, 'done');
          if (!isSuccessEnvelope(done)) throw invalidResponse(response, attempt.target, 'stream "done" event without a success envelope');
          yield { type: 'done', data: done as TurnStreamEvents<Reply>['done'] };
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
