import { css } from 'lit';

/**
 * The layout of each mode: inline and full page, then launcher mode (the floating button, its
 * panel, the row of several launchers on one page, and the full-screen (modal) panel on a phone).
 * Uses the private `--_*` properties of the main styles.
 */
export default css`
  /* ---------------------------------------------------------------- inline and full page */

  /*
   * The host's box comes from its attributes and custom properties alone, never from its content,
   * so it is the same before the element upgrades (see the README's ":not(:defined)" rule), while
   * the transcript loads, and after: no layout shift on the host page. min-width: 0, because in a
   * grid or flex layout the content's min-content width (rows that are not rendered yet count as
   * 100vw wide) would otherwise widen the page's column, which an undefined, empty element did not.
   */
  :host([mode='inline']),
  :host([mode='fullpage']) {
    min-width: 0;
  }

  :host([mode='inline']) {
    height: var(--_height);
  }

  :host([mode='inline']) .root,
  :host([mode='inline']) .panel {
    height: 100%;
  }

  :host([mode='fullpage']) {
    height: 100%;
    min-height: 100dvh;
  }

  :host([mode='fullpage']) .root,
  :host([mode='fullpage']) .panel {
    height: 100%;
    min-height: inherit;
  }

  :host([mode='fullpage']) .panel {
    border: 0;
    border-radius: 0;
    padding: var(--_safe-top) var(--_safe-right) var(--_safe-bottom) var(--_safe-left);
  }

  /* ---------------------------------------------------------------- launcher mode */

  /*
   * --_stack is this launcher's place in the row of launchers on the page (0: the corner; set per
   * instance by LauncherStack), so two launchers never sit on top of each other. The open one comes
   * to the front: its panel must not be covered by the other launchers. Clear of a phone's home bar
   * and, in landscape, of its notch (on either side: the insets are physical, the corner logical).
   */
  :host([mode='launcher']) {
    --_launcher-step: calc(var(--_stack, 0) * 68px + max(var(--_safe-left), var(--_safe-right)));
    position: fixed;
    inset-block-end: calc(var(--_offset) + var(--_safe-bottom));
    inset-inline-end: calc(var(--_offset) + var(--_launcher-step));
    z-index: var(--_z-index);
  }

  :host([mode='launcher'][open]) {
    z-index: calc(var(--_z-index) + 1);
  }

  .launcher {
    display: grid;
    place-items: center;
    width: 56px;
    height: 56px;
    border: 0;
    border-radius: 50%;
    background: var(--_accent);
    color: var(--_accent-contrast);
    box-shadow: var(--_shadow);
    transition: transform 0.15s ease;
  }

  .launcher:hover {
    transform: scale(1.05);
  }

  :host([mode='launcher']) .panel {
    position: absolute;
    inset-block-end: calc(100% + 12px);
    inset-inline-end: 0;
    width: min(var(--_width), calc(100vw - 2 * var(--_offset) - var(--_launcher-step)));
    height: min(var(--_height), calc(100dvh - 2 * var(--_offset) - 68px - var(--_safe-bottom) - var(--_safe-top)));
    box-shadow: var(--_shadow);
    animation: rise 0.18s ease-out;
  }

  @keyframes rise {
    from {
      opacity: 0;
      transform: translateY(8px);
    }
  }

  /*
   * position="bottom-left": the other corner, the launcher's panel and teaser opening from there
   * (mirrored, as everything is, in a right-to-left page)
   */
  :host([position='bottom-left']) {
    inset-inline: calc(var(--_offset) + var(--_launcher-step)) auto;
  }

  :host([position='bottom-left']) :is(.panel, .teaser) {
    inset-inline: 0 auto;
  }

  /*
   * Full screen on a phone (PHONE_QUERY in phone-modal-loader.ts), and as tall as the visual viewport: an
   * on-screen keyboard shrinks that without resizing the layout viewport, and the input must stay
   * above the keyboard (PhoneModal sets --_viewport-*).
   */
  @media (max-width: 480px) {
    :host([mode='launcher']) .panel {
      position: fixed;
      inset-inline: 0;
      inset-block: var(--_viewport-top, 0px) auto;
      width: auto;
      height: var(--_viewport-height, 100%);
      border: 0;
      border-radius: 0;
      padding: var(--_safe-top) var(--_safe-right) var(--_safe-bottom) var(--_safe-left);
    }

    /* the full-screen panel has its own close button; the launcher would cover the send button */
    :host([mode='launcher'][open]) .launcher {
      display: none;
    }
  }
`;
