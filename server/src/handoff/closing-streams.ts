/**
 * The streams of one service whose client went away and whose cleanup (`onClose`: an operator's
 * presence) is still running. `closed()` is what a caller that hung up waits on before it looks at
 * what the cleanup changes (a test: whether the operator is still online).
 */
export class ClosingStreams {
  private readonly cleanups = new Set<Promise<void>>();

  /** Resolves once every stream whose client went away so far has finished its cleanup. */
  async closed(): Promise<void> {
    await Promise.all(this.cleanups);
  }

  track(cleanup: Promise<void>): void {
    this.cleanups.add(cleanup);
    void cleanup.finally(() => this.cleanups.delete(cleanup));
  }
}
