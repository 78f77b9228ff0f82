/**
 * A reply's sources: numbered under the answer, each a link to its page when it has an http(s)
 * one (`url`, or a `source` that is such a URL, as older replies stored it), its title otherwise.
 * `[n]` in the answer links to source `n` (see `MarkdownOptions.sources`).
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { TranscriptMessage } from '../core/events.js';
import { safeHref, showBidiControls } from '../markdown/markdown.js';
import type { WidgetStrings } from '../locales/strings.js';
import type { Source } from '../conversation/transcript.js';

/** The element ids of a message's sources, in order: unique in the transcript, as message ids are. */
export const sourceIds = (m: TranscriptMessage): string[] => (m.citations ?? []).map((_, i) => `${m.id}-source-${i + 1}`);

const pageOf = (c: Source): string | null => {
  const href = safeHref(c.url ?? c.source ?? '');
  return href && /^https?:/.test(href) ? href : null;
};

export function renderCitations(m: TranscriptMessage, s: WidgetStrings): TemplateResult | typeof nothing {
  const ids = sourceIds(m);
  return m.citations?.length
    ? html`<div part="citations" class="citations"><span>${`${s.sources}: `}</span><ol>${m.citations.map((c, i) => {
        const href = pageOf(c);
        // direction controls shown, not obeyed: an imported page's title must not reorder the list
        const title = showBidiControls(c.title);
        // tabindex: a marker's click focuses the source, also one without a link
        return html`<li id=${ids[i]} tabindex="-1">[${i + 1}] ${href
          ? html`<a part="source-link" href=${href} target="_blank" rel="noopener noreferrer" dir="auto">${title}</a>`
          : title}</li>`;
      })}</ol></div>`
    : nothing;
}
