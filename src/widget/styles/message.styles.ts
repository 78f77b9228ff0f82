import { css } from 'lit';

/** Inside a message: the markdown subset, citations, the failed note and the typing indicator. */
export default css`
  .bubble > :first-child,
  .bubble > :first-child > :first-child {
    margin-block-start: 0;
  }

  .bubble :is(p, ul, ol, blockquote, hr, .table, .code) {
    margin: 0.5em 0 0;
  }

  .bubble [role='heading'] {
    font-weight: 600;
  }

  .bubble blockquote {
    margin-inline: 0;
    padding-inline-start: 10px;
    border-inline-start: 3px solid var(--_muted);
  }

  /* a task item's checkbox stands in for its bullet */
  .bubble li:has(> label) {
    list-style: none;
  }

  .table {
    overflow-x: auto;
  }

  .bubble table {
    border-collapse: collapse;
  }

  .bubble :is(th, td) {
    padding: 4px 8px;
    border: 1px solid rgb(127 127 127 / 0.4);
    text-align: start;
  }

  .bubble .center {
    text-align: center;
  }

  .bubble .right {
    text-align: right;
  }

  .code {
    border-radius: 8px;
    background: rgb(127 127 127 / 0.15);
  }

  .bar {
    display: flex;
    gap: 8px;
    padding: 4px 6px 0 10px;
    font-size: 0.8em;
  }

  .bar > :first-child {
    flex: 1;
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
    margin: 0;
    padding: 6px 10px 8px;
    overflow-x: auto;
  }

  .bubble pre code {
    padding: 0;
    background: none;
  }

  .bubble a,
  .citations a {
    color: inherit;
    text-decoration: underline;
    text-underline-offset: 2px;
  }

  .citations {
    margin-block-start: 4px;
    font-size: 0.85em;
    color: var(--_muted);
  }

  .citations ol {
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

  .error button,
  .bar button {
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
