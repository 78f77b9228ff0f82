/**
 * The wait imposed by a rate limit: holds the time sending may resume, announces it with
 * `ai-chat-rate-limit`, re-renders the host once a second for the countdown, and calls `onEnd`
 * when the wait is over (to send the queued message).
 */
import type { ReactiveControllerHost } from 'lit';
import type { RateLimitInfo } from '../../client/types.js';
import { AiChatRateLimitEvent } from '../core/events.js';

export class RateLimitWait {
  /** Epoch ms at which sending may resume (0: no wait). */
  until = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly host: ReactiveControllerHost & EventTarget,
    private readonly onEnd: () => void,
  ) {}

  get active(): boolean {
    return this.until > Date.now();
  }

  /** Starts waiting until `until` (epoch ms) and fires `ai-chat-rate-limit`. */
  start(until: number, info: RateLimitInfo | null): void {
    this.until = until;
    this.host.dispatchEvent(
      new AiChatRateLimitEvent({
        limit: info?.limit ?? 0,
        remaining: info?.remaining ?? 0,
        reset: info?.reset ?? Math.ceil(until / 1000),
        retryAt: new Date(until),
      }),
    );
    this.tick();
  }

  /**
   * Whether sending must wait now. Also starts a wait when the last answer said the window is used
   * up: never spend a request the server has already said it will refuse.
   */
  mustWait(info: RateLimitInfo | null): boolean {
    if (!this.until && info && info.remaining <= 0 && info.reset * 1000 > Date.now()) {
      this.start(info.reset * 1000, info);
    }
    return this.active;
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.until = 0;
  }

  private tick(): void {
    clearTimeout(this.timer);
    const left = this.until - Date.now();
    this.host.requestUpdate();
    if (left <= 0) {
      this.until = 0;
      this.onEnd();
      return;
    }
    // land on whole seconds, so the countdown reads 3, 2, 1
    this.timer = setTimeout(() => this.tick(), left % 1000 || 1000);
  }
}
