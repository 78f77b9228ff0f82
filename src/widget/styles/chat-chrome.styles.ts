import { css } from 'lit';

/**
 * The chrome (chat-chrome.ts, launcher-invite.ts): Stop, the stopped note,
 * time labels, the header's avatar and "New conversation" confirmation, the unread badge and the
 * teaser. The confirmation and the teaser reuse the quick replies' pills (`.suggestions`). Uses
 * the private `--_*` properties of the main styles only.
 */
export default css`
  .send.stop {
    background: var(--_surface);
    color: var(--_text);
  }

  .stopped,
  .time {
    font-size: 0.8em;
    color: var(--_muted);
  }

  .avatar {
    width: 28px;
    height: 28px;
    margin-inline-end: 8px;
    border-radius: 50%;
    vertical-align: middle;
  }

  .confirm {
    padding-block-start: 10px;
    border-block-end: 1px solid var(--_border);
  }

  .confirm p {
    flex-basis: 100%;
    margin: 0;
  }

  /* over the launcher's corner (56px high); clicks go through to the launcher */
  .badge {
    position: absolute;
    inset-block-end: 40px;
    inset-inline-end: -4px;
    padding: 0 6px;
    border-radius: 999px;
    background: var(--_error);
    color: var(--_background);
    font-size: 12px;
    line-height: 20px;
    pointer-events: none;
  }

  .teaser {
    position: absolute;
    inset-block-end: calc(100% + 12px);
    inset-inline-end: 0;
    align-items: center;
    width: max-content;
    max-width: 280px;
    padding: 6px;
    background: var(--_background);
    border-radius: var(--_radius);
    box-shadow: var(--_shadow);
  }

  /* an operator's name and avatar above their message (human handoff) */
  .author {
    display: flex;
    align-items: center;
    gap: 6px;
    margin-block-end: 2px;
    font-size: 0.8em;
    color: var(--_muted);
  }

  .author .avatar {
    width: 20px;
    height: 20px;
    margin: 0;
  }
`;
