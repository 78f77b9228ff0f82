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
 * Supported (the blocks: markdown-blocks.ts): paragraphs, line breaks, headings, blockquotes,
 * bulleted, numbered and task lists (nested), GFM tables, rules, fenced code blocks with a language
 * label and a Copy button (code-block.ts); **bold**, *em*, `inline code`, `[text](url)` links, bare
 * http(s) URLs, and `[n]` markers linked to the reply's sources.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { renderCode, type Highlighter } from './code-block.js';
import { parseBlocks, type Block } from './markdown-blocks.js';
import { en } from '../locales/strings.js';

export { blockWork, openBlocks, parseBlocks, splitBlocks, type Block, type PlacedBlock } from './markdown-blocks.js';

/** What a rendering needs besides the text. Each field is optional: without, plain defaults. */
export interface MarkdownOptions {
  /** The labels the renderer shows (see `WidgetStrings`); English without. */
  strings?: { copy: string; copied: string; table: string };
  /** Colours code blocks (the element's `highlight` property). */
  highlight?: Highlighter;
  /**
   * The element ids of the reply's sources, in order: `[n]` in the text links to the `n`th. A
   * marker without a source stays text.
   */
  sources?: readonly string[];
  /**
   * The level of the last heading rendered (the panel's title is 2). Rendering moves it on: a
   * heading is at most one level below the one before (`###` first is level 3), as screen readers
   * and axe's heading-order rule expect, whatever the bot wrote.
   */
  level?: number;
}

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
/** A source marker, `[1]`. */
const CITE = /\[(\d{1,3})\]/y;

/**
 * A source marker's click: to the source in the list under the reply, without following the
 * `#id` link, which would change the host page's URL (its router may act on it) and cannot reach
 * into the shadow root anyway.
 */
function toSource(event: Event): void {
  event.preventDefault();
  const marker = event.currentTarget as Element;
  const root = marker.getRootNode() as ParentNode;
  const source = root.querySelector<HTMLElement>(`#${CSS.escape(marker.getAttribute('aria-describedby')!)}`);
  (source?.querySelector('a') ?? source)?.focus();
}

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
export function renderInline(text: string, depth = 0, inLink = false, o: MarkdownOptions = {}): Inline[] {
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
  const inner = (from: number, to: number, linkText = inLink) => renderInline(text.slice(from, to), depth + 1, linkText, o);
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
      CITE.lastIndex = p;
      const cite = !token && !inLink && CITE.exec(text);
      const id = cite && o.sources?.[Number(cite[1]) - 1];
      if (id) {
        token = html`<a class="cite" href="#${id}" aria-describedby=${id} @click=${toSource}>${cite[0]}</a>`;
        end = p + cite[0].length;
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

/** One block as a template; `streamedMarkdown` renders each finished block through here once. */
export function renderBlock(block: Block, o: MarkdownOptions = {}): TemplateResult {
  const inline = (text: string) => renderInline(text, 0, false, o);
  const blocks = (list: Block[]) => list.map((b) => renderBlock(b, o));
  switch (block.kind) {
    case 'p':
    case 'h': {
      // one template: the paragraph `#` a stream starts with keeps its element as it becomes a heading
      const level = block.kind === 'h' && (o.level = Math.min(block.level + 2, (o.level ?? 2) + 1));
      return html`<p role=${level ? 'heading' : nothing} aria-level=${level || nothing}>${inline(block.text)}</p>`;
    }
    case 'code':
      return renderCode(block.text, block.lang ?? '', o);
    case 'hr':
      return html`<hr />`;
    case 'quote':
      return html`<blockquote>${blocks(block.blocks)}</blockquote>`;
    case 'table': {
      const { align, head, rows } = block;
      const cell = (text: string, i: number, th: boolean) =>
        th ? html`<th class=${align[i] || nothing}>${inline(text)}</th>` : html`<td class=${align[i] || nothing}>${inline(text)}</td>`;
      // a short row gets empty cells, a long one keeps its extra cells
      const row = (r: string[], th = false) => html`<tr>${head.map((_, i) => r[i] ?? '').concat(r.slice(head.length)).map((c, i) => cell(c, i, th))}</tr>`;
      // scrolls sideways on its own (a phone), so it is a labelled region a keyboard can scroll
      return html`<div part="table" class="table" role="region" aria-label=${(o.strings ?? en).table} tabindex="0"><table>
        <thead>${row(head, true)}</thead><tbody>${rows.map((r) => row(r))}</tbody></table></div>`;
    }
    default: {
      // a tight item's first paragraph is the item's own text, as before lists could nest
      const items = block.items.map(({ blocks: [first, ...rest], checked }) => {
        const text = first?.kind === 'p' ? inline(first.text) : first ? renderBlock(first, o) : nothing;
        return html`<li>${checked === undefined
          ? text
          : html`<label><input type="checkbox" disabled ?checked=${checked} />${text}</label>`}${blocks(rest)}</li>`;
      });
      return block.kind === 'ul'
        ? html`<ul>${items}</ul>`
        : html`<ol start=${block.start === 1 ? nothing : block.start}>${items}</ol>`;
    }
  }
}

/**
 * A long reply's blocks after the first `GROUP_SIZE` are kept in groups of this many, each in a
 * `<div class="md-group">`: the reply is then a few dozen children of its bubble, not thousands,
 * and the browser's layout and paint of each frame of a stream skip the groups that did not change.
 */
export const GROUP_SIZE = 32;

/** Renders bot text (the markdown subset above) as a Lit template. Safe for any input. */
export function renderMarkdown(source: string, options: MarkdownOptions = {}): TemplateResult {
  const blocks = parseBlocks(source);
  const o = { ...options };
  const groups: Block[][] = [];
  const render = (b: Block) => renderBlock(b, o);
  for (let i = GROUP_SIZE; i < blocks.length; i += GROUP_SIZE) groups.push(blocks.slice(i, i + GROUP_SIZE));
  return html`${blocks.slice(0, GROUP_SIZE).map(render)}${groups.map(
    (group) => html`<div class="md-group">${group.map(render)}</div>`,
  )}`;
}
