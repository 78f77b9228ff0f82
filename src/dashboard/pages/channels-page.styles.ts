import { css } from 'lit';

export default css`
  section.channel {
    border: 1px solid var(--aicd-border, #d5d9df);
    border-radius: 6px;
    padding: 0 1rem 0.5rem;
    margin-bottom: 1.5rem;
  }
  h3 {
    font-size: 1rem;
    margin: 1rem 0 0.5rem;
  }
  dl.health {
    display: grid;
    grid-template-columns: max-content minmax(0, 1fr);
    gap: 0.25rem 1rem;
    margin: 0 0 0.5rem;
  }
  dl.health dt {
    font-weight: 600;
  }
  dl.health dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  ul.credentials {
    margin: 0 0 0.75rem;
    padding-inline-start: 1.2rem;
  }
`;
