/**
 * Text analysis for knowledge search: the index term of a word (search stopwords left out,
 * Snowball stemming, then diacritics stripped — in that order, because stripping first breaks the
 * Spanish and German stemmers) and chunking of long entries into passages that keep their offset
 * in the entry. Words, languages and function words are the service's one text module (text/).
 */
import { NOT_EVIDENCE, SEARCH_STOPWORDS, stem, type Language } from '../text/languages.ts';
import { folded, stripDiacritics, wordMatches } from '../text/words.ts';

/** Whether `word` may count as evidence that a passage answers (relevance.ts): not `NOT_EVIDENCE`, not a lone letter. */
export function isContentWord(word: string, language: Language): boolean {
  const key = folded(word);
  return key.length > 1 && !NOT_EVIDENCE[language].has(key);
}

/** The index term for a word in `language`, or null for a search stopword. */
export function processTerm(word: string, language: Language): string | null {
  const lower = word.toLowerCase();
  if (SEARCH_STOPWORDS[language].has(stripDiacritics(lower))) return null;
  return stripDiacritics(stem(lower, language));
}

export interface Passage {
  /** Character offset of the passage in the entry's content. */
  offset: number;
  text: string;
}

/** Target passage length: long enough for context, short enough that a snippet points at the right place. */
export const PASSAGE_CHARS = 800;

/**
 * Cuts `content` into passages of about `PASSAGE_CHARS` characters, preferring paragraph, then
 * sentence, then word boundaries. Offsets index into the original string.
 */
export function chunk(content: string, size = PASSAGE_CHARS): Passage[] {
  const passages: Passage[] = [];
  let start = skipSpace(content, 0);
  while (start < content.length) {
    // A short tail is kept with the previous text rather than becoming a tiny passage of its own.
    if (content.length - start <= size * 1.25) {
      passages.push({ offset: start, text: content.slice(start).trimEnd() });
      break;
    }
    const end = breakPoint(content, start, size);
    const text = content.slice(start, end).trimEnd();
    if (text) passages.push({ offset: start, text });
    start = skipSpace(content, end);
  }
  return passages;
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
}

/** The end (exclusive) of a passage starting at `start`: the last good boundary in the second half of the window. */
function breakPoint(text: string, start: number, size: number): number {
  const windowEnd = start + size;
  const minEnd = start + Math.floor(size / 2);
  const window = text.slice(minEnd, windowEnd);
  const paragraph = window.lastIndexOf('\n\n');
  if (paragraph >= 0) return minEnd + paragraph;
  const sentence = Math.max(...['. ', '! ', '? ', '.\n', '\n'].map((m) => window.lastIndexOf(m)));
  if (sentence >= 0) return minEnd + sentence + 1;
  const space = window.search(/\s\S*$/);
  if (space >= 0) return minEnd + space;
  return windowEnd;
}

/**
 * About `length` characters of `passage` around the first word whose index term is one of
 * `terms`, cut at word boundaries and marked with "…" where text was left out.
 */
export function snippet(passage: string, terms: ReadonlySet<string>, language: Language, length = 240): string {
  let hit = -1;
  for (const match of wordMatches(passage)) {
    const term = processTerm(match[0], language);
    if (term && terms.has(term)) {
      hit = match.index;
      break;
    }
  }
  if (passage.length <= length) return passage.trim();
  let from = hit < 0 ? 0 : Math.max(0, hit - Math.floor(length / 3));
  from = Math.min(from, passage.length - length);
  if (from > 0) {
    const space = passage.indexOf(' ', from);
    if (space >= 0 && space < from + 30) from = space + 1;
  }
  let to = Math.min(passage.length, from + length);
  if (to < passage.length) {
    const space = passage.lastIndexOf(' ', to);
    if (space > from + length / 2) to = space;
  }
  return `${from > 0 ? '…' : ''}${passage.slice(from, to).trim()}${to < passage.length ? '…' : ''}`;
}
