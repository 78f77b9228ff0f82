import type { ReactiveController, ReactiveElement } from 'lit';
import { InstanceStyle } from './instance-style.js';

/** What the stack needs of the element. */
export interface StackedLauncher extends ReactiveElement {
  mode: string;
}

/** Every connected launcher-mode widget of the page (all share the corner). */
const launchers = new Set<LauncherStack>();

/**
 * Several launcher-mode widgets on one page: each takes the next place in a row from the corner
 * inward (`--_stack`: 0, 1, 2, … in document order), so no launcher hides another. The styles turn
 * the place into an offset of the launcher and keep its panel on screen.
 */
export class LauncherStack implements ReactiveController {
  /** The instance's own custom properties (also the accent of `color`, set by the element). */
  readonly style: InstanceStyle;

  constructor(private readonly host: StackedLauncher) {
    this.style = new InstanceStyle(host);
    host.addController(this);
  }

  hostConnected(): void {
    this.track();
  }

  hostUpdated(): void {
    this.track(); // the mode may have changed
  }

  hostDisconnected(): void {
    if (launchers.delete(this)) restack();
  }

  private track(): void {
    const isLauncher = this.host.mode === 'launcher' && this.host.isConnected;
    if (isLauncher === launchers.has(this)) return;
    if (isLauncher) launchers.add(this);
    else launchers.delete(this);
    this.style.set('--_stack', null);
    restack();
  }

  /** Takes place `index` of the row (0: the corner). */
  place(index: number): void {
    this.style.set('--_stack', index ? String(index) : null);
  }

  /** Whether this launcher comes after `other` in the document. */
  follows(other: LauncherStack): boolean {
    return Boolean(other.host.compareDocumentPosition(this.host) & Node.DOCUMENT_POSITION_FOLLOWING);
  }
}

/** Document order decides the places (for widgets in different shadow trees, an order the browser keeps consistent). */
function restack(): void {
  [...launchers]
    .sort((a, b) => (a.follows(b) ? 1 : b.follows(a) ? -1 : 0))
    .forEach((launcher, index) => launcher.place(index));
}
