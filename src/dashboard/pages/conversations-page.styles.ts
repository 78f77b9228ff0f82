import { css } from 'lit';

export default css`
  .filters {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr));
    gap: 0 0.75rem;
    align-items: end;
    margin-bottom: 1rem;
  }
  .filters .toolbar {
    grid-column: 1 / -1;
    margin: 0.25rem 0 0;
  }
  .preview {
    max-width: 28rem;
  }
  .labels {
    list-style: none;
    display: flex;
    flex-wrap: wrap;
    gap: 0.3rem;
    padding: 0;
    margin: 0;
  }
  .labels li {
    border: 1px solid var(--aicd-border, #d5d9df);
    border-radius: 999px;
    padding: 0 0.5rem;
    font-size: 0.85rem;
    overflow-wrap: anywhere;
  }
  tr[aria-current='true'] {
    background: var(--aicd-selected, #eef3fd);
  }
  .transcript {
    margin-top: 1.5rem;
  }
  .meta {
    color: var(--aicd-muted, #4d5560);
    overflow-wrap: anywhere;
  }
  .messages {
    list-style: none;
    padding: 0;
    display: flex;
    flex-direction: column;
    gap: 0.6rem;
  }
  .message {
    border: 1px solid var(--aicd-border, #d5d9df);
    border-radius: 8px;
    padding: 0.5rem 0.75rem;
    max-width: 48rem;
  }
  .message.user {
    background: var(--aicd-user-bg, #f3f6fb);
  }
  .who {
    margin: 0 0 0.25rem;
    font-size: 0.85rem;
    color: var(--aicd-muted, #4d5560);
  }
  .text {
    margin: 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .feedback {
    margin: 0.35rem 0 0;
    font-size: 0.9rem;
  }
`;
