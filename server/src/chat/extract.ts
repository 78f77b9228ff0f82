/**
 * Extractive answers: the sentences of the retrieved passages that share the most words with the
 * question, in their original order. No generation, so every word of the answer is in a source.
 */

const MIN_WORD = 3;
/** Words too common to say anything about relevance (English plus the most frequent de/fr/es ones). */
const COMMON = new Set(
  ('the and for are but not you your with this that from have has had was were will can how what when where which who why ' +
    'does did its it\'s into about there their them they then than out use using get any all also more some just only ' +
    'der die das und ist wie was wer wir ich sie ein eine mit für les des une est pour que qui avec los las una por con para')
    .split(' '),
);

/** Lower-case word stems (a 5-letter prefix is a crude but language-neutral stemmer). */
export function keywords(text: string): Set<string> {
  const out = new Set<string>();
  for (const match of text.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = match[0];
    if (word.length < MIN_WORD || COMMON.has(word)) continue;
    out.add(word.slice(0, 5));
  }
  return out;
}

export function sentences(text: string): string[] {
  return text
    .replace(/^#+\s*/gm, '') // markdown headings read as plain sentences
    .split(/(?<=[.!?])\s+|\n{2,}|\n(?=[-*•]\s)/)
    .map((s) => s.replace(/^[-*•]\s+/, '').replace(/\s+/g, ' ').trim())
    .filter((s) => s.length >= 12);
}

export interface ScoredSentence {
  text: string;
  overlap: number;
  position: number;
}

/** The `max` sentences with the largest overlap (at least `minOverlap`), in text order. */
export function bestSentences(text: string, question: ReadonlySet<string>, max: number, minOverlap = 1): ScoredSentence[] {
  const scored = sentences(text)
    .map((sentence, position) => {
      const words = keywords(sentence);
      let overlap = 0;
      for (const w of question) if (words.has(w)) overlap++;
      return { text: sentence, overlap, position };
    })
    .filter((s) => s.overlap >= minOverlap);
  return scored
    .sort((a, b) => b.overlap - a.overlap || a.position - b.position)
    .slice(0, max)
    .sort((a, b) => a.position - b.position);
}

/** Splits text into word-sized deltas whose concatenation is exactly the text. */
export function wordDeltas(text: string): string[] {
  const parts: string[] = [...(text.match(/\s*\S+/g) ?? [])];
  const joined = parts.join('');
  if (joined.length < text.length) parts.push(text.slice(joined.length)); // trailing whitespace
  return parts.length ? parts : [text];
}
