/**
 * Live handoff events between the instances of the service. An event is published on a topic
 * (`conv:{id}` for the visitor's stream, `acct:{id}` for the operator inbox) and delivered to every
 * stream subscribed to that topic, on this instance and, with Redis (`REDIS_URL`), on every other
 * one: with Redis each publish goes through Redis only (this instance hears its own messages back,
 * so nothing is delivered twice); without it, in process.
 *
 * Delivery here is best effort on purpose: every event a reconnect must not lose is stored first
 * (`handoff_events`) and streams resume from the store by `Last-Event-ID`, so a message lost while
 * Redis was unreachable is caught up on the next reconnect. Streams also re-read the store on every
 * heartbeat, which bounds the delay of an event whose publish was lost — unless the bus is
 * `complete`: no Redis, and a database no other process writes (embedded PGlite), so every stored
 * event was published here, to subscribers that listened before they read the store. Then the
 * re-read would find nothing, and 2,000 open widgets would cost 133 reads a second for it.
 */
import { EventEmitter } from 'node:events';
import type { Logger } from '../logger.ts';

const CHANNEL_PREFIX = 'aicw:handoff:';

/** What travels on the bus: an SSE event name, its JSON, and its stored id (null: not stored, e.g. typing). */
export interface BusEvent {
  type: string;
  id: string | null;
  data: unknown;
}

/** The part of an ioredis client used here (as in keys/cache.ts). */
export interface BusRedis {
  publish(channel: string, message: string): Promise<number>;
  duplicate(): {
    connect(): Promise<void>;
    psubscribe(pattern: string): Promise<unknown>;
    on(event: 'pmessage', listener: (pattern: string, channel: string, message: string) => void): unknown;
    on(event: 'ready' | 'error', listener: () => void): unknown;
    disconnect(): void;
  };
}

export class HandoffBus {
  private readonly local = new EventEmitter();
  private subscriber: ReturnType<BusRedis['duplicate']> | undefined;

  /** Every stored event is heard here (see above): streams need not re-read the store on heartbeats. */
  readonly complete: boolean;

  constructor(
    private readonly logger: Logger,
    private readonly redis?: BusRedis,
    options: { singleProcessDatabase?: boolean } = {},
  ) {
    this.complete = !redis && (options.singleProcessDatabase ?? false);
    this.local.setMaxListeners(0); // one listener per open stream
  }

  /** Subscribes to every topic on Redis (no-op without it). */
  async listen(): Promise<void> {
    if (!this.redis) return;
    const subscriber = this.redis.duplicate();
    this.subscriber = subscriber;
    subscriber.on('error', () => {}); // the main client logs outages; streams catch up from the store
    subscriber.on('pmessage', (_pattern, channel, message) => {
      try {
        this.local.emit(channel.slice(CHANNEL_PREFIX.length), JSON.parse(message) as BusEvent);
      } catch {
        // not ours: ignore
      }
    });
    const subscribe = () => subscriber.psubscribe(`${CHANNEL_PREFIX}*`);
    subscriber.on('ready', () => void subscribe().catch(() => {}));
    try {
      await subscriber.connect();
      await subscribe();
    } catch (error) {
      this.logger.error('handoff events reach other instances only on reconnect until redis is back', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  publish(topics: string[], event: BusEvent): void {
    for (const topic of topics) {
      if (!this.redis) {
        this.local.emit(topic, event);
        continue;
      }
      this.redis.publish(`${CHANNEL_PREFIX}${topic}`, JSON.stringify(event)).catch((error: unknown) => {
        this.logger.error('could not publish a handoff event (streams catch up from the store)', {
          error: error instanceof Error ? error.message : String(error),
        });
        this.local.emit(topic, event); // at least this instance's streams get it now
      });
    }
  }

  /** Calls `listener` for every event on `topic` until the returned function is called. */
  subscribe(topic: string, listener: (event: BusEvent) => void): () => void {
    this.local.on(topic, listener);
    return () => this.local.off(topic, listener);
  }

  close(): void {
    this.subscriber?.disconnect();
  }
}

export const conversationTopic = (conversationId: string) => `conv:${conversationId}`;
export const accountTopic = (accountId: string) => `acct:${accountId}`;
