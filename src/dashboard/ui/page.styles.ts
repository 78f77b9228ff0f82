import { css } from 'lit';

/**
 * What every data page shares: headings, tables, forms, buttons and the field-error text. Colours
 * come from `--aicd-*` custom properties the shell may set, with defaults that pass WCAG AA contrast.
 */
export default css`
  :host {
    display: block;
    color: var(--aicd-text, #1b1f24);
  }
  h1 {
    font-size: 1.5rem;
    margin: 0 0 1rem;
  }
  h2 {
    font-size: 1.15rem;
    margin: 1.5rem 0 0.75rem;
  }
  .toolbar {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: end;
    margin-bottom: 1rem;
  }
  /* A control in a toolbar lines up with the buttons beside it. */
  .toolbar label {
    margin-bottom: 0;
  }
  table {
    width: 100%;
    border-collapse: collapse;
  }
  th,
  td {
    text-align: start;
    padding: 0.45rem 0.6rem;
    border-bottom: 1px solid var(--aicd-border, #d5d9df);
    vertical-align: top;
    overflow-wrap: anywhere;
  }
  /* A header breaks between words only, never inside one (its cells may break anywhere). */
  th {
    font-weight: 600;
    overflow-wrap: normal;
    word-break: normal;
    hyphens: none;
  }
  /* A row's header is its data (a name, an email): it breaks as a cell does, or a phone scrolls sideways. */
  th[scope='row'] {
    overflow-wrap: anywhere;
  }
  label {
    display: flex;
    flex-direction: column;
    gap: 0.25rem;
    font-weight: 600;
    margin-bottom: 0.75rem;
  }
  .hint {
    font-weight: 400;
    font-size: 0.85rem;
    color: var(--aicd-muted, #4d5560);
  }
  input,
  select,
  textarea {
    font: inherit;
    font-weight: 400;
    padding: 0.4rem 0.5rem;
    border: 1px solid var(--aicd-border-strong, #6b7480);
    border-radius: 6px;
    background: var(--aicd-surface, #fff);
    color: inherit;
  }
  textarea {
    min-height: 4.5rem;
    resize: vertical;
  }
  [aria-invalid='true'] {
    border-color: #b3261e;
  }
  .field-error,
  .error {
    color: #b3261e;
    font-weight: 400;
    margin: 0.25rem 0;
  }
  .status {
    color: var(--aicd-muted, #4d5560);
  }
  button {
    font: inherit;
    /* A label never breaks inside a word, even in a table cell that breaks anywhere. */
    white-space: nowrap;
    overflow-wrap: normal;
    padding: 0.4rem 0.9rem;
    border-radius: 6px;
    border: 1px solid var(--aicd-border-strong, #6b7480);
    background: var(--aicd-surface, #fff);
    color: inherit;
    cursor: pointer;
  }
  button.primary {
    background: var(--aicd-accent, #1a56db);
    border-color: var(--aicd-accent, #1a56db);
    color: #fff;
  }
  button.danger {
    color: #b3261e;
    border-color: #b3261e;
  }
  button.link {
    border: none;
    padding: 0;
    background: none;
    color: var(--aicd-link, #1a56db);
    text-decoration: underline;
    text-align: start;
  }
  button:disabled {
    opacity: 0.6;
    cursor: default;
  }
  :is(button, input, select, textarea, a):focus-visible {
    outline: 2px solid var(--aicd-focus, #1a56db);
    outline-offset: 2px;
  }
  fieldset {
    border: 1px solid var(--aicd-border, #d5d9df);
    border-radius: 8px;
    margin: 0 0 1rem;
    padding: 0.75rem 1rem;
  }
  legend {
    font-weight: 600;
    padding: 0 0.25rem;
  }
  pre {
    background: var(--aicd-code-bg, #f3f4f6);
    padding: 0.75rem;
    border-radius: 6px;
    overflow-x: auto;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .actions {
    display: flex;
    gap: 0.4rem;
    flex-wrap: wrap;
  }
  /* Code to copy keeps its lines; a long one scrolls (the element is focusable for keyboard users). */
  pre.code {
    white-space: pre;
    overflow-wrap: normal;
    font-size: 0.8rem;
  }
  /* A phone (the shell's breakpoint, app.styles.ts): every control a touch target of 44 px or more. */
  @media (max-width: 700px) {
    button,
    select,
    input:not([type='checkbox'], [type='radio']) {
      min-height: 44px;
    }
    button {
      min-width: 44px;
    }
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
`;
