import type { ReactiveController } from 'lit';
import { AddonPart } from './loader.js';
import type { ModalHost, PhoneModal } from './phone-modal.js';

/** The width below which the launcher's panel fills the screen (the same as in the styles). */
export const PHONE_QUERY = '(max-width: 480px)';

/**
 * The phone modal (`PhoneModal`) is an add-on: a page loads it once its viewport is phone-sized, at
 * once on a phone, on a desktop only if a window narrows that far. Until it has loaded, the panel is
 * the ordinary one; a panel already open when it arrives becomes modal then, as when a window narrows.
 */
export class PhoneModalLoader extends AddonPart<'phone', PhoneModal> implements ReactiveController {
  private media?: MediaQueryList;

  constructor(host: ModalHost) {
    // the modal follows the host from here on; the update (a microtask away) finds it in place
    super('phone', ({ PhoneModal }) => (host.requestUpdate(), new PhoneModal(host, PHONE_QUERY)));
    host.addController(this);
  }

  /** Whether the panel is showing as a full-screen modal now (`undefined`: not before the add-on). */
  get active(): boolean | undefined {
    return this.part?.active;
  }

  /** Keeps Tab inside the modal panel (see `PhoneModal.handleKeydown`). */
  handleKeydown(event: KeyboardEvent): void {
    this.part?.handleKeydown(event);
  }

  hostConnected(): void {
    if (this.part || typeof matchMedia !== 'function') return;
    this.media = matchMedia(PHONE_QUERY);
    this.media.addEventListener('change', this.need);
    this.need();
  }

  hostDisconnected(): void {
    this.media?.removeEventListener('change', this.need);
  }

  private readonly need = (): void => {
    if (!this.media?.matches) return;
    this.media.removeEventListener('change', this.need);
    // without it, try again at the next narrowing
    void this.load().then((modal) => modal || this.media?.addEventListener('change', this.need));
  };
}
