import { html, nothing, type TemplateResult } from 'lit';
import type { WidgetStrings } from '../locales/strings.js';

/** The longest message the service accepts (the bot endpoint's `message`: 4,000 characters). */
export const MESSAGE_LIMIT = 4000;
/** The counter shows from here on, so the limit is visible before it is reached. */
export const COUNTER_FROM = 3200;

/** Characters as the service counts them: code points, so an emoji counts once. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** `{n}` and `{max}` of a string, formatted for `lang`. */
export function fillCount(template: string, lang: string, n: number): string {
  const format = new Intl.NumberFormat(lang).format;
  return template.replace('{n}', format(n)).replace('{max}', format(MESSAGE_LIMIT));
}

/**
 * The character counter above the input: nothing below `COUNTER_FROM`, then "3,650 / 4,000
 * characters", marked as an error past the limit. The textarea has no `maxlength`, so a long paste
 * is kept whole (and cannot be sent until it is shortened) instead of being cut silently.
 */
export function renderCounter(count: number, s: WidgetStrings, lang: string): TemplateResult | typeof nothing {
  if (count < COUNTER_FROM) return nothing;
  return html`<div part="counter" id="counter" class="counter ${count > MESSAGE_LIMIT ? 'over' : ''}">
    ${fillCount(s.characterCount, lang, count)}
  </div>`;
}
