import { css } from 'lit';

export default css`
  .import {
    max-width: 48rem;
  }
  .hint {
    font-weight: 400;
    font-size: 0.85rem;
    color: var(--aicd-muted, #4d5560);
  }
  .progress {
    display: flex;
    flex-direction: column;
    gap: 0.25rem;
  }
  .job-status {
    font-weight: 600;
  }
  progress {
    width: 100%;
    max-width: 16rem;
  }
  .issues {
    margin: 0.25rem 0 0;
    padding-inline-start: 1.25rem;
    overflow-wrap: anywhere;
  }
  .actions {
    white-space: nowrap;
  }
`;
