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

// Inline tokens, first match wins: `code`, **bold**, *em*, [text](url), bare URL.
const INLINE =
  /`([^`\n]+)`|\*\*(?=\S)([\s\S]*?\S)\*\*|\*(?=[^\s*])([\s\S]*?[^\s*])\*|\[([^\]\n]+)\]\(([^()\s]*(?:\([^()\s]*\)[^()\s]*)*)\)|(https?:\/\/[^\s<>]*[^\s<>.,;:!?'")\]])/g;

function link(href: string | null, children: Inline[]): Inline {
  if (!href) return html`${children}`;
  return html`<a href=${href} target="_blank" rel="noopener noreferrer">${children}</a>`;
}

/** Renders one line of inline markdown (`\n` inside becomes `<br>`). */
export function renderInline(text: string): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  const pushText = (s: string) => {
    const lines = s.split('\n');
    lines.forEach((line, i) => {
      if (i > 0) out.push(html`<br />`);
      if (line) out.push(line);
    });
  };
  for (const m of text.matchAll(INLINE)) {
    const index = m.index ?? 0;
    pushText(text.slice(last, index));
    last = index + m[0].length;
    const [, code, strong, em, label, url, bare] = m;
    if (code !== undefined) out.push(html`<code>${code}</code>`);
    else if (strong !== undefined) out.push(html`<strong>${renderInline(strong)}</strong>`);
    else if (em !== undefined) out.push(html`<em>${renderInline(em)}</em>`);
    else if (label !== undefined) out.push(link(safeHref(url ?? ''), renderInline(label)));
    else if (bare !== undefined) out.push(link(safeHref(bare), [bare]));
  }
  pushText(text.slice(last));
  return out;
}

const FENCE = /^\s*(```|~~~)/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const ORDERED = /^\s*(\d{1,9})[.)]\s+(.*)$/;
const HEADING = /^\s*#{1,6}\s+(.*)$/;

type Block =
  | { kind: 'p'; text: string }
  | { kind: 'h'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'ul' | 'ol'; items: string[]; start: number };

/** Splits markdown into blocks. Exported for tests. */
export function parseBlocks(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length) blocks.push({ kind: 'p', text: para.join('\n') });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const body: string[] = [];
      // An unclosed fence runs to the end, as CommonMark does.
      while (++i < lines.length && !lines[i].trim().startsWith(fence[1])) body.push(lines[i]);
      blocks.push({ kind: 'code', text: body.join('\n') });
      continue;
    }
    const bullet = BULLET.exec(line);
    const ordered = bullet ? null : ORDERED.exec(line);
    if (bullet || ordered) {
      flush();
      const kind = bullet ? 'ul' : 'ol';
      const prev = blocks[blocks.length - 1];
      const item = (bullet ? bullet[1] : ordered![2]) ?? '';
      if (prev && prev.kind === kind && lines[i - 1]?.trim()) prev.items.push(item);
      else blocks.push({ kind, items: [item], start: ordered ? Number(ordered[1]) : 1 });
      continue;
    }
    if (!line.trim()) {
      flush();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      blocks.push({ kind: 'h', text: heading[1] });
      continue;
    }
    const prev = blocks[blocks.length - 1];
    if (!para.length && /^\s{2,}\S/.test(line) && prev && (prev.kind === 'ul' || prev.kind === 'ol')) {
      // an indented line right after a list item continues that item
      prev.items[prev.items.length - 1] += '\n' + line.trim();
      continue;
    }
    para.push(line);
  }
  flush();
  return blocks;
}

function renderBlock(block: Block): TemplateResult {
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

/** Renders bot text (the markdown subset above) as a Lit template. Safe for any input. */
export function renderMarkdown(source: string): TemplateResult {
  return html`${parseBlocks(source).map(renderBlock)}`;
}
