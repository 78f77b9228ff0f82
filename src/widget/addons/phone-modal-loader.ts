import type { ReactiveController } from 'lit';
import { loadAddon } from './addons.js';
import type { ModalHost, PhoneModal } from './phone-modal.js';

/** The width below which the launcher's panel fills the screen (the same as in the styles). */
export const PHONE_QUERY = '(max-width: 480px)';

/**
 * The phone modal (`PhoneModal`) is an add-on: a page loads it once its viewport is phone-sized, at
 * once on a phone, on a desktop only if a window narrows that far. Until it has loaded, the panel is
 * the ordinary one; a panel already open when it arrives becomes modal then, as when a window narrows.
 */
export class PhoneModalLoader implements ReactiveController {
  private modal?: PhoneModal;
  private media?: MediaQueryList;

  constructor(private readonly host: ModalHost) {
    host.addController(this);
  }

  /** Whether the panel is showing as a full-screen modal now. */
  get active(): boolean {
    return this.modal?.active ?? false;
  }

  /** Keeps Tab inside the modal panel (see `PhoneModal.handleKeydown`). */
  handleKeydown(event: KeyboardEvent): void {
    this.modal?.handleKeydown(event);
  }

  hostConnected(): void {
    if (this.modal || typeof matchMedia !== 'function') return;
    this.media = matchMedia(PHONE_QUERY);
    this.media.addEventListener('change', this.load);
    this.load();
  }

  hostDisconnected(): void {
    this.media?.removeEventListener('change', this.load);
  }

  private readonly load = (): void => {
    if (!this.media?.matches) return;
    this.media.removeEventListener('change', this.load);
    loadAddon('phone').then(
      ({ PhoneModal }) => {
        this.modal ??= new PhoneModal(this.host); // it follows the host from here on
        this.host.requestUpdate();
      },
      () => this.media?.addEventListener('change', this.load), // try again at the next narrowing
    );
  };
}
