import type { ReactiveController, ReactiveElement } from 'lit';

/** How close to the end (px) still counts as "at the newest message". */
const NEAR_END = 40;

/**
 * Keeps the newest message in view while the user is at the end of the transcript, and lets go
 * when they scroll up to read.
 *
 * Scrolling happens when the log's size changes, in the ResizeObserver step of the frame: layout
 * is fresh there, so reading `scrollHeight` forces no extra layout, one frame of many updates (a
 * stream) scrolls once, and rows that `content-visibility` renders late (their height was an
 * estimate until they came into view) still end up in view. The scroller is watched too: when it
 * shrinks (an on-screen keyboard shrinks the viewport), the newest message stays in view.
 */
export class ScrollFollow implements ReactiveController {
  private following = true;
  private lastTop = 0;
  private observer?: ResizeObserver;

  constructor(
    private readonly host: ReactiveElement,
    private readonly scroller: () => HTMLElement | null | undefined,
    private readonly content: () => HTMLElement | null | undefined,
  ) {
    host.addController(this);
  }

  hostUpdated(): void {
    // first render, or reconnected (the shadow DOM, and the log in it, survive a move)
    const scroller = this.scroller();
    const content = this.content();
    if (this.observer || typeof ResizeObserver !== 'function' || !scroller || !content) return;
    this.observer = new ResizeObserver(() => this.scrollToEnd());
    this.observer.observe(content);
    this.observer.observe(scroller);
  }

  hostDisconnected(): void {
    this.observer?.disconnect();
    this.observer = undefined;
  }

  /** Follow the newest message again (the user just sent one). */
  follow(): void {
    this.following = true;
  }

  /**
   * The scroller's `scroll` listener: following stops when the user scrolls up, and starts again
   * at the end. A scroll event without movement (the scroller was resized, as an on-screen keyboard
   * does) changes nothing: it comes before the ResizeObserver that scrolls to the end.
   */
  readonly onScroll = (): void => {
    const s = this.scroller();
    if (!s) return;
    if (s.scrollHeight - s.scrollTop - s.clientHeight < NEAR_END) this.following = true;
    else if (s.scrollTop < this.lastTop) this.following = false;
    this.lastTop = s.scrollTop;
  };

  private scrollToEnd(): void {
    const s = this.scroller();
    if (this.following && s) s.scrollTop = s.scrollHeight;
  }
}
