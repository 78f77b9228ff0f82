import { css } from 'lit';

export default css`
  a {
    color: var(--aicd-link, #1a56db);
  }
  /* "New bot" goes to a page of its own, so it is a link; it looks like the other primary actions. */
  a.button {
    display: inline-block;
    padding: 0.4rem 0.9rem;
    border-radius: 6px;
    text-decoration: none;
  }
  a.button.primary {
    background: var(--aicd-accent, #1a56db);
    color: #fff;
  }
`;
