import { css } from 'lit';

/**
 * The action row under an answer (Copy, thumbs up and down). Its buttons are the header's
 * `.icon-button`s, smaller. The reason form after a thumbs down brings its own
 * (feedback-form.styles.ts, with its add-on).
 */
export default css`
  :host {
    --_feedback-active: var(--ai-chat-feedback-active, var(--_accent));
  }

  .actions {
    display: flex;
    gap: 2px;
    margin-block-start: 2px;
    font-size: 0.85em;
    color: var(--_muted);
  }

  .actions .icon-button {
    width: 28px;
    height: 28px;
    border-radius: 6px;
  }

  .actions .icon {
    width: 16px;
    height: 16px;
  }

  /* a chosen thumb is filled as well as coloured: not told by colour alone */
  .actions [aria-pressed='true'] {
    color: var(--_feedback-active);
  }

  .actions [aria-pressed='true'] .icon {
    fill: currentColor;
  }

  .down .icon {
    scale: 1 -1;
  }
`;
