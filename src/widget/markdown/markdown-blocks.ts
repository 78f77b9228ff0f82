/**
 * The block level of the markdown subset: which lines make a paragraph, a heading, a list, a quote,
 * a table, a rule or a fenced code block. Line by line, each line looked at a bounded number of
 * times per nesting level, and nesting is capped: linear in the text.
 *
 * Where CommonMark/GFM is richer, this is simpler on purpose: no setext headings (`---` under a
 * line is a rule), no indented code blocks (indentation nests list content instead, 2–4 spaces
 * alike), no lazy continuation lines, and a table row is a line with a `|`.
 */

export type Align = '' | 'left' | 'center' | 'right';

/** A list item: its blocks, and for a task item (`- [x] done`) whether it is checked. */
export interface ListItem {
  blocks: Block[];
  checked?: boolean;
}

export type Block =
  | { kind: 'p'; text: string }
  | { kind: 'h'; level: number; text: string }
  | { kind: 'code'; text: string; lang?: string }
  | { kind: 'hr' }
  | { kind: 'quote'; blocks: Block[] }
  | { kind: 'ul' | 'ol'; items: ListItem[]; start: number }
  | { kind: 'table'; align: Align[]; head: string[]; rows: string[][] };

/**
 * A block and the offset in the source where its first line starts; `decided`: where the line
 * starts that made it this kind of block (a later one for a table: its delimiter row).
 */
export interface PlacedBlock {
  block: Block;
  from: number;
  decided: number;
}

/**
 * Characters the block splitter was given (`chars`), for tests that streaming parses each part
 * about once, and characters of nested content (quotes, list items) it looked at again (`nested`),
 * for tests that nesting keeps the work linear.
 */
export const blockWork = { chars: 0, nested: 0 };

/** Quotes and list items nested deeper than this keep their content as one paragraph. */
const MAX_DEPTH = 8;

const FENCE = /^\s*(```|~~~)\s*([^\s`]*)/;
const MARKER = /^(\s*)(?:([-*+])|(\d{1,9})[.)])(\s+|$)(.*)$/;
const HEADING = /^\s*(#{1,6})\s+(.*)$/;
const RULE = /^\s{0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^\s*>\s?/;
const TASK = /^\[([ xX])\]\s+/;
const DELIMITER_CELL = /^:?-+:?$/;
const LINE_BREAK = /\r\n?|\n/g;

const indentOf = (line: string) => line.length - line.trimStart().length;

/** The list marker of `line` (`- `, `1. `); `-` alone is not (yet) one, `- ` is. */
function marker(line = '') {
  const m = MARKER.exec(line);
  return m && (m[4] || m[5]) ? { indent: m[1].length, ordered: !m[2], start: +(m[3] ?? 1), width: m[0].length - m[5].length, text: m[5] } : null;
}

/**
 * A row's cells: split at `|` not escaped as `\|`, without the outer pipes. Cells beyond the
 * header's count are kept (GFM drops them; nothing the bot wrote is dropped here).
 */
export function cells(line: string): string[] {
  const t = line.trim().replace(/^\|/, '');
  const out = [''];
  for (let i = 0; i < t.length; i++) {
    if (t[i] === '|') out.push('');
    else out[out.length - 1] += t[i] === '\\' && t[i + 1] === '|' ? t[++i] : t[i];
  }
  if (out.length > 1 && t.endsWith('|') && !t.endsWith('\\|')) out.pop();
  return out.map((c) => c.trim());
}

const ALIGN: Align[] = ['', 'left', 'right', 'center'];

/** The alignments when `line` is a delimiter row (`|---|:-:|`) for a header of `count` cells. */
function delimiter(line = '', count: number): Align[] | null {
  const row = cells(line);
  return row.length === count && row.every((c) => DELIMITER_CELL.test(c))
    ? row.map((c) => ALIGN[+c.startsWith(':') + 2 * +c.endsWith(':')])
    : null;
}

/**
 * Splits markdown into blocks, each with where it starts. Only the last block can still change
 * when text is appended (and the one before it, see `openBlocks`): the others never become `prev`
 * again (see `streamedMarkdown`). So a stream re-parses from the last block's start, and a new
 * kind of block must keep to that.
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
  return parseLines(lines, 0, starts);
}

/** Blocks of the (nested) content `lines`; `starts`: each line's offset, at the top level. */
function parseLines(lines: string[], depth: number, starts?: number[]): PlacedBlock[] {
  if (depth) blockWork.nested += lines.join('\n').length;
  const placed: PlacedBlock[] = [];
  const push = (block: Block, line: number, decided = line) =>
    placed.push({ block, from: starts?.[line] ?? 0, decided: starts?.[decided] ?? 0 });
  let para: string[] = [];
  let paraLine = 0;
  const flush = () => {
    if (para.length) push({ kind: 'p', text: para.join('\n') }, paraLine);
    para = [];
  };
  const nested = (content: string[]): Block[] =>
    depth < MAX_DEPTH ? parseLines(content, depth + 1).map((p) => p.block) : [{ kind: 'p', text: content.join('\n') }];
  const nonBlank = (j: number) => {
    while (j < lines.length && !lines[j].trim()) j++;
    return j;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const first = i;
    let block: Block | null = null;
    let m: RegExpExecArray | null;
    let head: string[];
    let align: Align[] | null;
    let item: ReturnType<typeof marker>;
    if ((m = FENCE.exec(line))) {
      const body: string[] = [];
      // An unclosed fence runs to the end, as CommonMark does.
      while (++i < lines.length && !lines[i].trim().startsWith(m[1])) body.push(lines[i]);
      block = { kind: 'code', text: body.join('\n'), ...(m[2] && { lang: m[2] }) };
    } else if (!line.trim()) flush();
    else if (RULE.test(line)) block = { kind: 'hr' };
    else if ((m = HEADING.exec(line))) block = { kind: 'h', level: m[1].length, text: m[2] };
    else if (QUOTE.test(line)) {
      const body: string[] = [];
      for (; QUOTE.test(lines[i] ?? ''); i++) body.push(lines[i].replace(QUOTE, ''));
      i--;
      block = { kind: 'quote', blocks: nested(body) };
    } else if ((item = marker(line))) {
      const list = { kind: item.ordered ? 'ol' : 'ul', items: [] as ListItem[], start: item.start } as const;
      for (;;) {
        const { indent, width } = item;
        const body = [item.text];
        // the item's own lines: indented past its marker, blank lines included when more follow
        let j = i + 1;
        for (let k; (k = nonBlank(j)) < lines.length && indentOf(lines[k]) > indent; j = k + 1) {
          for (; j < k; j++) body.push('');
          body.push(lines[k].slice(Math.min(width, indentOf(lines[k]))));
        }
        const task = TASK.exec(body[0]);
        if (task) body[0] = body[0].slice(task[0].length);
        list.items.push({ blocks: nested(body), ...(task && { checked: task[1] !== ' ' }) });
        // the next item of this list, also after blank lines (a more indented one was taken above)
        const k = nonBlank(j);
        const next = marker(lines[k]);
        if (next?.ordered !== (list.kind === 'ol')) {
          i = j - 1;
          break;
        }
        [i, item] = [k, next];
      }
      block = list;
    } else if (line.includes('|') && (align = delimiter(lines[i + 1], (head = cells(line)).length))) {
      const rows: string[][] = [];
      for (i += 2; lines[i]?.includes('|') && lines[i].trim(); i++) rows.push(cells(lines[i]));
      i--;
      flush();
      push({ kind: 'table', align, head: head!, rows }, first, first + 1);
      continue;
    }
    if (block) {
      flush();
      push(block, first);
    } else if (line.trim()) {
      if (!para.length) paraLine = i;
      para.push(line);
    }
  }
  flush();
  return placed;
}

/** Splits markdown into blocks. Exported for tests. */
export function parseBlocks(source: string): Block[] {
  return splitBlocks(source).map((p) => p.block);
}

/**
 * How many of the last blocks may still change when text is appended. The last one always may. So
 * may the one before when the last was decided on the unfinished last line: a partial line can be
 * taken for a paragraph and end the block before it, then turn out to be an item of that block's
 * list (`-` → `- b`), and a delimiter row still being written may stop being one (`|--` → `|--x`),
 * giving its header line back to the paragraph before. Whether a block has ended depends only on
 * the lines before the line that decided the next block, so a block followed by one decided on a
 * complete line is finished.
 */
export function openBlocks(text: string, blocks: readonly PlacedBlock[]): number {
  if (blocks.length < 2) return blocks.length;
  const lastLine = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r')) + 1;
  const last = blocks[blocks.length - 1];
  return last.decided >= lastLine ? 2 : 1;
}
