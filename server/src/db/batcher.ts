/**
 * Group commit for the hot path: concurrent calls that share a key run as one batch, so
 * fifty turns arriving together cost the database one statement (one round trip, one plan, one run
 * of the rollup triggers, one commit) instead of fifty.
 *
 * With nothing of its key in flight, a call's batch starts after the I/O of the current turn of the
 * event loop (setImmediate; no timer): the requests that arrived together share it. That matters
 * on embedded PGlite, whose statements run on this thread: a batch started at once would be done
 * before the next request is even read. Calls made while a batch of their key is in flight wait
 * for the next batch, which starts as soon as that one ends and takes every call made meanwhile.
 * So each batch is sent after all of its calls were made: a read in a batch sees every write
 * committed before any of its callers asked (what the knowledge revision check relies on).
 */
export interface BatchItem<I, O> {
  input: I;
  resolve(output: O): void;
  reject(error: unknown): void;
}

/**
 * Settles every item of a batch: its own result, or its own error. A runner that throws rejects
 * whatever it left unsettled with that error.
 */
export type BatchRunner<I, O> = (key: string, items: BatchItem<I, O>[]) => Promise<void>;

interface KeyState<I, O> {
  waiting: BatchItem<I, O>[];
  /** A batch is running, or about to (scheduled). */
  busy: boolean;
}

export class Batcher<I, O> {
  private readonly keys = new Map<string, KeyState<I, O>>();

  constructor(
    private readonly runner: BatchRunner<I, O>,
    /** At most this many calls in one batch; the rest wait for the next. */
    private readonly maxSize = 100,
  ) {}

  call(key: string, input: I): Promise<O> {
    let state = this.keys.get(key);
    if (!state) {
      state = { waiting: [], busy: false };
      this.keys.set(key, state);
    }
    const done = new Promise<O>((resolve, reject) => state.waiting.push({ input, resolve, reject }));
    if (!state.busy) {
      state.busy = true;
      setImmediate(() => void this.flush(key, state));
    }
    return done;
  }

  private async flush(key: string, state: KeyState<I, O>): Promise<void> {
    const items = state.waiting.splice(0, this.maxSize);
    let settled = 0;
    const tracked = items.map((item) => ({
      input: item.input,
      resolve: (output: O) => (settled++, item.resolve(output)),
      reject: (error: unknown) => (settled++, item.reject(error)),
    }));
    try {
      await this.runner(key, tracked);
      if (settled < items.length) throw new Error('Batcher: the runner left calls unsettled.');
    } catch (error) {
      for (const item of items) item.reject(error); // a settled promise ignores this
    } finally {
      if (state.waiting.length > 0) void this.flush(key, state);
      else this.keys.delete(key);
    }
  }
}

/**
 * A read whose concurrent calls with one key share one execution (and its result): the calls
 * arriving while it runs share the next one, so every caller's answer is read after it asked.
 * Results are shared objects: callers must not change them.
 */
export class SharedRead<T> {
  private readonly batcher: Batcher<void, T>;

  constructor(read: (key: string) => Promise<T>) {
    this.batcher = new Batcher<void, T>(async (key, callers) => {
      const value = await read(key);
      for (const caller of callers) caller.resolve(value);
    });
  }

  get(key: string): Promise<T> {
    return this.batcher.call(key, undefined);
  }
}

/** A batch key naming one row (a bot, say) of an account; ids come from requests, so no separator is safe. */
export const accountRowKey = (accountId: string, id: string): string => JSON.stringify([accountId, id]);
export const parseAccountRowKey = (key: string): [accountId: string, id: string] => JSON.parse(key) as [string, string];

/** A `SharedRead` of one row of an account, by the account's and the row's ids. */
export class SharedRowRead<T> {
  private readonly read: SharedRead<T>;

  constructor(read: (accountId: string, id: string) => Promise<T>) {
    this.read = new SharedRead((key) => read(...parseAccountRowKey(key)));
  }

  get(accountId: string, id: string): Promise<T> {
    return this.read.get(accountRowKey(accountId, id));
  }
}
