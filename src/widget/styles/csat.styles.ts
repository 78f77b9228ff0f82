import { css } from 'lit';

/**
 * The satisfaction survey's stars (csat-survey.ts): an add-on's styles, adopted into the widget's
 * shadow root when it loads. Five stars over visually hidden radios (the radios stay focusable, so
 * the arrow keys and screen readers work as with any radio group). Its box, comment field and
 * buttons are styled with the email form's (handoff.styles.ts: the handoff add-on shows the survey).
 */
export default css`
  .csat fieldset {
    margin: 0;
    padding: 0;
    border: 0;
  }

  .csat-stars {
    display: flex;
    gap: 2px;
  }

  .csat-stars label {
    position: relative;
    font-size: 1.6em;
    line-height: 1;
    color: var(--_muted);
    cursor: pointer;
  }

  .csat-stars input {
    position: absolute;
    inset: 0;
    margin: 0;
    opacity: 0;
    cursor: pointer;
  }

  /* the chosen star and every one before it; on hover, the hovered one and before */
  .csat-stars:not(:hover) label:has(input:checked),
  .csat-stars:not(:hover) label:has(~ label input:checked),
  .csat-stars label:hover,
  .csat-stars label:has(~ label:hover) {
    color: var(--_accent);
  }

  .csat-stars label:has(input:focus-visible) {
    outline: 2px solid var(--_focus-ring);
    outline-offset: 1px;
    border-radius: 4px;
  }
`;
