import { css } from 'lit';

export default css`
  .layout {
    display: grid;
    grid-template-columns: minmax(16rem, 24rem) minmax(0, 1fr);
    gap: 1.5rem;
    align-items: start;
  }
  .back {
    display: none;
  }
  /* Too narrow for two panes (a phone): the list, or the open conversation with its Back button. */
  @media (max-width: 48rem) {
    .layout {
      grid-template-columns: 1fr;
    }
    .layout.open > :first-child {
      display: none;
    }
    .back {
      display: inline-block;
      margin-bottom: 0.5rem;
    }
    /* the reply box stays a short scroll below the newest message */
    .messages {
      max-height: 50vh;
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
  /* A private note: the team's only, so it must never pass for a message the visitor saw. */
  .message.note {
    background: var(--aicd-note-bg, #fff8db);
    border-style: dashed;
    border-color: var(--aicd-note-border, #b08900);
  }
  .filters {
    display: grid;
    gap: 0.25rem;
    margin-bottom: 0.75rem;
  }
  .reply {
    position: relative;
  }
  .canned {
    list-style: none;
    margin: 0.25rem 0;
    padding: 0.25rem;
    border: 1px solid var(--aicd-border, #d5d9df);
    border-radius: 8px;
    background: var(--aicd-surface, #fff);
    max-height: 16rem;
    overflow-y: auto;
  }
  .canned [role='option'] {
    padding: 0.3rem 0.5rem;
    border-radius: 6px;
    cursor: pointer;
    overflow-wrap: anywhere;
  }
  .canned [aria-selected='true'] {
    background: var(--aicd-selected, #eef3fd);
    outline: 2px solid var(--aicd-accent, #1f5fbf);
  }
  .canned .shortcut {
    font-weight: 600;
  }
  .note textarea {
    width: 100%;
    box-sizing: border-box;
    min-height: 3rem;
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
`;
