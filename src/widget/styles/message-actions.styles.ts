import { css } from 'lit';

/**
 * The action row under an answer (Copy, thumbs up and down) and the reason form after a thumbs down.
 * Its buttons are the header's `.icon-button`s, smaller; the form's are the quick replies' pills.
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

  .feedback-form {
    margin-block-start: 6px;
    padding: 8px 10px;
    border: 1px solid var(--_border);
    border-radius: 10px;
  }

  .feedback-form fieldset,
  .feedback-form textarea {
    flex-basis: 100%;
    margin: 0;
    padding: 0;
    border: 0;
  }

  /* a choice wraps as a whole, never its radio apart from its words */
  .feedback-form label {
    display: inline-block;
    margin-inline-end: 12px;
  }

  .feedback-form textarea {
    padding: 4px 6px;
    border: 1px solid var(--_border);
    border-radius: 6px;
    background: var(--_background);
  }
`;
