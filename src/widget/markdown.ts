/**
 * A small markdown subset, rendered straight to Lit templates.
 *
 * Why hand-written instead of marked/markdown-it + DOMPurify:
 * - Size: the whole IIFE, lit included, has a 30 KB gzip budget; a full markdown parser plus a
 *   sanitizer would take most of it.
 * - Safety by construction: nothing here produces an HTML string. Every piece of bot text reaches
 *   the DOM as a Lit text binding, so raw HTML (`<img onerror=…>`) shows as text and no sanitizer
 *   has to be right. Links are the only attribute built from bot text, and `safeHref` admits only
 *   absolute http(s) and mailto URLs.
 *
 * Supported: paragraphs, line breaks, `#` headings (rendered as bold lines), **bold**, *em*,
 * `inline code`, fenced code blocks, bulleted and numbered lists (one level), `[text](url)` links
 * and bare http(s) URLs.
 */
import { html, nothing, type TemplateResult } from 'lit';

type Inline = string | TemplateResult;

const ALLOWED_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** The normalised URL when it is absolute http, https or mailto; otherwise `null`. */
export function safeHref(raw: string): string | null {
  try {
    const url = new URL(raw.trim());
    return ALLOWED_PROTOCOLS.has(url.protocol) ? url.href : null;
  } catch {
    return null; // relative or malformed: not a link
  }
}

/** Inline markup nested deeper than this (bold in a link in emphasis…) shows as plain text. */
const MAX_NESTING = 8;
/** `(url)` after a link's `]`: parentheses may nest one level, as in Wikipedia URLs. */
const LINK_URL = /([^()\s]*(?:\([^()\s]*\)[^()\s]*)*)\)/y;
const BARE_URL = /https?:\/\/[^\s<>]*[^\s<>.,;:!?'")\]]/y;
const SPACE = /\s/;

/** Work done by the inline scanner (characters visited), for tests that it stays linear. */
export const inlineWork = { steps: 0 };

/**
 * Invisible characters that reorder text for display: the Arabic letter mark, LRM/RLM, the
 * embeddings and overrides (U+202A–U+202E) and the isolates (U+2066–U+2069).
 */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Link text with each direction control shown as `<U+202E>`. `[invoice\u202Efdp.exe](…)` would
 * otherwise read "invoiceexe.pdf". Shown rather than removed: a reader sees that the text was
 * tampered with, and nothing the bot sent disappears without a trace.
 */
export function showBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, (c) => `<U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}>`);
}

/**
 * `dir="auto"` makes the link a bidi isolate (HTML's UA stylesheet): controls in the text around
 * it cannot reorder its text, and its own direction comes from its own first strong letter.
 */
function link(href: string | null, children: Inline[]): Inline {
  if (!href) return html`${children}`;
  return html`<a href=${href} target="_blank" rel="noopener noreferrer" dir="auto">${children}</a>`;
}

/**
 * For every position, where the next closing delimiter of each kind is. Built right to left in one
 * pass, so finding an opener's closer is a lookup, not a scan: a regex with a lazy `*?` body tries
 * every `*` against the whole rest of the text, quadratic on text full of unclosed asterisks.
 */
function closers(text: string) {
  const n = text.length;
  const table = () => new Int32Array(n + 2).fill(n);
  const backtick = table(), newline = table(), bracket = table(), strong = table(), em = table();
  for (let i = n - 1; i >= 0; i--) {
    inlineWork.steps++;
    const c = text[i];
    backtick[i] = c === '`' ? i : backtick[i + 1];
    newline[i] = c === '\n' ? i : newline[i + 1];
    bracket[i] = c === ']' ? i : bracket[i + 1];
    const before = text[i - 1];
    const textBefore = i > 0 && !SPACE.test(before); // a closer follows `\S`
    strong[i] = c === '*' && text[i + 1] === '*' && textBefore ? i : strong[i + 1];
    em[i] = c === '*' && textBefore && before !== '*' ? i : em[i + 1];
  }
  return { backtick, newline, bracket, strong, em };
}

/** An opener must be followed by `\S`. */
const opens = (c: string | undefined) => c !== undefined && !SPACE.test(c);

/**
 * Renders one line of inline markdown (`\n` inside becomes `<br>`): `code`, **bold**, *em*,
 * [text](url) and bare http(s) URLs; at each position the first of these that matches wins, and
 * the nearest closer closes. Linear in the length of `text`. `inLink`: the text is a link's (see
 * `showBidiControls`).
 */
export function renderInline(text: string, depth = 0, inLink = false): Inline[] {
  const out: Inline[] = [];
  const shown = inLink ? showBidiControls : (s: string) => s;
  const pushText = (s: string) => {
    s.split('\n').forEach((line, i) => {
      if (i > 0) out.push(html`<br />`);
      if (line) out.push(shown(line));
    });
  };
  if (depth >= MAX_NESTING) {
    pushText(text);
    return out;
  }
  const n = text.length;
  const next = closers(text);
  const linkUrls = new Map<number, string | null>(); // by the `]` index: many `[` may share one
  const inner = (from: number, to: number, linkText = inLink) => renderInline(text.slice(from, to), depth + 1, linkText);
  let last = 0;
  let p = 0;
  while (p < n) {
    inlineWork.steps++;
    const c = text[p];
    let token: Inline | null = null;
    let end = p;
    if (c === '`') {
      const close = next.backtick[p + 1];
      if (close < n && close > p + 1 && next.newline[p + 1] > close) {
        token = html`<code>${shown(text.slice(p + 1, close))}</code>`;
        end = close + 1;
      }
    }
    if (!token && c === '*' && text[p + 1] === '*' && opens(text[p + 2])) {
      const close = next.strong[p + 3];
      if (close < n) {
        token = html`<strong>${inner(p + 2, close)}</strong>`;
        end = close + 2;
      }
    }
    if (!token && c === '*' && opens(text[p + 1]) && text[p + 1] !== '*') {
      const close = next.em[p + 2];
      if (close < n) {
        token = html`<em>${inner(p + 1, close)}</em>`;
        end = close + 1;
      }
    }
    if (!token && c === '[') {
      const close = next.bracket[p + 1];
      if (close < n && close > p + 1 && next.newline[p + 1] > close && text[close + 1] === '(') {
        if (!linkUrls.has(close)) {
          LINK_URL.lastIndex = close + 2;
          linkUrls.set(close, LINK_URL.exec(text)?.[1] ?? null);
        }
        const url = linkUrls.get(close);
        if (url != null) {
          token = link(safeHref(url), inner(p + 1, close, true));
          end = close + 2 + url.length + 1;
        }
      }
    }
    if (!token && c === 'h' && (text.startsWith('http://', p) || text.startsWith('https://', p))) {
      BARE_URL.lastIndex = p;
      const bare = BARE_URL.exec(text)?.[0];
      if (bare) {
        token = link(safeHref(bare), [showBidiControls(bare)]);
        end = p + bare.length;
      }
    }
    if (!token) {
      p++;
      continue;
    }
    pushText(text.slice(last, p));
    out.push(token);
    last = p = end;
  }
  pushText(text.slice(last));
  return out;
}

const FENCE = /^\s*(```|~~~)/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const ORDERED = /^\s*(\d{1,9})[.)]\s+(.*)$/;
const HEADING = /^\s*#{1,6}\s+(.*)$/;

export type Block =
  | { kind: 'p'; text: string }
  | { kind: 'h'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'ul' | 'ol'; items: string[]; start: number };

/** A block and the offset in the source where its first line starts. */
export interface PlacedBlock {
  block: Block;
  from: number;
}

/** Characters the block splitter was given, for tests that streaming parses each part about once. */
export const blockWork = { chars: 0 };

const LINE_BREAK = /\r\n?|\n/g;

/**
 * Splits markdown into blocks, each with where it starts. Only the last block can still change
 * when text is appended: the others never become `prev` again (see `streamedMarkdown`). So a
 * stream re-parses from the last block's start, and a new kind of block must keep to that.
 */
export function splitBlocks(source: string): PlacedBlock[] {
  blockWork.chars += source.length;
  const lines: string[] = [];
  const starts: number[] = [];
  let at = 0;
  for (const m of source.matchAll(LINE_BREAK)) {
    lines.push(source.slice(at, m.index));
    starts.push(at);
    at = m.index + m[0].length;
  }
  lines.push(source.slice(at));
  starts.push(at);
  const placed: PlacedBlock[] = [];
  const push = (block: Block, line: number) => placed.push({ block, from: starts[line] });
  let para: string[] = [];
  let paraLine = 0;
  const flush = () => {
    if (para.length) push({ kind: 'p', text: para.join('\n') }, paraLine);
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const first = i;
      const body: string[] = [];
      // An unclosed fence runs to the end, as CommonMark does.
      while (++i < lines.length && !lines[i].trim().startsWith(fence[1])) body.push(lines[i]);
      push({ kind: 'code', text: body.join('\n') }, first);
      continue;
    }
    const bullet = BULLET.exec(line);
    const ordered = bullet ? null : ORDERED.exec(line);
    if (bullet || ordered) {
      flush();
      const kind = bullet ? 'ul' : 'ol';
      const prev = placed[placed.length - 1]?.block;
      const item = (bullet ? bullet[1] : ordered![2]) ?? '';
      if (prev && prev.kind === kind && lines[i - 1]?.trim()) prev.items.push(item);
      else push({ kind, items: [item], start: ordered ? Number(ordered[1]) : 1 }, i);
      continue;
    }
    if (!line.trim()) {
      flush();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      push({ kind: 'h', text: heading[1] }, i);
      continue;
    }
    const prev = placed[placed.length - 1]?.block;
    if (!para.length && /^\s{2,}\S/.test(line) && prev && (prev.kind === 'ul' || prev.kind === 'ol')) {
      // an indented line right after a list item continues that item
      prev.items[prev.items.length - 1] += '\n' + line.trim();
      continue;
    }
    if (!para.length) paraLine = i;
    para.push(line);
  }
  flush();
  return placed;
}

/** Splits markdown into blocks. Exported for tests. */
export function parseBlocks(source: string): Block[] {
  return splitBlocks(source).map((p) => p.block);
}

/** One block as a template; `streamedMarkdown` renders each finished block through here once. */
export function renderBlock(block: Block): TemplateResult {
  switch (block.kind) {
    case 'p':
      return html`<p>${renderInline(block.text)}</p>`;
    case 'h':
      return html`<p><strong>${renderInline(block.text)}</strong></p>`;
    case 'code':
      return html`<pre><code>${block.text}</code></pre>`;
    case 'ul':
      return html`<ul>${block.items.map((item) => html`<li>${renderInline(item)}</li>`)}</ul>`;
    case 'ol':
      return html`<ol start=${block.start === 1 ? nothing : block.start}>
        ${block.items.map((item) => html`<li>${renderInline(item)}</li>`)}
      </ol>`;
  }
}

/**
 * How many of the last blocks may still change when text is appended. The last one always may. So
 * may the one before when the last starts on the unfinished last line: a partial line can be taken
 * for a paragraph and end the block before it, then turn out to be an item of that block's list
 * (`-` → `- b`). Whether a block has ended depends only on the lines before the next block's first
 * line, so a block followed by one that starts on a complete line is finished.
 */
export function openBlocks(text: string, blocks: readonly PlacedBlock[]): number {
  if (blocks.length < 2) return blocks.length;
  const lastLine = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r')) + 1;
  return blocks[blocks.length - 1].from >= lastLine ? 2 : 1;
}

/**
 * A long reply's blocks after the first `GROUP_SIZE` are kept in groups of this many, each in a
 * `<div class="md-group">`: the reply is then a few dozen children of its bubble, not thousands,
 * and the browser's layout and paint of each frame of a stream skip the groups that did not change.
 */
export const GROUP_SIZE = 32;

/** Renders bot text (the markdown subset above) as a Lit template. Safe for any input. */
export function renderMarkdown(source: string): TemplateResult {
  const blocks = parseBlocks(source);
  const groups: Block[][] = [];
  for (let i = GROUP_SIZE; i < blocks.length; i += GROUP_SIZE) groups.push(blocks.slice(i, i + GROUP_SIZE));
  return html`${blocks.slice(0, GROUP_SIZE).map(renderBlock)}${groups.map(
    (group) => html`<div class="md-group">${group.map(renderBlock)}</div>`,
  )}`;
}
