/**
 * `streamedMarkdown(source)`: bot text rendered as markdown, incrementally. While a reply streams,
 * the same message is rendered again each frame with a longer text. Re-parsing and re-rendering
 * the whole text every time is quadratic (seconds of frozen page for a 40 KB answer), so this
 * directive keeps what it rendered:
 *
 * - Blocks before the last one are finished: appending text never changes them (see
 *   `splitBlocks`). Each gets its own child part, rendered once and never visited again, so a
 *   frame costs the same at the end of a 300 KB reply as at its start.
 * - Only the last (open) block is re-parsed and re-rendered, from where it starts.
 * - A text that does not extend the finished part (another message in this place) starts over.
 *
 * The output is the same DOM as `renderMarkdown(source)`, which is also what it renders on the
 * server (SSR calls `render`, never `update`).
 */
import { noChange, type TemplateResult } from 'lit';
import { Directive, directive, PartType, type ChildPart, type PartInfo } from 'lit/directive.js';
import { getCommittedValue, insertPart, removePart, setChildPartValue, setCommittedValue } from 'lit/directive-helpers.js';
import { renderBlock, renderMarkdown, splitBlocks, type PlacedBlock } from './markdown.js';

class StreamedMarkdownDirective extends Directive {
  /** The text rendered last (none yet: whatever the part holds is not ours). */
  private source: string | undefined;
  /** Where the open block starts in `source`; everything before it is finished. */
  private openFrom = 0;
  /** How many of the container's parts hold finished blocks (the open block's part follows). */
  private finished = 0;

  constructor(part: PartInfo) {
    super(part);
    if (part.type !== PartType.CHILD) throw new Error('streamedMarkdown() goes in a child position');
  }

  render(source: string): TemplateResult {
    return renderMarkdown(source);
  }

  override update(container: ChildPart, [source]: [string]): unknown {
    if (source === this.source) return noChange;
    const parts = getCommittedValue(container);
    const extendsFinished =
      this.source !== undefined && Array.isArray(parts) && source.startsWith(this.source.slice(0, this.openFrom));
    if (!extendsFinished) {
      this.openFrom = 0;
      this.finished = 0;
    }
    const tail = source.slice(this.openFrom);
    const blocks = splitBlocks(tail);
    const open = openBlocks(tail, blocks);
    this.source = source;
    if (!extendsFinished) {
      // first render here, or a different text: an array of blocks, one child part each (as `repeat` does)
      this.finished = blocks.length - open;
      this.openFrom = open ? blocks[this.finished].from : 0;
      return blocks.map((b) => renderBlock(b.block));
    }
    // The blocks that were open are rendered again, each in its own part, with any new blocks
    // after them; of these, all but the open ones are finished from now on.
    const all = parts as ChildPart[];
    const unfinished = all.splice(this.finished);
    blocks.forEach((b, i) => {
      const part = unfinished[i] ?? insertPart(container);
      setChildPartValue(part, renderBlock(b.block));
      all.push(part);
    });
    for (const stale of unfinished.slice(blocks.length)) removePart(stale);
    setCommittedValue(container, all);
    if (open) {
      this.openFrom += blocks[blocks.length - open].from;
      this.finished += blocks.length - open;
    }
    return noChange;
  }
}

/**
 * How many of the last blocks may still change. The last one always may. So may the one before
 * when the last starts on the unfinished last line: a partial line can be taken for a paragraph
 * and close the block before it, and then turn out to be a list item of that block (`-` → `- b`).
 * Whether a block has ended depends only on lines before the next block's first line, so a block
 * followed by one starting on a complete line is finished.
 */
function openBlocks(text: string, blocks: readonly PlacedBlock[]): number {
  if (blocks.length < 2) return blocks.length;
  const lastLine = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r')) + 1;
  return blocks[blocks.length - 1].from >= lastLine ? 2 : 1;
}

/** Bot text as markdown, re-parsing only the block that is still growing (see above). */
export const streamedMarkdown = directive(StreamedMarkdownDirective);
