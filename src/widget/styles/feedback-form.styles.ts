import { css } from 'lit';

/**
 * The reason form after a thumbs down (feedback-form.ts): an add-on's styles, adopted into the
 * widget's shadow root when the form first shows. Its buttons are the quick replies' pills.
 */
export default css`
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
