import { css } from 'lit';

/**
 * The shell: a header, the navigation beside the page. On a narrow screen (a phone) the header wraps,
 * the navigation folds behind the menu button (above the page when open), and every control is a
 * touch target of at least 44 px.
 */
export default css`
  :host {
    display: block;
    min-height: 100vh;
    color: var(--aicd-text, #1b1f24);
    background: var(--aicd-bg, #f6f7f9);
    font: 16px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
  }
  .skip {
    position: absolute;
    inset-inline-start: -9999px;
  }
  .skip:focus {
    inset-inline-start: 1rem;
    top: 1rem;
    z-index: 10;
    background: #fff;
    padding: 0.5rem 1rem;
  }
  header {
    display: flex;
    align-items: center;
    gap: 1rem;
    padding: 0.6rem 1.25rem;
    background: var(--aicd-header-bg, #111827);
    color: #f9fafb;
  }
  header .brand {
    font-weight: 700;
    margin-inline-end: auto;
  }
  header .who {
    font-size: 0.9rem;
    overflow-wrap: anywhere;
  }
  header select {
    font: inherit;
    margin-inline-start: 0.3rem;
    padding: 0.2rem 0.4rem;
    border-radius: 6px;
    border: 1px solid #9ca3af;
    background: transparent;
    color: inherit;
  }
  header option {
    color: #1b1f24;
  }
  .language {
    font-size: 0.9rem;
  }
  .signed-out {
    display: flex;
    justify-content: flex-end;
    padding: 0.6rem 1.25rem;
  }
  header button {
    font: inherit;
    padding: 0.3rem 0.8rem;
    border-radius: 6px;
    border: 1px solid #9ca3af;
    background: transparent;
    color: inherit;
    cursor: pointer;
  }
  .menu {
    display: none;
  }
  .layout {
    display: grid;
    grid-template-columns: 13rem 1fr;
    min-height: calc(100vh - 3rem);
  }
  nav ul {
    list-style: none;
    margin: 0;
    padding: 1rem 0.5rem;
  }
  nav a {
    display: block;
    padding: 0.45rem 0.75rem;
    border-radius: 6px;
    color: inherit;
    text-decoration: none;
  }
  nav a:hover {
    background: #e5e7eb;
  }
  .badge {
    display: inline-block;
    min-width: 1.3rem;
    margin-inline-start: 0.3rem;
    padding: 0 0.35rem;
    border-radius: 999px;
    background: #b3261e;
    color: #fff;
    font-size: 0.8rem;
    font-weight: 700;
    text-align: center;
  }
  nav a[aria-current='page'] {
    background: var(--aicd-accent, #1a56db);
    color: #fff;
  }
  main {
    padding: 1.5rem 2rem 3rem;
    background: var(--aicd-surface, #fff);
    min-width: 0;
  }
  main:focus {
    outline: none;
  }
  :is(a, button):focus-visible {
    outline: 2px solid var(--aicd-focus, #1a56db);
    outline-offset: 2px;
  }
  .notice {
    color: var(--aicd-muted, #4d5560);
  }
  .error {
    color: #b3261e;
  }
  @media (max-width: 700px) {
    header {
      flex-wrap: wrap;
      gap: 0.5rem;
      padding: 0.5rem 1rem;
    }
    header .brand {
      margin-inline-end: 0;
    }
    header .who {
      flex-basis: 100%;
      order: 1;
    }
    header :is(button, select),
    header .menu {
      display: inline-flex;
      align-items: center;
      gap: 0.4rem;
      min-height: 44px;
      min-width: 44px;
    }
    .layout {
      grid-template-columns: 1fr;
    }
    nav:not(.open) {
      display: none;
    }
    nav ul {
      display: grid;
      grid-template-columns: repeat(auto-fill, minmax(9rem, 1fr));
      gap: 0.25rem;
      padding: 0.5rem;
    }
    nav a {
      display: flex;
      align-items: center;
      min-height: 44px;
    }
    main {
      padding: 1rem;
    }
  }
`;
