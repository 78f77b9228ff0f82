/**
 * A fenced code block: its language label, a Copy button, and the code, coloured by the host's
 * `highlight` hook when it has one. No highlighter ships in the widget (its bytes are the host's
 * choice); the hook gives tokens or DOM nodes, never an HTML string, so it cannot reopen raw HTML
 * injection from bot text.
 */
import { html, type TemplateResult } from 'lit';
import { en } from '../locales/strings.js';

/** A piece of highlighted code; its `type` (`keyword`, `string`…) makes it the parts `token` and `token-keyword`. */
export interface HighlightToken {
  text: string;
  type?: string;
}

/**
 * Colours a code block: `code` and the fence's language (`''` when none) in; out, the code as
 * tokens, or as a DOM node the host built itself, or `null`/`undefined` for plain text. A string
 * is shown as text. Called again for each frame while a streamed code block grows.
 */
export type Highlighter = (code: string, language: string) => readonly HighlightToken[] | Node | null | undefined;

/** `keyword string` → `token-keyword token-string`: parts a page can style, not our own parts. */
const parts = (type = '') => type.replace(/\S+/g, 'token-$&');

function highlighted(code: string, lang: string, highlight?: Highlighter): unknown {
  try {
    const out = highlight?.(code, lang);
    if (Array.isArray(out)) return out.map((t: HighlightToken) => html`<span part="token ${parts(t.type)}">${t.text}</span>`);
    if (out instanceof Node) return out;
  } catch (error) {
    console.warn(error); // the host's highlighter failed: its code shows plain
  }
  return code;
}

/**
 * Copies `code` and says "Copied" in the status right after the button (a code block's, and an
 * answer's Copy in message-actions.ts). `navigator.clipboard` is missing on an
 * http: page and may be refused; the old `copy` command still works from a click there.
 */
export async function copy(event: Event, code: string, copied: string): Promise<void> {
  const button = event.currentTarget as HTMLButtonElement;
  try {
    await navigator.clipboard.writeText(code);
  } catch {
    const area = document.createElement('textarea');
    area.value = code;
    button.after(area);
    area.select();
    const done = document.execCommand('copy');
    area.remove();
    button.focus();
    if (!done) return;
  }
  // the status has no Lit binding inside: re-rendering the block leaves this text alone
  const status = button.nextElementSibling!;
  status.textContent = copied;
  setTimeout(() => (status.textContent = ''), 2000);
}

/** What a code block needs of the markdown options (`MarkdownOptions`). */
export interface CodeOptions {
  /** The labels the block shows; English without. */
  strings?: { copy: string; copied: string };
  /** Colours the code (the element's `highlight` property). */
  highlight?: Highlighter;
}

export function renderCode(code: string, lang: string, { strings = en, highlight }: CodeOptions): TemplateResult {
  return html`<div part="code-block" class="code"><div class="bar"><span>${lang}</span><button part="copy-button" type="button" @click=${(e: Event) => copy(e, code, strings.copied)}>${strings.copy}</button><span role="status"></span></div><pre><code>${highlighted(code, lang, highlight)}</code></pre></div>`;
}
