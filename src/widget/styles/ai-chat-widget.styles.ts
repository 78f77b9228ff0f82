import { css } from 'lit';

/** The dark theme's defaults, for `theme="dark"` and for `theme="auto"` on a dark system. */
const darkPalette = css`
  --_accent: var(--ai-chat-accent, #6d9eff);
  --_accent-contrast: var(--ai-chat-accent-contrast, #0b1220);
  --_background: var(--ai-chat-background, #17191d);
  --_surface: var(--ai-chat-surface, #23262c);
  --_text: var(--ai-chat-text, #e8eaed);
  --_muted: var(--ai-chat-muted, #a3a9b3);
  --_border: var(--ai-chat-border, #3a3f47);
  --_error: var(--ai-chat-error, #ff8f85);
  color-scheme: dark;
`;

/*
 * Two tiers of custom properties: the public `--ai-chat-*` names are read once on :host into
 * private `--_*` variables; everything below uses only `--_*`. Sizes are px/em, not rem, so a host
 * page's root font size cannot blow the widget up. Logical properties make `dir="rtl"` mirror.
 */
export default css`
  :host {
    --_accent: var(--ai-chat-accent, #2563eb);
    --_accent-contrast: var(--ai-chat-accent-contrast, #fff);
    --_background: var(--ai-chat-background, #fff);
    --_surface: var(--ai-chat-surface, #f4f5f7);
    --_text: var(--ai-chat-text, #1f2328);
    --_muted: var(--ai-chat-muted, #5d6470);
    --_border: var(--ai-chat-border, #d8dce2);
    --_user-bubble: var(--ai-chat-user-bubble, var(--_accent));
    --_user-text: var(--ai-chat-user-text, var(--_accent-contrast));
    --_bot-bubble: var(--ai-chat-bot-bubble, var(--_surface));
    --_bot-text: var(--ai-chat-bot-text, var(--_text));
    --_error: var(--ai-chat-error, #b42318);
    --_font: var(--ai-chat-font, inherit);
    --_font-size: var(--ai-chat-font-size, 15px);
    --_radius: var(--ai-chat-radius, 16px);
    --_width: var(--ai-chat-width, 380px);
    --_height: var(--ai-chat-height, 600px);
    --_z-index: var(--ai-chat-z-index, 2147483000);
    --_offset: var(--ai-chat-offset, 20px);
    --_focus-ring: var(--ai-chat-focus-ring, var(--_accent));
    --_shadow: var(--ai-chat-shadow, 0 12px 40px rgb(15 23 42 / 0.18), 0 2px 8px rgb(15 23 42 / 0.08));
    /* a phone's notch, rounded corners and home bar, where the page has viewport-fit=cover (else 0) */
    --_safe-top: env(safe-area-inset-top, 0px);
    --_safe-right: env(safe-area-inset-right, 0px);
    --_safe-bottom: env(safe-area-inset-bottom, 0px);
    --_safe-left: env(safe-area-inset-left, 0px);

    display: block;
    font-family: var(--_font);
    font-size: var(--_font-size);
    line-height: 1.45;
    color: var(--_text);
    color-scheme: light;
  }

  :host([theme='dark']) {
    ${darkPalette}
  }

  @media (prefers-color-scheme: dark) {
    :host([theme='auto']) {
      ${darkPalette}
    }
  }

  [hidden] {
    display: none !important;
  }

  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }

  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }

  button {
    font: inherit;
    color: inherit;
    cursor: pointer;
  }

  button:disabled {
    cursor: default;
    opacity: 0.5;
  }

  :focus-visible {
    outline: 2px solid var(--_focus-ring);
    outline-offset: 2px;
  }

  .icon {
    width: 22px;
    height: 22px;
    fill: none;
    stroke: currentColor;
    stroke-width: 2;
    stroke-linecap: round;
    stroke-linejoin: round;
  }

  .launcher .icon {
    width: 26px;
    height: 26px;
  }

  .icon.filled {
    fill: currentColor;
    stroke: none;
  }

  /* ---------------------------------------------------------------- panel */

  .panel {
    display: flex;
    flex-direction: column;
    overflow: hidden;
    background: var(--_background);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }

  .header {
    display: flex;
    align-items: center;
    gap: 8px;
    padding-block: 10px;
    padding-inline: 18px 10px;
    background: var(--_surface);
    border-block-end: 1px solid var(--_border);
  }

  .title {
    flex: 1;
    margin: 0;
    font-size: 1.05em;
    font-weight: 600;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }

  .icon-button {
    display: grid;
    place-items: center;
    width: 36px;
    height: 36px;
    border: 0;
    border-radius: 50%;
    background: transparent;
    color: var(--_muted);
  }

  .icon-button:hover {
    background: var(--_border);
    color: var(--_text);
  }

  /* ---------------------------------------------------------------- transcript */

  .transcript {
    flex: 1;
    overflow-y: auto;
    overscroll-behavior: contain;
    padding: 16px;
  }

  .log,
  .block {
    display: flex;
    flex-direction: column;
    gap: 10px;
  }

  /*
   * Rows come in blocks of 50 (transcript-rows.ts). Blocks out of view skip style, layout and paint
   * (content-visibility), so a long transcript costs about what the visible part costs, and the
   * browser checks 20 blocks rather than 1,000 rows for visibility each frame; the estimate is
   * replaced by the block's real height once it has been rendered. flex-shrink: 0, or skipped
   * blocks would shrink to nothing. It also clips a block's painting to its box: the 4px padding
   * (given back by the margin) leaves room for focus rings and the failed message's outline.
   */
  .block {
    flex-shrink: 0;
    margin: -4px;
    padding: 4px;
    content-visibility: auto;
    contain-intrinsic-block-size: auto 3000px;
  }

  /* a flex container: a frozen row drops the whitespace between its children (transcript-rows.ts) */
  .message {
    display: flex;
    flex-direction: column;
    flex-shrink: 0;
    align-items: flex-start;
    max-width: 85%;
  }

  .message.user {
    align-self: flex-end;
    align-items: flex-end;
  }

  .bubble {
    padding: 9px 13px;
    border-radius: var(--_radius);
    background: var(--_bot-bubble);
    color: var(--_bot-text);
    /*
     * break-word, not anywhere: both wrap a long word at the bubble's edge, but anywhere also makes
     * every character a break for the min-content width, which a fit-content bubble computes by
     * breaking the whole text into one-character lines: seconds for a 100k-character message.
     */
    max-width: 100%;
    overflow-wrap: break-word;
    border-end-start-radius: 4px;
  }

  /* only messages that arrive while the widget shows: not a restored transcript's thousand rows */
  .live .bubble {
    animation: appear 0.15s ease-out;
  }

  /* Each paragraph takes its direction from its own text: an English reply in an Arabic widget (or
     Arabic in an English one) keeps its punctuation at the right end. The visually hidden speaker
     label is out of flow, so it does not decide the direction. */
  .bubble,
  .suggestions button,
  textarea {
    unicode-bidi: plaintext;
  }

  .user .bubble {
    background: var(--_user-bubble);
    color: var(--_user-text);
    white-space: pre-wrap;
    border-end-start-radius: var(--_radius);
    border-end-end-radius: 4px;
  }

  .user.sending .bubble {
    opacity: 0.8;
  }

  .user.failed .bubble {
    outline: 1px dashed var(--_error);
    outline-offset: 2px;
  }

  @keyframes appear {
    from {
      opacity: 0;
      transform: translateY(4px);
    }
  }

  /* ---------------------------------------------------------------- suggestions, status, composer */

  .suggestions {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
    padding: 0 16px 10px;
  }

  .suggestions button {
    padding: 6px 12px;
    border: 1px solid var(--_accent);
    border-radius: 999px;
    background: var(--_background);
    color: var(--_accent);
    font-size: 0.9em;
  }

  .suggestions button:hover:not(:disabled) {
    background: var(--_accent);
    color: var(--_accent-contrast);
  }

  .status {
    padding: 0 16px;
    font-size: 0.85em;
    color: var(--_muted);
  }

  .status.shown {
    padding-block-end: 8px;
  }

  .counter {
    padding: 0 16px 6px;
    color: var(--_muted);
    font-size: 0.8em;
    font-variant-numeric: tabular-nums;
    text-align: end;
  }

  .counter.over {
    color: var(--_error);
    font-weight: 600;
  }

  .composer {
    display: flex;
    align-items: flex-end;
    gap: 8px;
    padding: 10px 12px;
    border-block-start: 1px solid var(--_border);
    background: var(--_background);
  }

  textarea {
    flex: 1;
    min-height: 40px;
    max-height: 140px;
    padding: 8px 12px;
    resize: none;
    field-sizing: content;
    border: 1px solid var(--_border);
    border-radius: 20px;
    background: var(--_background);
    color: var(--_text);
    font: inherit;
    font-size: 16px; /* below 16px, iOS Safari zooms the page on focus */
    line-height: 1.4;
  }

  textarea::placeholder {
    color: var(--_muted);
  }

  textarea:focus-visible {
    outline-offset: 0;
    border-color: var(--_focus-ring);
  }

  .send {
    display: grid;
    place-items: center;
    flex: none;
    width: 40px;
    height: 40px;
    border: 0;
    border-radius: 50%;
    background: var(--_accent);
    color: var(--_accent-contrast);
  }

  :host(:dir(rtl)) .send .icon {
    transform: scaleX(-1);
  }

  @media (prefers-reduced-motion: reduce) {
    *,
    *::before,
    *::after {
      animation: none !important;
      transition: none !important;
    }
  }
`;
