import { css } from 'lit';

export default css`
  :host {
    display: grid;
    place-items: center;
    min-height: 100vh;
    padding: 1rem;
    box-sizing: border-box;
  }
  main {
    width: min(26rem, 100%);
    background: var(--aicd-surface, #fff);
    border: 1px solid var(--aicd-border, #d5d9df);
    border-radius: 12px;
    padding: 1.5rem 1.75rem;
  }
  form {
    display: flex;
    flex-direction: column;
  }
  form button.primary {
    margin-top: 0.5rem;
  }
  .switch {
    margin-top: 1rem;
  }
`;
