/**
 * `/v1/chat`: a chat turn as JSON or as Server-Sent Events, and the conversation history.
 * SSE frames: `meta` {request_id, conversation_id}, `delta` {text}…, then `done` with the full
 * success envelope or `error` with the error envelope. Anything wrong with the request itself is
 * found by `prepare` and answered as ordinary JSON with its real status, before any stream starts.
 */
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { ChatReply, ChatRequest, HistoryQuery } from '../../../src/client/types.ts';
import { accountId, type AppContext, type AppEnv } from '../http/context.ts';
import { errorBody, ok, successBody } from '../http/envelope.ts';
import { toServiceError } from '../http/error-handler.ts';
import { ServiceError } from '../http/errors.ts';
import { idempotencyRecorder, idempotencyTag, idempotent } from '../http/idempotency.ts';
import { readJson, readQuery } from '../http/validate.ts';
import type { Deps } from '../services.ts';
import { chatRequestSchema, historyQuerySchema } from './schema.ts';
import type { ChatCaller, PreparedTurn } from './service.ts';

const PING_MS = 15_000;
/** Set by the token proxy on every call it forwards for a widget visitor (see `ChatCaller`). */
export const CALLER_HEADER = 'AI-Chat-Caller';

function callerOf(c: AppContext): ChatCaller {
  const value = c.req.header(CALLER_HEADER);
  if (value === undefined) return 'key';
  if (value === 'widget') return 'widget';
  throw new ServiceError('validation_failed', `${CALLER_HEADER} must be "widget" when it is sent.`, { param: CALLER_HEADER });
}

function wantsStream(c: AppContext, request: ChatRequest): boolean {
  if (request.stream !== undefined) return request.stream;
  return (c.req.header('accept') ?? '').includes('text/event-stream');
}

export function chatRoutes(deps: Deps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();

  router.post('/', idempotent(deps.db), async (c) => {
    const request = await readJson<ChatRequest>(c, chatRequestSchema);
    const turn = await deps.chat.prepare(accountId(c), request, idempotencyTag(c), callerOf(c));
    if (turn.replay) c.header('Idempotent-Replayed', 'true'); // stored by a request that never got to answer
    if (wantsStream(c, request)) return streamTurn(c, deps, turn);
    let reply: ChatReply | undefined;
    for await (const event of deps.chat.run(turn, c.req.raw.signal)) if (event.type === 'done') reply = event.data;
    return ok(c, reply!);
  });

  router.get('/history', async (c) => {
    const query = readQuery<HistoryQuery & { limit: number }>(c, historyQuerySchema);
    if (!query.conversation_id && !query.user_id) {
      throw new ServiceError('validation_failed', 'Give conversation_id or user_id.', { param: 'conversation_id' });
    }
    const account = accountId(c);
    if (query.conversation_id && !(await deps.conversations.get(account, query.conversation_id))) {
      throw new ServiceError('resource_not_found', 'No conversation with that conversation_id exists.', { param: 'conversation_id' });
    }
    if (query.bot_id) await deps.bots.getRow(account, query.bot_id); // 404 for another account's bot
    const page = await deps.conversations.history(account, {
      conversationId: query.conversation_id,
      userId: query.user_id,
      botId: query.bot_id,
      limit: query.limit,
      cursor: query.cursor,
    });
    return ok(c, page);
  });

  return router;
}

function streamTurn(c: AppContext, deps: Deps, turn: PreparedTurn): Response {
  const recorder = idempotencyRecorder(c);
  c.header('Cache-Control', 'no-cache');
  c.header('X-Accel-Buffering', 'no'); // nginx and friends would otherwise hold the frames back
  return streamSSE(c, async (stream) => {
    const aborter = new AbortController();
    stream.onAbort(() => aborter.abort());
    const ping = setInterval(() => void stream.write(': ping\n\n').catch(() => {}), PING_MS);
    try {
      await stream.writeSSE({ event: 'meta', data: JSON.stringify({ request_id: c.get('requestId'), conversation_id: turn.conversationId }) });
      for await (const event of deps.chat.run(turn, aborter.signal)) {
        if (event.type === 'delta') {
          await stream.writeSSE({ event: 'delta', data: JSON.stringify({ text: event.text }) });
        } else {
          const envelope = successBody(c, event.data);
          await recorder?.complete(200, envelope);
          await stream.writeSSE({ event: 'done', data: JSON.stringify(envelope) });
        }
      }
    } catch (error) {
      const serviceError = toServiceError(error);
      if (serviceError.code === 'internal_error') {
        deps.logger.error('chat stream failed', {
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
