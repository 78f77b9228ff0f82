/**
 * Words of a text, the same way for every part of the service that reads text (knowledge search,
 * extractive answers, the intent guard): runs of letters and digits, Unicode-aware, so "envíos"
 * and "straße" stay one word.
 */

const WORD = /[\p{L}\p{N}]+/gu;

/** The words of `text` as written. */
export function words(text: string): string[] {
  return text.match(WORD) ?? [];
}

/** Each word of `text` with its offset. */
export function wordMatches(text: string): IterableIterator<RegExpExecArray> {
  return text.matchAll(WORD);
}

/** Accents and other combining marks removed ("envíos" → "envios"), compatibility forms unfolded ("ﬁ" → "fi"). */
export function stripDiacritics(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '');
}

/** Lower case without accents: how words are compared when their spelling may vary. */
export function folded(text: string): string {
  return stripDiacritics(text.toLowerCase());
}

/** Texts that read the same (case, Unicode form and spacing aside) share this key. */
export function sameTextKey(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}
