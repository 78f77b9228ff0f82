/**
 * The loop of a durable queue's worker (channel messages and replies, webhook deliveries): one run
 * at a time per process, claiming work in steps until a step finds none. It is woken by new work
 * (`kick`; a kick during a run makes it run once more) and by a timer, for work other instances
 * stored and retries that came due. Tests give it no timer and `drain()` it after moving their clock.
 */
export class QueueWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;

  /** `step` claims and handles one batch: true when it found any. `onError` hears a run that failed. */
  constructor(
    private readonly step: () => Promise<boolean>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Runs now and every `pollMs` (each tick calls `tick` first). */
  start(pollMs: number, tick?: () => void): void {
    this.timer = setInterval(() => {
      tick?.();
      this.kick();
    }, pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Wakes the worker; a run already going runs once more. */
  kick(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.work().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  /**
   * Resolves once no work is ready now and no run is going. A run a kick starts while this waits
   * (or steps) may hold work this step skipped as claimed, so it is waited for too.
   */
  async drain(): Promise<void> {
    for (;;) {
      while (this.running) await this.running;
      if (!(await this.step()) && !this.running) return;
    }
  }

  /** Stops the timer and waits for the run going on, if any (stop its requests first). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.running;
  }

  private async work(): Promise<void> {
    try {
      while (!this.closed && (await this.step()));
    } catch (error) {
      if (!this.closed) this.onError(error);
    }
  }
}
