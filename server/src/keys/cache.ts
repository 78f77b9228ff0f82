/**
 * The per-process cache of authenticated API keys, bounded in time so that revoking a key (or its
 * expiry) takes effect within 1 second on every instance of the service:
 *
 * - every entry lives at most `TTL_MS` (500 ms), counted from the moment its database read STARTED,
 *   so a read that raced a revocation cannot keep the old answer longer than that;
 * - with Redis (`REDIS_URL`), a revocation is also published on `CHANNEL` and every instance drops
 *   the entry at once; the TTL is the safety net for a message lost while Redis was unreachable;
 * - an entry whose key has an `expires_at` is never served after that instant of `now()`, the
 *   clock every expiry check of a key reads (the database's clock is never asked).
 *
 * Cost of the short TTL: a miss is one indexed lookup, so a busy key costs at most 2 lookups a
 * second per instance. Measured on the shared 2-core box while heavily loaded (load average 16-18),
 * 2,000 lookups each: a hit 0.03 ms; a miss 3-5 ms on PGlite and 2-4 ms on PostgreSQL, about 3× a
 * bare `select 1` there. So at most ~1% of a core per busy key and instance, however many requests
 * that key sends.
 */
import type { Logger } from '../logger.ts';
import type { RedisClient } from '../rate-limit/limiter.ts';

export const KEY_CACHE_TTL_MS = 500;
const CHANNEL = 'aicw:api-keys:revoked';
const MAX_ENTRIES = 10_000;

interface Entry<T> {
  value: T;
  /** performance.now() after which the entry is stale. */
  staleAt: number;
  /** The `now()` at which the key itself expires, or null. */
  expiresAt: number | null;
}

/** The part of an ioredis client used here (publish, and a duplicate connection to subscribe on). */
interface PubSubRedis {
  publish(channel: string, message: string): Promise<number>;
  duplicate(): {
    connect(): Promise<void>;
    subscribe(channel: string): Promise<unknown>;
    on(event: 'message', listener: (channel: string, message: string) => void): unknown;
    on(event: 'ready' | 'error', listener: () => void): unknown;
    disconnect(): void;
  };
}

export class KeyCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private subscriber: ReturnType<PubSubRedis['duplicate']> | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly redis?: PubSubRedis,
    /** The clock of key expiry; tests move it. */
    readonly now: () => number = Date.now,
  ) {}

  /** Subscribes to revocations published by other instances (no-op without Redis). */
  async listen(): Promise<void> {
    if (!this.redis) return;
    const subscriber = this.redis.duplicate();
    this.subscriber = subscriber;
    subscriber.on('error', () => {}); // the main client already logs Redis outages; the TTL covers them
    subscriber.on('message', (_channel, keyHash) => this.entries.delete(keyHash));
    // On every (re)connection, including one after a start while Redis was down; subscribing twice is harmless.
    const subscribe = () => subscriber.subscribe(CHANNEL);
    subscriber.on('ready', () => void subscribe().catch(() => {}));
    try {
      await subscriber.connect();
      await subscribe();
    } catch (error) {
      this.logger.error('api key revocations are not shared until redis is back (the 500 ms cache TTL still applies)', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /** Marks the moment a database read starts: pass it to `set()` with the read's result. */
  readStarted(): number {
    return performance.now();
  }

  get(keyHash: string): T | undefined {
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    if (performance.now() >= entry.staleAt || (entry.expiresAt !== null && this.now() >= entry.expiresAt)) {
      this.entries.delete(keyHash);
      return undefined;
    }
    return entry.value;
  }

  set(keyHash: string, value: T, readStartedAt: number, expiresAt: Date | null): void {
    if (this.entries.size >= MAX_ENTRIES) this.sweep();
    this.entries.set(keyHash, { value, staleAt: readStartedAt + KEY_CACHE_TTL_MS, expiresAt: expiresAt?.getTime() ?? null });
  }

  /** Forgets these keys here and, with Redis, on every other instance. */
  async revoked(keyHashes: string[]): Promise<void> {
    for (const keyHash of keyHashes) this.entries.delete(keyHash);
    if (!this.redis) return;
    for (const keyHash of keyHashes) {
      await this.redis.publish(CHANNEL, keyHash).catch((error: unknown) => {
        this.logger.error('could not publish an api key revocation (other instances drop it within 500 ms)', {
          error: error instanceof Error ? error.message : String(error),
        });
      });
    }
  }

  close(): void {
    this.subscriber?.disconnect();
  }

  private sweep(): void {
    const now = performance.now();
    for (const [keyHash, entry] of this.entries) if (now >= entry.staleAt) this.entries.delete(keyHash);
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
  }
}
