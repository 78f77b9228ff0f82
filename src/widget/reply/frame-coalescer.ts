/**
 * Keeps only the latest of many values and hands it on once per animation frame. A stream can
 * deliver dozens of deltas between two frames; rendering each would do work nobody sees. The
 * first value is handed on at once: the first words of a reply need not wait for a frame.
 */
export class FrameCoalescer<T> {
  private latest: { value: T } | null = null;
  private frame: number | null = null;
  private started = false;

  constructor(private readonly apply: (value: T) => void) {}

  /** `value` replaces any value still waiting; `apply` gets it before the next frame is painted. */
  push(value: T): void {
    if (!this.started) {
      this.started = true;
      this.apply(value);
      return;
    }
    this.latest = { value };
    this.frame ??= nextFrame(() => {
      this.frame = null;
      const latest = this.latest;
      this.latest = null;
      if (latest) this.apply(latest.value);
    });
  }

  /** Drops the waiting value, if any (what it showed has been replaced or withdrawn). */
  cancel(): void {
    if (this.frame !== null) cancelFrame(this.frame);
    this.frame = null;
    this.latest = null;
  }
}

// Outside a window (tests in Node) a timer stands in for the frame.
const hasFrames = typeof requestAnimationFrame === 'function';
const nextFrame = (callback: () => void): number =>
  hasFrames ? requestAnimationFrame(callback) : (setTimeout(callback, 16) as unknown as number);
const cancelFrame = (handle: number): void => (hasFrames ? cancelAnimationFrame(handle) : clearTimeout(handle));
