/**
 * `streamedMarkdown(source)`: bot text rendered as markdown, incrementally. While a reply streams,
 * the same message is rendered again each frame with a longer text. Re-parsing and re-rendering
 * the whole text every time is quadratic (seconds of frozen page for a 40 KB answer), so this
 * directive keeps what it rendered:
 *
 * - Only the open blocks (see `openBlocks`) are parsed and rendered again, from where they start.
 * - Each block has its own child part; once finished, Lit never visits it again.
 * - From block `GROUP_SIZE` on, blocks are created inside groups of `GROUP_SIZE` (see
 *   `renderMarkdown`), so a 300 KB reply is a few dozen children of its bubble, and the browser's
 *   layout and paint of each frame skip the groups that did not change. A block is placed once and
 *   never moved: moving nodes in the transcript's live region would have them read out again.
 * - A text that does not extend the finished part (another message in this place) starts over.
 * - Other options (the reply's sources, which come with its last event; the strings; the
 *   highlighter) render every block again in its part: Lit changes only what differs (a `[1]`
 *   becomes a link), so nothing is moved or read out again.
 *
 * The DOM is the same as `renderMarkdown(source)` gives, which is also what it renders on the
 * server (SSR calls `render`, never `update`).
 */
import { html, noChange, nothing, type TemplateResult } from 'lit';
import { Directive, directive, type ChildPart } from 'lit/directive.js';
import { clearPart, insertPart, removePart, setChildPartValue, setCommittedValue } from 'lit/directive-helpers.js';
import { GROUP_SIZE, openBlocks, renderBlock, renderMarkdown, splitBlocks, type Block, type MarkdownOptions } from './markdown.js';

/** Hands its own (empty) child part to `receive`: the place inside a group where blocks go. */
class PlaceDirective extends Directive {
  render(_receive: (part: ChildPart) => void): unknown {
    return nothing;
  }

  override update(part: ChildPart, [receive]: [(part: ChildPart) => void]): unknown {
    receive(part);
    return noChange;
  }
}
const place = directive(PlaceDirective);

interface Group {
  part: ChildPart;
  inside: ChildPart;
  blocks: ChildPart[];
}

class StreamedMarkdownDirective extends Directive {
  /** The text rendered last (none yet: whatever the part holds is not ours). */
  private source: string | undefined;
  /** Where the open blocks start in `source`; everything before them is finished. */
  private openFrom = 0;
  private finished = 0;
  /** Every block's part, in order; the first `finished` are final. */
  private blocks: ChildPart[] = [];
  /** The container's own parts: the first `GROUP_SIZE` blocks, then the groups. */
  private top: ChildPart[] = [];
  private groups: Group[] = [];
  /** What each part in `blocks` shows. */
  private shown: Block[] = [];
  /** The options rendered last, as `optionsKey` gives them. */
  private options: unknown[] = [];
  /** The heading level after the finished blocks (`MarkdownOptions.level`). */
  private level: number | undefined;

  render(source: string, options: MarkdownOptions = {}): TemplateResult {
    return renderMarkdown(source, options);
  }

  override update(container: ChildPart, [source, options = {}]: [string, MarkdownOptions?]): unknown {
    const key = optionsKey(options);
    const sameOptions = key.every((v, i) => v === this.options[i]);
    if (source === this.source && sameOptions) return noChange;
    if (this.source === undefined || !source.startsWith(this.source.slice(0, this.openFrom))) {
      // first render here, or another text: whatever the container shows goes
      clearPart(container);
      Object.assign(this, { openFrom: 0, finished: 0, blocks: [], top: [], groups: [], shown: [], level: undefined });
    } else if (!sameOptions) {
      const again = { ...options };
      for (let i = 0; i < this.finished; i++) this.render1(i, again);
      this.level = again.level;
    }
    this.source = source;
    this.options = key;
    const tail = source.slice(this.openFrom);
    const placed = splitBlocks(tail);
    const open = openBlocks(tail, placed);
    // the blocks that were open are rendered again in their parts, new blocks get new parts
    const run = { ...options, level: this.level };
    placed.forEach((p, i) => {
      if (!this.blocks[this.finished + i]) this.newBlock(container);
      this.shown[this.finished + i] = p.block;
      this.render1(this.finished + i, run);
      // the heading level after the blocks that are now finished is where the next update starts
      if (i < placed.length - open) this.level = run.level;
    });
    while (this.blocks.length > this.finished + placed.length) this.dropLastBlock();
    this.shown.length = this.blocks.length;
    this.finished += placed.length - open;
    if (open) this.openFrom += placed[placed.length - open].from;
    setCommittedValue(container, this.top);
    return noChange;
  }

  /** Renders block `i` into its part; `o.level` moves on past its headings. */
  private render1(i: number, o: MarkdownOptions): void {
    setChildPartValue(this.blocks[i], renderBlock(this.shown[i], o));
  }

  /** A part for the next block: in the container for the first `GROUP_SIZE`, then in a group. */
  private newBlock(container: ChildPart): ChildPart {
    const index = this.blocks.length;
    let part: ChildPart;
    if (index < GROUP_SIZE) {
      part = insertPart(container);
      this.top.push(part);
    } else {
      const g = Math.floor(index / GROUP_SIZE) - 1;
      if (!this.groups[g]) {
        const groupPart = insertPart(container);
        let inside!: ChildPart;
        setChildPartValue(groupPart, html`<div class="md-group">${place((p) => (inside = p))}</div>`);
        this.groups[g] = { part: groupPart, inside, blocks: [] };
        this.top.push(groupPart);
      }
      const group = this.groups[g];
      part = insertPart(group.inside);
      group.blocks.push(part);
      setCommittedValue(group.inside, group.blocks);
    }
    this.blocks.push(part);
    return part;
  }

  /** Removes the last block (an open block that merged into the one before), and its group if emptied. */
  private dropLastBlock(): void {
    const index = this.blocks.length - 1;
    removePart(this.blocks.pop()!);
    if (index < GROUP_SIZE) {
      this.top.pop();
      return;
    }
    const group = this.groups[this.groups.length - 1];
    group.blocks.pop();
    setCommittedValue(group.inside, group.blocks);
    if (!group.blocks.length) {
      removePart(group.part);
      this.groups.pop();
      this.top.pop();
    }
  }
}

/** The options a rendering depends on, compared value by value (the object is new each render). */
function optionsKey({ strings, highlight, sources = [] }: MarkdownOptions): unknown[] {
  return [strings?.copy, strings?.copied, strings?.table, highlight, sources.join(' ')];
}

/** Bot text as markdown, re-parsing only the blocks still growing (see above). */
export const streamedMarkdown = directive(StreamedMarkdownDirective);
