/**
 * Text analysis for knowledge search: per-language term processing (stopwords, Snowball stemming,
 * then diacritics stripped — in that order, because stripping first breaks the Spanish and German
 * stemmers) and chunking of long entries into passages that keep their offset in the entry.
 */
import { stemmer as stemDe } from '@orama/stemmers/german';
import { stemmer as stemEn } from '@orama/stemmers/english';
import { stemmer as stemEs } from '@orama/stemmers/spanish';
import { stemmer as stemFr } from '@orama/stemmers/french';

export const LANGUAGES = ['en', 'de', 'fr', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

const STEMMERS: Record<Language, (word: string) => string> = { en: stemEn, de: stemDe, fr: stemFr, es: stemEs };

// Small lists of the most frequent function words: they match nearly every passage and would only
// add noise to BM25 (and fuzzy matching turns "the" into "then", "they"…).
const STOPWORDS: Record<Language, Set<string>> = {
  en: new Set(
    'a an and are as at be by can do does for from how i in is it me my of on or our so that the this to was we what when where which who why will with you your'.split(' '),
  ),
  de: new Set(
    'aber als am an auch auf aus bei bin bis das dass dem den der des die du ein eine einem einen einer es für hat ich ihr im in ist ja mit nicht noch oder sie sind und von was wie wir zu zum zur'.split(' '),
  ),
  fr: new Set(
    'au aux avec ce ces comment dans de des du elle en est et il je la le les leur mais me mon ne nous on ou par pas pour que qui sa se ses son sur ta te un une vos votre vous'.split(' '),
  ),
  es: new Set(
    'a al como con de del el en es esta este la las lo los me mi mis no o para pero por que se su sus te tu un una y yo'.split(' '),
  ),
};

/**
 * Words that say how a question is asked, not what about ("should", "much", "tell", "please",
 * contractions' "don" and "t"): kept by search, but no evidence that a passage answers, so the
 * relevance (relevance.ts) leaves them out. In a small knowledge base such a word is rare, so its
 * IDF would make "what should I do if it hurts" look answered by "What should I do if my card is lost?".
 */
const FUNCTION_WORDS: Partial<Record<Language, Set<string>>> = {
  en: new Set(
    ('about above after again all also am another any anyone anything anyway around be been before being below best better ' +
      'bit both but could d did didn do doesn doing don done each either else enough even ever every everything few find ' +
      'get gets getting give go goes going good got had has have having he her here hers hey hi him his hello help how however ' +
      'if into isn just keep kind know let like ll look lot lots m make many may maybe mine more most much must need needs ' +
      'no none not nothing now off ok okay once one only other others out over own please possible pretty quite rather re ' +
      'really right s said same say see she should show since some someone something soon still such sure t take tell than ' +
      'thank thanks that their them then there these they thing things think those though through too try under until up ' +
      'us use ve very want wants way well were whatever whether while would yeah yes yet').split(' '),
  ),
};

/** Whether `word` may count as evidence that a passage answers (not a function word, not a lone letter). */
export function isContentWord(word: string, language: Language): boolean {
  const lower = word.toLowerCase();
  return lower.length > 1 && !FUNCTION_WORDS[language]?.has(lower);
}

/** Splits on anything that is not a letter or digit (Unicode-aware, so "envíos" stays one word). */
const WORD = /[\p{L}\p{N}]+/gu;

export function tokenize(text: string): string[] {
  return text.match(WORD) ?? [];
}

function stripDiacritics(term: string): string {
  return term.normalize('NFD').replace(/\p{M}/gu, '');
}

/** The index term for a word in `language`, or null for a stopword. */
export function processTerm(word: string, language: Language): string | null {
  const lower = word.toLowerCase();
  if (STOPWORDS[language].has(lower) || STOPWORDS[language].has(stripDiacritics(lower))) return null;
  return stripDiacritics(STEMMERS[language](lower));
}

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
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
  for (const match of passage.matchAll(WORD)) {
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

/** Texts that read the same (case, Unicode form and spacing aside) share this key. */
export function sameTextKey(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}
