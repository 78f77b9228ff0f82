import { css } from 'lit';

export default css`
  .layout {
    display: grid;
    grid-template-columns: minmax(16rem, 24rem) minmax(0, 1fr);
    gap: 1.5rem;
    align-items: start;
  }
  @media (max-width: 48rem) {
    .layout {
      grid-template-columns: 1fr;
    }
  }
  .queue {
    list-style: none;
    padding: 0;
    margin: 0;
    display: flex;
    flex-direction: column;
    gap: 0.5rem;
  }
  .item {
    border: 1px solid var(--aicd-border, #d5d9df);
    border-radius: 8px;
    padding: 0.5rem 0.75rem;
  }
  .item[aria-current='true'] {
    background: var(--aicd-selected, #eef3fd);
  }
  .item .who,
  .meta {
    margin: 0 0 0.25rem;
    font-size: 0.85rem;
    color: var(--aicd-muted, #4d5560);
    overflow-wrap: anywhere;
  }
  .preview {
    margin: 0 0 0.5rem;
    overflow-wrap: anywhere;
  }
  .messages {
    list-style: none;
    padding: 0;
    display: flex;
    flex-direction: column;
    gap: 0.6rem;
    max-height: 28rem;
    overflow-y: auto;
  }
  .message {
    border: 1px solid var(--aicd-border, #d5d9df);
    border-radius: 8px;
    padding: 0.5rem 0.75rem;
  }
  .message.user {
    background: var(--aicd-user-bg, #f3f6fb);
  }
  .message.operator {
    border-color: var(--aicd-accent, #1f5fbf);
  }
  .text {
    margin: 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .reply textarea {
    width: 100%;
    box-sizing: border-box;
    min-height: 4.5rem;
  }
  .offline td {
    overflow-wrap: anywhere;
  }
`;
