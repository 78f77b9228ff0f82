import { css } from 'lit';

export default css`
  .editor {
    max-width: 48rem;
    margin-bottom: 1.5rem;
  }
  .example {
    display: grid;
    grid-template-columns: 1fr 1fr auto;
    gap: 0 0.75rem;
    align-items: center;
  }
  .training {
    border-top: 1px solid var(--aicd-border, #d5d9df);
    margin-top: 1rem;
    padding-top: 0.5rem;
  }
  h3 {
    font-size: 1.05rem;
  }
  progress {
    width: 100%;
    max-width: 20rem;
  }
  .metrics {
    max-width: 24rem;
    margin-top: 0.75rem;
  }
  .metrics caption {
    text-align: start;
    font-weight: 600;
    padding-bottom: 0.25rem;
  }
`;
