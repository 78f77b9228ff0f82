import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import type { CannedReply } from '../../client/index.js';
import { t } from '../i18n/i18n.js';

/** Options shown at once; typing more narrows them. */
const SHOWN = 8;
/** `/` at the start or after a space, then the shortcut typed so far, right before the caret. */
const TRIGGER = /(^|\s)\/([a-z0-9_-]*)$/;

/** The canned replies whose shortcut has `typed`: those starting with it first, then by shortcut. */
export function matchingReplies(replies: readonly CannedReply[], typed: string): CannedReply[] {
  const found = replies.filter((r) => r.shortcut.includes(typed));
  const starts = (r: CannedReply) => (r.shortcut.startsWith(typed) ? 0 : 1);
  return found.sort((a, b) => starts(a) - starts(b) || a.shortcut.localeCompare(b.shortcut)).slice(0, SHOWN);
}

/**
 * The `/` picker of a reply box (the ARIA combobox pattern): typing `/` opens a listbox of canned
 * replies filtered as the shortcut is typed; ArrowUp/ArrowDown move, Enter (or a click) puts the
 * reply's text in place of `/shortcut`, Escape closes. Headless: the host renders `listbox()` next
 * to its textarea, spreads `comboboxAttributes` on it, and passes it its input and keydown events.
 */
export class CannedPicker implements ReactiveController {
  /** The account's canned replies (the host loads them). */
  replies: CannedReply[] = [];
  /** Shown options; empty when closed. */
  options: CannedReply[] = [];
  active = 0;
  /** Where `/shortcut` starts in the text, while open. */
  private from = -1;

  constructor(
    private readonly host: ReactiveControllerHost,
    /** The listbox's id, unique in the host's shadow root. */
    readonly id: string,
    /** Replaces the box's text, caret at `caret` (the host owns the value). */
    private readonly write: (text: string, caret: number) => void,
  ) {
    host.addController(this);
  }

  hostConnected(): void {}

  get open(): boolean {
    return this.options.length > 0;
  }

  private optionId(index: number): string {
    return `${this.id}-${index}`;
  }

  /** After each input: open, narrow or close the list by what is right before the caret. */
  input(box: HTMLTextAreaElement): void {
    const before = box.value.slice(0, box.selectionStart ?? box.value.length);
    const match = TRIGGER.exec(before);
    this.options = match ? matchingReplies(this.replies, match[2]!) : [];
    this.from = match ? before.length - match[2]!.length - 1 : -1;
    this.active = 0;
    this.host.requestUpdate();
  }

  /** True when the key was the picker's (the host then does nothing else with it). */
  keydown(event: KeyboardEvent, box: HTMLTextAreaElement): boolean {
    if (!this.open) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const step = event.key === 'ArrowDown' ? 1 : -1;
      this.active = (this.active + step + this.options.length) % this.options.length;
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      this.choose(this.active, box);
    } else if (event.key === 'Escape') {
      this.close();
    } else {
      return false;
    }
    event.preventDefault();
    this.host.requestUpdate();
    return true;
  }

  close(): void {
    if (!this.open && this.from < 0) return; // a blur while the page re-renders must not ask for another render
    this.options = [];
    this.from = -1;
    this.host.requestUpdate();
  }

  private choose(index: number, box: HTMLTextAreaElement): void {
    const reply = this.options[index];
    if (!reply || this.from < 0) return;
    const end = box.selectionStart ?? box.value.length;
    const text = box.value.slice(0, this.from) + reply.text + box.value.slice(end);
    this.write(text, this.from + reply.text.length);
    this.close();
  }

  /** The combobox's state, for the textarea. */
  get expanded(): 'true' | 'false' {
    return this.open ? 'true' : 'false';
  }

  get activeDescendant(): string | typeof nothing {
    return this.open ? this.optionId(this.active) : nothing;
  }

  /** The listbox, rendered right after the textarea. */
  listbox(box: () => HTMLTextAreaElement | null) {
    return html`<ul id=${this.id} class="canned" role="listbox" aria-label=${t('inbox.canned')} ?hidden=${!this.open}>
      ${this.options.map(
        (r, i) => html`<li
          id=${this.optionId(i)}
          role="option"
          aria-selected=${i === this.active ? 'true' : 'false'}
          @mousedown=${(e: MouseEvent) => {
            e.preventDefault(); // the box keeps focus and its caret
            const target = box();
            if (target) this.choose(i, target);
          }}
        >
          <span class="shortcut">/${r.shortcut}</span> <span class="canned-text">${r.text}</span>
        </li>`,
      )}
    </ul>`;
  }
}
