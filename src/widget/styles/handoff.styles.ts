import { css } from 'lit';

/**
 * Human handoff's banner, its "Talk to a person" row and the email form (handoff.ts). An add-on's
 * styles: adopted into the widget's shadow root when the add-on loads. Buttons are the quick
 * replies' pills (`.suggestions`); the operator's name above their messages is the widget's own
 * (chat-chrome.styles.ts), since history shows operator messages without this add-on.
 */
export default css`
  .handoff-status:not(:empty) {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 4px 12px;
    padding: 0 16px 8px;
    font-size: 0.85em;
    color: var(--_muted);
  }

  .handoff-status .avatar {
    width: 20px;
    height: 20px;
    margin: 0;
  }

  .handoff-typing {
    font-style: italic;
  }

  .handoff-offline {
    align-items: center;
    font-size: 0.9em;
    color: var(--_muted);
  }

  /* the email form, and the satisfaction survey's box (csat.styles.ts has its stars) */
  .offline-form,
  .csat {
    display: grid;
    gap: 8px;
    margin: 0 16px 10px;
    padding: 8px 10px;
    border: 1px solid var(--_border);
    border-radius: 10px;
    font-size: 0.9em;
  }

  .offline-form p,
  .csat p {
    margin: 0;
  }

  .offline-form label {
    display: grid;
    gap: 4px;
  }

  .offline-form input,
  .offline-form textarea,
  .csat textarea {
    min-height: 0;
    padding: 6px 8px;
    border: 1px solid var(--_border);
    border-radius: 6px;
    background: var(--_background);
    color: var(--_text);
    font: inherit;
    font-size: 16px; /* below 16px, iOS Safari zooms the page on focus */
  }

  .offline-form .suggestions,
  .csat .suggestions {
    padding: 0;
  }
`;
