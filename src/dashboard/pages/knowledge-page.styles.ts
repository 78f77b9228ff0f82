import { css } from 'lit';

export default css`
  .hits {
    padding-inline-start: 1.25rem;
  }
  .hits li {
    margin-bottom: 0.75rem;
  }
  .score {
    margin-inline-start: 0.5rem;
    font-size: 0.85rem;
    color: var(--aicd-muted, #4d5560);
  }
  .snippet {
    margin: 0.25rem 0 0;
    overflow-wrap: anywhere;
  }
  .editor {
    max-width: 48rem;
    margin-bottom: 1.5rem;
  }
`;
