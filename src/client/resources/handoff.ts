/**
 * Human handoff (docs/handoff.md): a bot's handoff settings, a conversation's handoff state, asking
 * for a person, leaving an email while nobody can answer, and `events()`: the conversation's live
 * events as an async iterator that reconnects by itself and resumes from the last event id, so a
 * dropped connection, a stream the server ended (`max_seconds`, e.g. at a token's expiry: the next
 * connection asks `getToken` again) or a restart of the service loses nothing and repeats nothing.
 * Its own resource, so a widget bundle carries it only when it asks for it.
 */
import { interpretBody, invalidResponse } from '../envelope.js';
import { isAiChatError, isApiError } from '../errors.js';
import { segment, type Attempt, type HttpCore } from '../http.js';
import type { ApiResult, RequestOptions } from '../options.js';
import { parseSse } from '../sse.js';
import type {
  HandoffEvent,
  HandoffSettings,
  HandoffSettingsInput,
  HandoffState,
  HandoffStreamEvents,
  OfflineMessage,
  OfflineMessageRequest,
} from '../types.js';

/** Which visitor asks: the conversation's `user_id` (a widget token sets it) and bot. */
export interface HandoffScope {
  user_id?: string;
  bot_id?: string;
}

export interface HandoffEventsOptions extends HandoffScope {
  /** Resume after this event id (e.g. kept across a page reload); default: from now on. */
  lastEventId?: string;
  /** Ends the iteration (the loop returns). */
  signal?: AbortSignal;
  /** Longest silence before the connection counts as dead and is replaced (the server pings every 15 s). Default 45 s. */
  idleTimeoutMs?: number;
  /** Ask the service to end each connection after this many seconds (1–3600); the iterator reconnects and resumes. */
  maxSeconds?: number;
  /** First reconnect delay after a failure; doubles up to 30 s, reset by every received event. Default 1 s. */
  retryDelayMs?: number;
  /**
   * Called with the stream's position each time a connection is open (the `ready` event): from
   * here on nothing is missed. A reader that loaded history just before can load it again at the
   * first call to close the gap between the two, or ask for a person only then.
   */
  onReady?: (lastEventId: string) => void;
}

const EVENT_NAMES = ['status', 'message', 'note', 'typing', 'presence'] as const;
const EVENT_TYPES = new Set<string>(EVENT_NAMES);
/** Compiles only while EVENT_NAMES lists every kind of event the streams carry (a type, so no bytes). */
type EveryHandoffEventListed = [Exclude<keyof HandoffStreamEvents, (typeof EVENT_NAMES)[number]>] extends [never] ? true : never;
const _everyEventListed: EveryHandoffEventListed = true;
/** Events that are not stored have no id of their own (the frame's is still the last stored event's). */
const UNSTORED = new Set(['typing', 'presence']);
const MAX_RETRY_DELAY_MS = 30_000;

export class HandoffResource {
  constructor(private readonly core: HttpCore) {}

  /** `GET /bots/{id}/handoff`: the settings and whether a person can be asked for now. */
  settings(botId: string, options?: RequestOptions): Promise<ApiResult<HandoffSettings>> {
    return this.core.request({ method: 'GET', path: `/bots/${segment(botId, 'botId')}/handoff` }, options);
  }

  /** `PUT /bots/{id}/handoff`. */
  updateSettings(botId: string, settings: HandoffSettingsInput, options?: RequestOptions): Promise<ApiResult<HandoffSettings>> {
    return this.core.request({ method: 'PUT', path: `/bots/${segment(botId, 'botId')}/handoff`, body: settings }, options);
  }

  /** `GET /conversations/{id}/handoff`: `bot`, `waiting`, `with_person` or `closed`, the operator, availability. */
  state(conversationId: string, scope: HandoffScope = {}, options?: RequestOptions): Promise<ApiResult<HandoffState>> {
    return this.core.request({ method: 'GET', path: `/conversations/${segment(conversationId, 'conversationId')}/handoff`, query: { ...scope } }, options);
  }

  /** `POST /conversations/{id}/handoff`: ask for a person (409 `handoff_unavailable` when nobody can answer now). */
  request(conversationId: string, scope: HandoffScope = {}, options?: RequestOptions): Promise<ApiResult<HandoffState>> {
    return this.core.request({ method: 'POST', path: `/conversations/${segment(conversationId, 'conversationId')}/handoff`, body: scope }, options);
  }

  /** `POST /conversations/{id}/handoff/typing`: the visitor is typing (send it at most every few seconds). */
  typing(conversationId: string, scope: HandoffScope = {}, options?: RequestOptions): Promise<ApiResult<{ conversation_id: string; typing: true }>> {
    return this.core.request({ method: 'POST', path: `/conversations/${segment(conversationId, 'conversationId')}/handoff/typing`, body: scope }, options);
  }

  /** `POST /conversations/{id}/handoff/offline-messages`: an email and a message for a reply later. */
  leaveOfflineMessage(conversationId: string, message: OfflineMessageRequest & HandoffScope, options?: RequestOptions): Promise<ApiResult<OfflineMessage>> {
    return this.core.request({ method: 'POST', path: `/conversations/${segment(conversationId, 'conversationId')}/handoff/offline-messages`, body: message }, options);
  }

  /**
   * `GET /conversations/{id}/events`, for as long as the caller iterates: `status`, `message` and
   * `typing` events. Reconnects after a dropped or ended stream (waiting `retryDelayMs`, doubling,
   * after failures) and resumes after the last event id it saw (`?last_event_id=`, which also passes
   * the token proxy). Ends when `signal` aborts or the loop breaks; throws an `ApiError` the service
   * will keep answering (e.g. 404, 403) instead of retrying it.
   */
  events(conversationId: string, options: HandoffEventsOptions = {}): AsyncGenerator<HandoffEvent, void, undefined> {
    const path = `/conversations/${segment(conversationId, 'conversationId')}/events`;
    return followEvents(this.core, path, { user_id: options.user_id, bot_id: options.bot_id, max_seconds: options.maxSeconds }, options);
  }
}

/**
 * Follows a handoff events stream at `path` (the visitor's, or the dashboard inbox's) for as long as
 * the caller iterates: reconnects, resumes by `last_event_id`, throws what retrying cannot fix.
 */
export async function* followEvents(
  core: HttpCore,
  path: string,
  scope: Record<string, string | number | undefined>,
  options: Pick<HandoffEventsOptions, 'lastEventId' | 'signal' | 'idleTimeoutMs' | 'retryDelayMs' | 'onReady'> = {},
): AsyncGenerator<HandoffEvent, void, undefined> {
  const { signal } = options;
  let lastEventId = options.lastEventId;
  let delay = options.retryDelayMs ?? 1000;
  while (!signal?.aborted) {
    try {
      const query = { ...scope, last_event_id: lastEventId };
      const opened = await core.open({ method: 'GET', path, query }, { signal, timeoutMs: options.idleTimeoutMs ?? 45_000, maxRetries: 0 }, 'text/event-stream', openEvents);
      try {
        for await (const frame of parseSse(opened.body, () => opened.attempt.restartTimer())) {
          if (frame.id !== undefined) lastEventId = frame.id;
          delay = options.retryDelayMs ?? 1000;
          if (frame.event === 'ready') options.onReady?.(lastEventId ?? '');
          if (!EVENT_TYPES.has(frame.event)) continue; // `ready` and events of later versions
          let data: unknown;
          try {
            data = JSON.parse(frame.data);
          } catch (error) {
            throw invalidResponse(opened.response, opened.attempt.target, `malformed JSON in the stream's "${frame.event}" event`, error);
          }
          yield { type: frame.event, id: UNSTORED.has(frame.event) ? null : (frame.id ?? null), data } as HandoffEvent;
        }
      } catch (error) {
        throw opened.attempt.toError(error);
      } finally {
        opened.attempt.dispose();
      }
      continue; // the server ended the stream (max_seconds): reconnect at once
    } catch (error) {
      if (signal?.aborted) return;
      if (isApiError(error) && !error.retryable && error.status !== 401) throw error;
      if (!isAiChatError(error)) throw error;
    }
    await wait(delay, signal);
    delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
  }
}

interface OpenedEvents {
  response: Response;
  body: ReadableStream<Uint8Array>;
  attempt: Attempt;
}

async function openEvents(response: Response, attempt: Attempt): Promise<OpenedEvents> {
  const contentType = response.headers.get('content-type') ?? '';
  if (response.ok && contentType.includes('text/event-stream') && response.body) return { response, body: response.body, attempt };
  const text = await response.text();
  attempt.dispose();
  interpretBody<unknown>(response, text, attempt.target); // throws the error envelope's ApiError
  throw invalidResponse(response, attempt.target, 'expected an event stream, got a JSON answer');
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
