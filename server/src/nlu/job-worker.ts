/**
 * One worker thread running CPU-bound jobs one at a time, each under a deadline. A job past its
 * deadline is stopped by terminating the thread (the only way to stop a busy JavaScript thread);
 * the next job starts a fresh one. Used for intent training and for tenant entity regexes, so
 * neither ever runs on the service's event loop.
 *
 * Protocol with the worker module: in `{id, input}`; out `{id, ok: true, output}` | `{id, ok: false, message}`,
 * and `{ready: true}` once when its imports are loaded: a job's deadline starts then, so starting a
 * thread (hundreds of ms under tsx) never counts against a job.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

export class JobWorkerError extends Error {
  override name = 'JobWorkerError';
  constructor(
    message: string,
    /** failed: the worker reported an error; timeout: past the deadline; crashed: the thread died or was closed. */
    readonly kind: 'failed' | 'timeout' | 'crashed',
  ) {
    super(message);
  }
}

interface Job<In, Out> {
  id: number;
  input: In;
  resolve(value: Out): void;
  reject(error: Error): void;
  /** Gives up on the job if it is still queued (see `maxWaitMs`). */
  waitTimer?: NodeJS.Timeout;
}

interface WorkerReply<Out> {
  ready?: true;
  id: number;
  ok: boolean;
  output?: Out;
  message?: string;
}

export class JobWorker<In, Out> {
  private worker: Worker | undefined;
  private readonly queue: Job<In, Out>[] = [];
  private current: { job: Job<In, Out>; timer?: NodeJS.Timeout } | undefined;
  /** The current worker has loaded its imports (see the file comment). */
  private ready = false;
  private nextId = 1;
  private closed = false;
  /** `nextStart()` callers, told when a job is handed to the thread. */
  private readonly startWaiters: (() => void)[] = [];

  constructor(
    private readonly module: URL,
    /** A running job past this is stopped. */
    private readonly timeoutMs: number,
    /** A job still queued after this is given up (timeout): callers behind a busy thread wait no longer. */
    private readonly maxWaitMs?: number,
    /** For each thread started, e.g. `resourceLimits`: a job past them ends its thread (crashed). */
    private readonly workerOptions?: WorkerOptions,
  ) {}

  run(input: In): Promise<Out> {
    if (this.closed) return Promise.reject(new JobWorkerError('The worker is closed.', 'crashed'));
    return new Promise((resolve, reject) => {
      const job: Job<In, Out> = { id: this.nextId++, input, resolve, reject };
      if (this.maxWaitMs !== undefined) {
        job.waitTimer = setTimeout(() => {
          const queued = this.queue.indexOf(job);
          if (queued < 0) return;
          this.queue.splice(queued, 1);
          reject(new JobWorkerError(`The job waited longer than ${this.maxWaitMs} ms to start.`, 'timeout'));
        }, this.maxWaitMs);
        job.waitTimer.unref();
      }
      this.queue.push(job);
      this.pump();
    });
  }

  /** Resolves when the next job is handed to the thread: what a test of the queue waits on. */
  nextStart(): Promise<void> {
    return new Promise((resolve) => this.startWaiters.push(resolve));
  }

  /** Starts the thread ahead of the first job, so that job does not wait for it to load. */
  warm(): void {
    if (!this.closed && !this.worker) this.ensureWorker();
  }

  async close(): Promise<void> {
    this.closed = true;
    const pending = [...this.queue.splice(0), ...(this.current ? [this.current.job] : [])];
    for (const job of pending) clearTimeout(job.waitTimer);
    if (this.current) clearTimeout(this.current.timer);
    this.current = undefined;
    for (const job of pending) job.reject(new JobWorkerError('The worker was closed.', 'crashed'));
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.module, this.workerOptions);
    this.ready = false;
    worker.on('message', (message: WorkerReply<Out>) => {
      if (message.ready) {
        if (this.worker !== worker) return;
        this.ready = true;
        this.startDeadline(worker);
        return;
      }
      const current = this.current;
      if (!current || current.job.id !== message.id) return;
      clearTimeout(current.timer);
      this.current = undefined;
      if (message.ok) current.job.resolve(message.output as Out);
      else current.job.reject(new JobWorkerError(message.message ?? 'unknown error', 'failed'));
      this.pump();
    });
    // A retired worker (stopped at a deadline) must not fail the job that runs on its successor.
    worker.on('error', (error) => {
      if (this.worker === worker) this.fail(new JobWorkerError(`The worker failed: ${error.message}`, 'crashed'));
    });
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.fail(new JobWorkerError('The worker stopped unexpectedly.', 'crashed'));
    });
    // An idle worker must not keep the process (or a test run) alive; a busy one must (see pump).
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private fail(error: JobWorkerError): void {
    const current = this.current;
    if (!current) return;
    clearTimeout(current.timer);
    this.current = undefined;
    current.job.reject(error);
    this.pump();
  }

  private pump(): void {
    if (this.current || this.closed) return;
    const job = this.queue.shift();
    if (!job) {
      this.worker?.unref();
      return;
    }
    clearTimeout(job.waitTimer);
    const worker = this.ensureWorker();
    this.current = { job };
    worker.ref();
    // A worker still loading receives the job when its imports are done; the deadline starts then.
    worker.postMessage({ id: job.id, input: job.input });
    if (this.ready) this.startDeadline(worker);
    for (const started of this.startWaiters.splice(0)) started();
  }

  private startDeadline(worker: Worker): void {
    const current = this.current;
    if (!current || current.timer) return;
    current.timer = setTimeout(() => {
      // Retire the busy thread before failing the job: the queued jobs then start on a fresh one.
      if (this.worker === worker) this.worker = undefined;
      void worker.terminate();
      this.fail(new JobWorkerError(`The job took longer than ${this.timeoutMs} ms and was stopped.`, 'timeout'));
    }, this.timeoutMs);
    current.timer.unref();
  }
}
