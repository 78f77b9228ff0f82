/**
 * `transcriptRows(messages, row, deps)`: the transcript's rows, in blocks of `BLOCK_SIZE`.
 *
 * A long transcript is mostly finished messages that never change again, yet Lit keeps a template
 * instance with its parts for every row it renders (about 1.2 KB of JS heap per message) and
 * checks every row on every update. So:
 *
 * - Rows go into blocks of `BLOCK_SIZE`, each with `content-visibility: auto` (the styles' `.block`):
 *   the browser's visibility check and its layout work per frame are per block, not per row.
 * - Each row is rendered by Lit into a fragment of its own and its one element is moved into the
 *   block; the fragment is the handle for updating the row in place (`render` into it again).
 * - When a block stops being the last one, its delivered rows are frozen: their handles are let
 *   go, so Lit's bookkeeping for them is garbage and the rows are plain DOM that no update visits;
 *   Lit's markers and the template's layout whitespace leave them too (see `freeze`).
 *   A frozen row is rendered again only when its message (compared by identity: the controller
 *   replaces a message object when it changes) or `deps` change; its new element replaces the old
 *   one (new to the live region: a screen reader may read it again), and focus inside it moves
 *   to the same place in the new one (such a row stays unfrozen: the user is working in it). Rows that are not frozen (the last block, and rows on their way
 *   or failed) are rendered again on every update, as before.
 * - Rows are created in place and never moved, so the live region announces each row once.
 */
import { noChange, render, type RenderOptions, type TemplateResult } from 'lit';
import { Directive, directive, type ChildPart } from 'lit/directive.js';
import type { TranscriptMessage } from '../core/events.js';

/** Rows per block: 20 blocks at 1,000 messages for the browser to check, and 50 rows at most per update. */
export const BLOCK_SIZE = 50;

/** One row's template: it must be a single element (it is moved into its block). */
export type RowTemplate = (message: TranscriptMessage, index: number) => TemplateResult;

interface Block {
  el: HTMLElement;
  /** The message each row shows, in order. */
  shown: TranscriptMessage[];
  /** Each row's fragment (its Lit part), or none once the row is frozen. */
  handles: (DocumentFragment | undefined)[];
}

/** Only a delivered message's row can be frozen: the others change (Retry, the reply streaming in). */
const canFreeze = (m: TranscriptMessage): boolean => m.status === 'sent';

class TranscriptRowsDirective extends Directive {
  private blocks: Block[] = [];
  /** Blocks before this one are frozen. */
  private frozen = 0;
  private deps: readonly unknown[] = [];

  render(messages: readonly TranscriptMessage[], row: RowTemplate, _deps: readonly unknown[]): unknown {
    return messages.map(row);
  }

  override update(part: ChildPart, [messages, row, deps]: Parameters<this['render']>): unknown {
    const changed = deps.length !== this.deps.length || deps.some((d, i) => d !== this.deps[i]);
    this.deps = deps;
    const options: RenderOptions = { host: part.options?.host };
    const count = Math.ceil(messages.length / BLOCK_SIZE);
    while (this.blocks.length > count) this.blocks.pop()!.el.remove();
    // the last block is never frozen, also after the transcript shrank
    this.frozen = Math.min(this.frozen, Math.max(0, count - 1));
    for (let b = 0; b < count; b++) {
      const block = (this.blocks[b] ??= this.newBlock(part));
      const { el, shown, handles } = block;
      const from = b * BLOCK_SIZE;
      const size = Math.min(BLOCK_SIZE, messages.length - from);
      while (shown.length > size) {
        shown.pop();
        handles.pop();
        el.lastElementChild!.remove();
      }
      for (let i = 0; i < size; i++) {
        const m = messages[from + i];
        const handle = handles[i];
        if (handle) render(row(m, from + i), handle, options);
        else if (changed || shown[i] !== m) {
          const fragment = document.createDocumentFragment();
          render(row(m, from + i), fragment, options);
          const fresh = fragment.lastElementChild!;
          const old = el.children[i];
          // a frozen row the user is working in (its focus moved over) stays unfrozen from now on
          const inUse = old ? replaceKeepingFocus(old, fresh) : (el.append(fresh), false);
          if (b < this.frozen && !inUse && canFreeze(m)) freeze(fresh);
          else handles[i] = fragment;
        }
        shown[i] = m;
      }
    }
    // every block but the last lets go of its delivered rows (see above)
    for (; this.frozen < count - 1; this.frozen++) {
      const { shown, handles, el } = this.blocks[this.frozen];
      shown.forEach((m, i) => {
        if (!canFreeze(m)) return;
        handles[i] = undefined;
        freeze(el.children[i]);
      });
    }
    return noChange;
  }

  private newBlock(part: ChildPart): Block {
    const el = document.createElement('div');
    el.className = 'block';
    part.parentNode.insertBefore(el, part.endNode);
    return { el, shown: [], handles: [] };
  }
}

/**
 * Leaves out of a frozen row what only Lit needed: its comment markers, and the template's
 * whitespace between the row's own children (the row is a flex container: it does not render
 * whitespace-only text). Every node Lit touched keeps a JS wrapper (~16 B) alive for as long as it
 * is in the page, and these are most of a row's nodes (16 of 23 with the row template of this writing).
 */
function freeze(row: Element): void {
  const walker = document.createTreeWalker(row, NodeFilter.SHOW_COMMENT);
  const drop: ChildNode[] = [];
  while (walker.nextNode()) drop.push(walker.currentNode as Comment);
  for (const n of row.childNodes) if (n.nodeType === Node.TEXT_NODE && !n.textContent!.trim()) drop.push(n);
  for (const n of drop) n.remove();
}

/**
 * Replaces `old` with `fresh`; what had focus in `old` gets it back at the same place in `fresh`.
 * True when focus was inside.
 */
function replaceKeepingFocus(old: Element, fresh: Element): boolean {
  const focused = (old.getRootNode() as ShadowRoot | Document).activeElement;
  const path: number[] = [];
  for (let n = focused; n && n !== old && old.contains(n); n = n.parentElement) path.unshift([...n.parentElement!.children].indexOf(n));
  old.replaceWith(fresh);
  if (!path.length) return false;
  let target: Element | undefined = fresh;
  for (const i of path) target = target?.children[i];
  (target as HTMLElement | undefined)?.focus();
  return true;
}

/** The transcript's rows in blocks, finished rows frozen (see above). */
export const transcriptRows = directive(TranscriptRowsDirective);
