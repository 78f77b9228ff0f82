import { css } from 'lit';

export default css`
  dialog {
    border: 1px solid var(--aicd-border, #c9ced6);
    border-radius: 8px;
    padding: 1.25rem 1.5rem;
    max-width: min(28rem, 90vw);
    color: inherit;
    background: var(--aicd-surface, #fff);
  }
  dialog::backdrop {
    background: rgb(0 0 0 / 0.4);
  }
  h2 {
    margin: 0 0 0.5rem;
    font-size: 1.1rem;
  }
  p {
    overflow-wrap: anywhere;
  }
  form {
    display: flex;
    gap: 0.5rem;
    justify-content: flex-end;
  }
  button {
    font: inherit;
    padding: 0.4rem 0.9rem;
    border-radius: 6px;
    border: 1px solid var(--aicd-border, #8a93a0);
    background: var(--aicd-surface, #fff);
    color: inherit;
    cursor: pointer;
  }
  button.danger {
    background: #b3261e;
    border-color: #b3261e;
    color: #fff;
  }
  button:focus-visible {
    outline: 2px solid var(--aicd-focus, #1a56db);
    outline-offset: 2px;
  }
`;
