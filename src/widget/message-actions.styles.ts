import { css } from 'lit';

/** The action row under an answer (Copy, thumbs up and down) and the reason form after a thumbs down. */
export default css`
  :host {
    --_feedback-active: var(--ai-chat-feedback-active, var(--_accent));
  }

  .actions {
    display: flex;
    gap: 2px;
    margin-block-start: 2px;
    color: var(--_muted);
    font-size: 0.85em;
  }

  .action {
    display: grid;
    place-items: center;
    width: 28px;
    height: 28px;
    padding: 0;
    border: 0;
    border-radius: 6px;
    background: none;
    color: inherit;
  }

  .action:hover {
    background: var(--_border);
    color: var(--_text);
  }

  .action .icon {
    width: 16px;
    height: 16px;
  }

  /* a chosen thumb is filled as well as coloured: not told by colour alone */
  .action[aria-pressed='true'] {
    color: var(--_feedback-active);
  }

  .action[aria-pressed='true'] .icon {
    fill: currentColor;
  }

  .down .icon {
    scale: 1 -1;
  }

  .feedback-form {
    width: 100%;
    margin-block-start: 6px;
    padding: 8px 10px;
    border: 1px solid var(--_border);
    border-radius: 10px;
    font-size: 0.9em;
  }

  .feedback-form fieldset {
    margin: 0;
    padding: 0;
    border: 0;
  }

  .feedback-form label {
    margin-inline-end: 12px;
  }

  .feedback-form textarea {
    width: 100%;
    margin-block: 6px;
    border: 1px solid var(--_border);
    border-radius: 6px;
    background: var(--_background);
    color: inherit;
    font: inherit;
  }

  .feedback-form button {
    margin-inline-end: 6px;
    border: 1px solid currentColor;
    border-radius: 6px;
    background: none;
    color: inherit;
  }
`;
