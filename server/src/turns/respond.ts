/**
 * A prepared turn as an HTTP answer, the same for every endpoint that answers turns: JSON, or
 * Server-Sent Events — `meta` {request_id, conversation_id}, `delta` {text}…, then `done` with the
 * full success envelope or `error` with the error envelope. Each endpoint only says how a stored
 * turn reads in its response (`toData`). Anything wrong with the request itself was found by
 * `prepare` and is answered as ordinary JSON with its real status, before any stream starts.
 */
import { streamSSE } from 'hono/streaming';
import type { AppContext } from '../http/context.ts';
import { errorBody, ok, successBody } from '../http/envelope.ts';
import { toServiceError } from '../http/error-handler.ts';
import { idempotencyRecorder } from '../http/idempotency.ts';
import type { Logger } from '../logger.ts';
import type { TurnPipeline } from './pipeline.ts';
import type { PreparedTurn, StoredTurn } from './turn.ts';

/** What a turn's response uses: the pipeline that runs it, and the log for a stream that fails. */
export interface TurnResponseDeps {
  turns: TurnPipeline;
  logger: Logger;
}

const PING_MS = 15_000;

/** `stream` in the body decides; without it, an `Accept: text/event-stream` header asks for SSE. */
export function wantsStream(c: AppContext, stream: boolean | undefined): boolean {
  if (stream !== undefined) return stream;
  return (c.req.header('accept') ?? '').includes('text/event-stream');
}

export async function respondWithTurn<T>(
  c: AppContext,
  deps: TurnResponseDeps,
  turn: PreparedTurn,
  options: { stream: boolean; toData: (turn: StoredTurn) => T },
): Promise<Response> {
  if (turn.replay) c.header('Idempotent-Replayed', 'true'); // stored by a request that never got to answer
  if (options.stream) return streamTurn(c, deps, turn, options.toData);
  let stored: StoredTurn | undefined;
  for await (const event of deps.turns.run(turn, c.req.raw.signal)) if (event.type === 'done') stored = event.turn;
  if (stored!.replayed) c.header('Idempotent-Replayed', 'true');
  return ok(c, options.toData(stored!));
}

function streamTurn<T>(c: AppContext, deps: TurnResponseDeps, turn: PreparedTurn, toData: (turn: StoredTurn) => T): Response {
  const recorder = idempotencyRecorder(c);
  c.header('Cache-Control', 'no-cache');
  c.header('X-Accel-Buffering', 'no'); // nginx and friends would otherwise hold the frames back
  return streamSSE(c, async (stream) => {
    const aborter = new AbortController();
    stream.onAbort(() => aborter.abort());
    const ping = setInterval(() => void stream.write(': ping\n\n').catch(() => {}), PING_MS);
    try {
      await stream.writeSSE({ event: 'meta', data: JSON.stringify({ request_id: c.get('requestId'), conversation_id: turn.conversationId }) });
      for await (const event of deps.turns.run(turn, aborter.signal)) {
        if (event.type === 'delta') {
          await stream.writeSSE({ event: 'delta', data: JSON.stringify({ text: event.text }) });
        } else {
          const envelope = successBody(c, toData(event.turn));
          await recorder?.complete(200, envelope);
          await stream.writeSSE({ event: 'done', data: JSON.stringify(envelope) });
        }
      }
    } catch (error) {
      const serviceError = toServiceError(error);
      if (serviceError.code === 'internal_error') {
        deps.logger.error('turn stream failed', {
          request_id: c.get('requestId'),
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
      }
      const envelope = errorBody(c, serviceError);
      await recorder?.complete(serviceError.status, envelope);
      if (!aborter.signal.aborted) await stream.writeSSE({ event: 'error', data: JSON.stringify(envelope) }).catch(() => {});
    } finally {
      clearInterval(ping);
      await recorder?.abandon(); // no-op once completed; frees the key if the client went away
    }
  });
}
