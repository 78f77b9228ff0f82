/**
 * What every kind of background job shares (agent training, knowledge imports): a job row is
 * created by a request and run in the background of that process, which tracks its runs (shutdown
 * waits for them; a stale heartbeat of a run still here is no crash), touches the row's
 * `heartbeat_at` while one runs, and tells a job a dead process left behind from a live one — every
 * active job when the database belongs to this process alone, else one whose heartbeat is missing
 * or older than `staleMs`.
 */
import { sql, type RawBuilder } from 'kysely';

export interface JobTimingOptions {
  /** How often a running job proves its process is alive. Default 5 s. */
  heartbeatMs?: number;
  /** A heartbeat older than this means the process died. Default 30 s. */
  staleMs?: number;
  /**
   * True when no other process can use this database (embedded PGlite owns its data directory):
   * then every active job found at start-up is from a crashed run, however fresh its heartbeat.
   */
  singleProcess?: boolean;
}

export class BackgroundRuns {
  private readonly runs = new Map<string, Promise<void>>();
  private closing = false;
  readonly heartbeatMs: number;
  readonly staleMs: number;

  constructor(private readonly options: JobTimingOptions = {}) {
    this.heartbeatMs = options.heartbeatMs ?? 5_000;
    this.staleMs = options.staleMs ?? 30_000;
  }

  /** Shutting down: no new job may start, running ones should stop soon. */
  get closed(): boolean {
    return this.closing;
  }

  /** Whether this process runs the job now. */
  has(jobId: string): boolean {
    return this.runs.has(jobId);
  }

  /** The job's run in this process, settling once it has recorded its outcome; undefined when it runs elsewhere or is done. */
  running(jobId: string): Promise<void> | undefined {
    return this.runs.get(jobId);
  }

  /** Runs `work` (which must not reject) as job `jobId`, calling `beat` every `heartbeatMs` until it settles. */
  start(jobId: string, beat: () => Promise<unknown>, work: () => Promise<void>): Promise<void> {
    const heartbeat = setInterval(() => void beat().catch(() => undefined), this.heartbeatMs);
    heartbeat.unref();
    const done = work().finally(() => {
      clearInterval(heartbeat);
      this.runs.delete(jobId);
    });
    this.runs.set(jobId, done);
    return done;
  }

  /** Stops accepting jobs and waits for the running ones to record their outcome. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.runs.values());
  }

  /** True for a job row whose `heartbeat_at` is older than `staleMs`. */
  staleHeartbeat(): RawBuilder<boolean> {
    return sql<boolean>`heartbeat_at < now() - make_interval(secs => ${this.staleMs / 1000})`;
  }

  /** True for an active job row that no live process runs (see the module comment). */
  abandoned(): RawBuilder<boolean> {
    if (this.options.singleProcess) return sql<boolean>`true`;
    return sql<boolean>`(heartbeat_at is null or ${this.staleHeartbeat()})`;
  }
}
