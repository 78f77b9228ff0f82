import { css } from 'lit';

/**
 * Attachments (attachments.ts): the attach button, the tray and its notes above the input, the drop
 * target over the panel, and the files in the transcript's bubbles. An add-on's styles: adopted
 * into the widget's shadow root when the add-on loads. The tray and its notes live in the
 * composer's form, first in it, so they take a row of their own (full width) above the input.
 */
export default css`
  /* the drop target covers the panel (the launcher's panel is positioned already) */
  .panel {
    position: relative;
  }

  .composer {
    flex-wrap: wrap;
    row-gap: 0;
  }

  .attach {
    flex: none;
    width: 40px;
    height: 40px;
  }

  .attachments-area {
    flex: 1 0 100%;
    min-width: 0;
  }

  .attachments {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
    margin: 0 0 8px;
    padding: 0;
    list-style: none;
  }

  .attachments li {
    display: flex;
    align-items: center;
    gap: 6px;
    max-width: 100%;
    padding-block: 3px;
    padding-inline: 6px 3px;
    border: 1px solid var(--_border);
    border-radius: 8px;
    font-size: 0.85em;
  }

  .attachments img {
    width: 32px;
    height: 32px;
    object-fit: cover;
    border-radius: 4px;
  }

  .attachments .icon-button {
    width: 28px;
    height: 28px;
  }

  .attachments .icon-button .icon {
    width: 16px;
    height: 16px;
  }

  .attachments progress {
    width: 48px;
    accent-color: var(--_accent);
  }

  .attachments .name,
  .attachment-file .name {
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }

  .attachments .name {
    max-width: 12em;
  }

  .size {
    flex: none;
    opacity: 0.8;
  }

  .attachments-note p {
    margin: 0 0 8px;
    font-size: 0.85em;
    color: var(--_muted);
  }

  .drop-zone {
    position: absolute;
    inset: 0;
    z-index: 2;
    display: grid;
    place-items: center;
    padding: 16px;
    pointer-events: none; /* the drop lands on the panel below it */
    font-weight: 600;
    text-align: center;
  }

  .drop-zone:not(:empty) {
    border: 2px dashed var(--_accent);
    border-radius: var(--_radius);
    background: var(--_background);
    color: var(--_accent);
    opacity: 0.95;
  }

  /* ---------------------------------------------------------------- in the transcript */

  .attachment-list {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
    margin-block-start: 6px;
  }

  /* a message of files only: nothing above them */
  .attachment-list.alone {
    margin-block-start: 0;
  }

  .attachment-image {
    display: block;
    max-width: 100%;
    line-height: 0;
  }

  .attachment-image img {
    max-width: 100%;
    height: auto;
    max-height: 200px;
    object-fit: contain;
    border-radius: 8px;
  }

  .attachment-file {
    display: inline-flex;
    align-items: center;
    gap: 6px;
    max-width: 100%;
    padding: 6px 10px;
    border: 1px solid currentColor;
    border-radius: 8px;
    background: transparent;
    font-size: 0.9em;
  }

  .attachment-file .icon {
    flex: none;
    width: 18px;
    height: 18px;
  }
`;
