import { css } from 'lit';

/** Inside a message: the markdown subset, citations, the failed note and the typing indicator. */
export default css`
  .bubble > :first-child,
  .bubble > :first-child > :first-child {
    margin-block-start: 0;
  }

  .bubble p,
  .bubble ul,
  .bubble ol,
  .bubble pre {
    margin: 0.5em 0 0;
  }

  .bubble ul,
  .bubble ol {
    padding-inline-start: 1.3em;
  }

  /* 32 blocks of a long reply (streamed-markdown.ts): contained, so a frame of a long stream
     neither lays out nor paints a group again; its first block keeps its margin inside, as before */
  .md-group {
    contain: content;
  }

  /* block children are paragraphs of their own for the bidi algorithm (see .bubble) */
  .bubble p,
  .bubble li {
    unicode-bidi: plaintext;
  }

  .bubble code {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 0.9em;
    padding: 1px 4px;
    border-radius: 4px;
    background: rgb(127 127 127 / 0.15);
  }

  .bubble pre {
    padding: 8px 10px;
    overflow-x: auto;
    border-radius: 8px;
    background: rgb(127 127 127 / 0.15);
  }

  .bubble pre code {
    padding: 0;
    background: none;
  }

  .bubble a {
    color: inherit;
    text-decoration: underline;
    text-underline-offset: 2px;
  }

  .citations {
    margin-block-start: 4px;
    font-size: 0.85em;
    color: var(--_muted);
  }

  .citations ul {
    display: inline;
    margin: 0;
    padding: 0;
    list-style: none;
  }

  .citations li {
    display: inline;
  }

  .citations li + li::before {
    content: ' · ';
  }

  .error {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 6px;
    margin-block-start: 4px;
    font-size: 0.85em;
    color: var(--_error);
  }

  .error button {
    padding: 2px 10px;
    border: 1px solid currentColor;
    border-radius: 999px;
    background: transparent;
    color: inherit;
  }

  .typing {
    display: flex;
    gap: 4px;
    align-self: flex-start;
    padding: 13px 14px;
    border-radius: var(--_radius);
    background: var(--_bot-bubble);
  }

  .typing span {
    width: 7px;
    height: 7px;
    border-radius: 50%;
    background: var(--_muted);
    animation: blink 1.2s infinite ease-in-out both;
  }

  .typing span:nth-child(2) {
    animation-delay: 0.15s;
  }

  .typing span:nth-child(3) {
    animation-delay: 0.3s;
  }

  @keyframes blink {
    0%,
    80%,
    100% {
      opacity: 0.3;
    }
    40% {
      opacity: 1;
    }
  }
`;
