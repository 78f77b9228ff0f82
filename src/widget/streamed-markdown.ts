/**
 * `streamedMarkdown(source)`: bot text rendered as markdown, incrementally. While a reply streams,
 * the same message is rendered again each frame with a longer text. Re-parsing and re-rendering
 * the whole text every time is quadratic (seconds of frozen page for a 40 KB answer), so this
 * directive keeps what it rendered:
 *
 * - Only the open blocks (see `openBlocks`) are parsed and rendered again, from where they start.
 * - A finished block is rendered once, in its own child part that Lit never visits again. Once
 *   `GROUP_SIZE` of them are finished, their nodes move into a group element, so the browser's
 *   layout and paint of a frame do not walk thousands of blocks at the end of a 300 KB reply.
 * - A text that does not extend the finished part (another message in this place) starts over.
 *
 * The DOM is the same as `renderMarkdown(source)` gives, which is also what it renders on the
 * server (SSR calls `render`, never `update`).
 */
import { html, noChange, type TemplateResult } from 'lit';
import { Directive, directive, type ChildPart } from 'lit/directive.js';
import { getCommittedValue, insertPart, removePart, setChildPartValue, setCommittedValue } from 'lit/directive-helpers.js';
import { GROUP_SIZE, groupBlocks, openBlocks, renderBlock, renderMarkdown, splitBlocks } from './markdown.js';

class StreamedMarkdownDirective extends Directive {
  /** The text rendered last (none yet: whatever the part holds is not ours). */
  private source: string | undefined;
  /** Where the open blocks start in `source`; everything before them is finished. */
  private openFrom = 0;
  /** The container's parts: `groups` groups, then `finished` finished blocks, then the open ones. */
  private groups = 0;
  private finished = 0;

  render(source: string): TemplateResult {
    return renderMarkdown(source);
  }

  override update(container: ChildPart, [source]: [string]): unknown {
    if (source === this.source) return noChange;
    const parts = getCommittedValue(container);
    const extendsFinished =
      this.source !== undefined && Array.isArray(parts) && source.startsWith(this.source.slice(0, this.openFrom));
    if (!extendsFinished) this.openFrom = 0;
    const tail = source.slice(this.openFrom);
    const placed = splitBlocks(tail);
    const open = openBlocks(tail, placed);
    this.source = source;
    if (open) this.openFrom += placed[placed.length - open].from;
    if (!extendsFinished) {
      // first render here, or another text: an array, one child part per item (as `repeat` does)
      const finished = placed.length - open;
      this.groups = Math.floor(finished / GROUP_SIZE);
      this.finished = finished % GROUP_SIZE;
      return groupBlocks(placed.map((p) => p.block), open);
    }
    // The blocks that were open are rendered again, each in its own part, with any new blocks
    // after them; of these, all but the open ones are finished from now on.
    const all = parts as ChildPart[];
    const unfinished = all.splice(this.groups + this.finished);
    placed.forEach((p, i) => {
      const part = unfinished[i] ?? insertPart(container);
      setChildPartValue(part, renderBlock(p.block));
      all.push(part);
    });
    for (const stale of unfinished.slice(placed.length)) removePart(stale);
    this.finished += placed.length - open;
    while (this.finished >= GROUP_SIZE) this.group(container, all);
    setCommittedValue(container, all);
    return noChange;
  }

  /** Moves the first `GROUP_SIZE` finished blocks' nodes into a new group, in their place. */
  private group(container: ChildPart, all: ChildPart[]): void {
    const members = all.splice(this.groups, GROUP_SIZE);
    const group = insertPart(container, members[0]);
    setChildPartValue(group, html`<div class="md-group"></div>`);
    const element = group.endNode!.previousSibling as Element;
    for (const member of members) {
      const end = member.endNode!.nextSibling;
      for (let node = member.startNode!; node !== end; ) {
        const next = node.nextSibling!;
        element.append(node);
        node = next;
      }
    }
    all.splice(this.groups, 0, group);
    this.groups++;
    this.finished -= GROUP_SIZE;
  }
}

/** Bot text as markdown, re-parsing only the blocks still growing (see above). */
export const streamedMarkdown = directive(StreamedMarkdownDirective);
