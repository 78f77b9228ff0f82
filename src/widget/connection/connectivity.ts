/**
 * Follows the browser's `online`/`offline` events for the widget. While offline, queued messages
 * fail at once as `network_error` instead of burning retries on a dead link; when the connection
 * returns, `onOnline` sends the messages that failed for want of a network once more.
 *
 * Listens only while the host is connected, and reads nothing at import time (server rendering).
 */
import type { ReactiveControllerHost } from 'lit';

export class Connectivity {
  /** False between an `offline` event (or a page that starts offline) and the next `online`. */
  online = true;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly onOnline: () => void,
  ) {}

  private readonly handle = (event: Event): void => {
    this.online = event.type === 'online';
    this.host.requestUpdate();
    if (this.online) this.onOnline();
  };

  connect(): void {
    this.online = globalThis.navigator?.onLine !== false;
    globalThis.addEventListener?.('online', this.handle);
    globalThis.addEventListener?.('offline', this.handle);
  }

  disconnect(): void {
    globalThis.removeEventListener?.('online', this.handle);
    globalThis.removeEventListener?.('offline', this.handle);
  }
}
