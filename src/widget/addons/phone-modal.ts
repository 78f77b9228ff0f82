import type { ReactiveController, ReactiveElement } from 'lit';
import { InstanceStyle } from '../chrome/instance-style.js';

/** What the modal needs of the element. */
export interface ModalHost extends ReactiveElement {
  mode: string;
  opened: boolean;
}

const FOCUSABLE =
  'a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])';

/** One document-wide scroll lock, shared by every open modal panel. */
let scrollLockSheet: CSSStyleSheet | undefined;
let pageLocked = false;
const scrollLocks = new Set<PhoneModal>();

const viewport = (): VisualViewport | null => globalThis.visualViewport ?? null;

/**
 * The open launcher panel on a phone fills the screen, so it behaves as a modal dialog: it is
 * `aria-modal`, Tab and Shift+Tab cycle inside it (focus that lands on the page behind comes back),
 * the page behind does not scroll, and the panel follows the visual viewport, so an on-screen
 * keyboard that shrinks the viewport never covers the input or the newest message. Escape and the
 * return of focus to the launcher are the element's, as on a desktop. An add-on (catalog.ts), loaded
 * by `PhoneModalLoader` once the viewport is phone-sized.
 */
export class PhoneModal implements ReactiveController {
  private media?: MediaQueryList;
  private narrow = false;
  private readonly style: InstanceStyle;

  /** `query`: the media query of a phone-sized viewport (`PHONE_QUERY` of the widget). */
  constructor(
    private readonly host: ModalHost,
    private readonly query: string,
  ) {
    this.style = new InstanceStyle(host);
    host.addController(this);
  }

  /** Whether the panel is showing as a full-screen modal now. */
  get active(): boolean {
    return this.narrow && this.host.mode === 'launcher' && this.host.opened;
  }

  hostConnected(): void {
    if (typeof matchMedia !== 'function') return;
    this.media = matchMedia(this.query);
    this.narrow = this.media.matches;
    this.media.addEventListener('change', this.onMediaChange);
  }

  hostDisconnected(): void {
    this.media?.removeEventListener('change', this.onMediaChange);
    this.media = undefined;
    this.narrow = false;
    this.sync();
  }

  hostUpdated(): void {
    this.sync();
  }

  /**
   * Tab from the last control goes to the first, Shift+Tab from the first to the last. Called with
   * every keydown inside the widget (slotted header content included).
   */
  handleKeydown(event: KeyboardEvent): void {
    if (event.key !== 'Tab' || !this.active) return;
    const order = this.tabbables();
    if (!order.length) return;
    const current = this.host.shadowRoot?.activeElement ?? document.activeElement;
    const at = order.indexOf(current as HTMLElement);
    const edge = event.shiftKey ? 0 : order.length - 1;
    if (at === edge || at < 0) {
      event.preventDefault();
      order[event.shiftKey ? order.length - 1 : 0].focus();
    }
  }

  private sync(): void {
    const active = this.active;
    if (active && !scrollLocks.has(this)) {
      scrollLocks.add(this);
      document.addEventListener('focusin', this.onDocumentFocus);
      viewport()?.addEventListener('resize', this.onViewportChange);
      viewport()?.addEventListener('scroll', this.onViewportChange);
      this.onViewportChange();
    } else if (!active && scrollLocks.has(this)) {
      scrollLocks.delete(this);
      document.removeEventListener('focusin', this.onDocumentFocus);
      viewport()?.removeEventListener('resize', this.onViewportChange);
      viewport()?.removeEventListener('scroll', this.onViewportChange);
      this.style.set('--_viewport-height', null);
      this.style.set('--_viewport-top', null);
    }
    lockPageScroll(scrollLocks.size > 0);
  }

  /** The panel's keyboard-reachable controls in tab order (slotted content where its slot is). */
  private tabbables(): HTMLElement[] {
    const panel = this.host.shadowRoot?.querySelector('[part~="panel"]');
    const found: HTMLElement[] = [];
    const visit = (parent: Element) => {
      const children =
        parent instanceof HTMLSlotElement && parent.assignedElements().length
          ? parent.assignedElements({ flatten: true })
          : [...parent.children];
      for (const child of children) {
        if (child instanceof HTMLElement && child.matches(FOCUSABLE) && child.getClientRects().length) found.push(child);
        visit(child);
      }
    };
    if (panel) visit(panel);
    return found;
  }

  private readonly onMediaChange = (event: MediaQueryListEvent): void => {
    this.narrow = event.matches;
    this.sync();
    this.host.requestUpdate();
  };

  /** Focus that reached the page behind (a click, a script, the browser's own UI) comes back. */
  private readonly onDocumentFocus = (event: FocusEvent): void => {
    if (!event.composedPath().includes(this.host)) this.tabbables()[0]?.focus();
  };

  /**
   * The visual viewport is the part of the page the user sees: an on-screen keyboard shrinks it
   * (and can scroll it) without resizing the layout viewport that `position: fixed` follows.
   */
  private readonly onViewportChange = (): void => {
    const visible = viewport();
    if (!visible) return;
    this.style.set('--_viewport-height', `${visible.height}px`);
    this.style.set('--_viewport-top', `${visible.offsetTop}px`);
  };
}

/** Keeps the page behind a modal panel from scrolling, with a document stylesheet (no style attribute). */
function lockPageScroll(locked: boolean): void {
  if (locked === pageLocked || !('adoptedStyleSheets' in document)) return;
  pageLocked = locked;
  if (!scrollLockSheet) {
    scrollLockSheet = new CSSStyleSheet();
    scrollLockSheet.replaceSync('html, body { overflow: hidden !important; }');
  }
  const others = document.adoptedStyleSheets.filter((sheet) => sheet !== scrollLockSheet);
  document.adoptedStyleSheets = locked ? [...others, scrollLockSheet] : others;
}
