import { css } from 'lit';

export default css`
  .tiles {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(10rem, 1fr));
    gap: 0.75rem;
    margin: 0 0 1.5rem;
    padding: 0;
  }
  .tiles div {
    border: 1px solid var(--aicd-border, #d5d9df);
    border-radius: 8px;
    padding: 0.6rem 0.8rem;
  }
  .tiles dt {
    font-size: 0.85rem;
    color: var(--aicd-muted, #4d5560);
  }
  .tiles dd {
    margin: 0;
    font-size: 1.4rem;
    font-weight: 600;
  }
  .charts {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(22rem, 1fr));
    gap: 0 2rem;
  }
`;
