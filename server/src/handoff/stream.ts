/**
 * A handoff events stream (Server-Sent Events): the visitor's (one conversation) and the operator
 * inbox's (one account). Order of work on connect: subscribe to the live topic FIRST, then read from
 * the store every event after `Last-Event-ID`, then forward live events; an event both read and heard
 * is sent once (by id). So a reconnect loses nothing and duplicates nothing.
 *
 * The first frame is `ready` with the current position as its `id`, so a client that connected
 * without `Last-Event-ID` (history loaded just before) resumes from there on its next reconnect.
 * Every heartbeat (`HandoffService.streamHeartbeatMs`, 15 s by default) a `: ping` comment keeps
 * proxies from closing an idle stream, and the store is read again (an event whose live publish was
 * lost, e.g. Redis down for a moment, arrives then) unless the bus hears every stored event
 * (`HandoffBus.complete`).
 * `max_seconds` ends the stream (the token proxy sets it to the token's remaining lifetime: the
 * client reconnects with a renewed token and resumes).
 */
import { streamSSE } from 'hono/streaming';
import type { AppContext } from '../http/context.ts';
import { ServiceError } from '../http/errors.ts';
import type { BusEvent } from './bus.ts';
import type { HandoffService } from './service.ts';

/** A page of stored events per read; more are read until the store is exhausted. */
const PAGE = 500;

export interface StreamScope {
  accountId: string;
  conversationId?: string;
  topic: string;
  /** Runs on connect and on every heartbeat (the inbox touches the operator's presence). */
  onHeartbeat?: () => Promise<void>;
  onClose?: () => Promise<void>;
  maxSeconds?: number;
  /** Live events this stream leaves out (the inbox: its own operator's presence). */
  skip?: (event: BusEvent) => boolean;
}

/** The `Last-Event-ID` header (or `last_event_id` query, for readers that cannot set headers): digits only. */
export function resumePoint(c: AppContext): string | undefined {
  const value = c.req.header('last-event-id') ?? c.req.query('last_event_id');
  if (value === undefined || value === '') return undefined;
  if (!/^[0-9]{1,19}$/.test(value)) {
    throw new ServiceError('validation_failed', 'Last-Event-ID must be an event id from this stream (digits).', { param: 'Last-Event-ID' });
  }
  return value;
}

/**
 * Resolves after `ms`, on `wake()`, or when `signal` aborts, whichever comes first, and then leaves
 * neither its timer nor its abort listener behind: a stream waits once per event on one long-lived
 * signal, and a listener left per wait piles up (Node warns at 11).
 */
export function pauseUntil(signal: AbortSignal, ms: number): { done: Promise<void>; wake: () => void } {
  let wake!: () => void;
  const done = new Promise<void>((resolve) => {
    const timer = setTimeout(() => wake(), ms);
    wake = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', wake);
      resolve();
    };
    if (signal.aborted) wake();
    else signal.addEventListener('abort', wake, { once: true });
  });
  return { done, wake };
}

export async function eventStream(c: AppContext, handoff: HandoffService, scope: StreamScope): Promise<Response> {
  const store = { accountId: scope.accountId, conversationId: scope.conversationId };
  const resumeFrom = resumePoint(c);
  c.header('Cache-Control', 'no-cache');
  c.header('X-Accel-Buffering', 'no');
  return streamSSE(c, async (stream) => {
    const pending: BusEvent[] = [];
    let wake: (() => void) | undefined;
    const unsubscribe = handoff.bus.subscribe(scope.topic, (event) => {
      pending.push(event);
      wake?.();
    });
    const stop = new AbortController();
    let cleaned!: () => void;
    const cleanup = new Promise<void>((resolve) => (cleaned = resolve));
    stream.onAbort(() => {
      handoff.closingStreams.track(cleanup);
      stop.abort();
    });
    const deadline = scope.maxSeconds ? setTimeout(() => stop.abort(), scope.maxSeconds * 1000) : undefined;
    const delivered = new Set<string>();
    let last = BigInt(resumeFrom ?? (await handoff.lastEventId(store)));

    // Anything at or before the start was delivered before (resume) or is in the history the client just read.
    const start = last;
    const send = async (event: BusEvent) => {
      if (scope.skip?.(event)) return;
      if (event.id !== null) {
        const id = BigInt(event.id);
        if (id <= start || delivered.has(event.id)) return;
        delivered.add(event.id);
        if (id > last) last = id;
      }
      await stream.writeSSE({ event: event.type, data: JSON.stringify(event.data), ...(event.id !== null ? { id: event.id } : {}) });
    };
    const catchUp = async () => {
      for (;;) {
        const events = await handoff.eventsAfter(store, last.toString(), PAGE);
        for (const event of events) await send(event);
        if (events.length < PAGE) break;
      }
    };

    try {
      await scope.onHeartbeat?.();
      await stream.writeSSE({ event: 'ready', id: last.toString(), data: JSON.stringify({ last_event_id: last.toString() }) });
      await catchUp();
      let nextBeat = Date.now() + handoff.streamHeartbeatMs;
      while (!stop.signal.aborted) {
        while (pending.length > 0) await send(pending.shift()!);
        const wait = nextBeat - Date.now();
        if (wait <= 0) {
          nextBeat = Date.now() + handoff.streamHeartbeatMs;
          await stream.write(': ping\n\n');
          await scope.onHeartbeat?.();
          if (!handoff.bus.complete) await catchUp();
          continue;
        }
        const pause = pauseUntil(stop.signal, wait);
        wake = pause.wake;
        await pause.done;
        wake = undefined;
        if (delivered.size > 10_000) delivered.clear(); // the store is read after `last` only: old ids never come back
      }
    } catch {
      // the client went away mid-write: nothing to tell anyone
    } finally {
      clearTimeout(deadline);
      unsubscribe();
      await scope.onClose?.().catch(() => {});
      cleaned();
    }
  });
}
